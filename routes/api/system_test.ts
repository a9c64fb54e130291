import assert from "node:assert/strict";
import { ORIGIN, testApp } from "../../tests/api.ts";
import { brotliDecompressSync } from "node:zlib";
import { buildDir, PRECOMPRESSED_BR } from "../../islands/buildOutput.ts";
import { acceptsEncoding } from "../assets.ts";

Deno.test("system - ping, version and version_frontend answer", async () => {
  const t = await testApp();
  try {
    assert.equal((await t.call("GET", "/api/ping")).data.pong, true);
    const v = await t.call("GET", "/api/version");
    assert.match(v.data.gitCommitHash, /^([0-9a-f]{40}|unknown)$/);
    const f = await t.call("GET", "/version_frontend.json");
    assert.equal(f.status, 200);
    assert.ok("gitCommitHash" in f.data && "gitCommitTs" in f.data);
  } finally {
    t.close();
  }
});

Deno.test("system - an unknown call is a JSON 404 in the one error shape, with the request id of its header", async () => {
  const t = await testApp();
  try {
    const r = await t.call("GET", "/api/nothing/here");
    assert.equal(r.status, 404);
    assert.deepEqual(Object.keys(r.data.error).sort(), ["code", "message", "requestId"]);
    assert.equal(r.data.error.requestId, r.headers.get("x-request-id"));
  } finally {
    t.close();
  }
});

Deno.test("system - security headers: CSP without inline script, HSTS, nosniff, no referrer", async () => {
  const t = await testApp();
  try {
    const r = await t.call("GET", "/aboutus");
    const csp = r.headers.get("content-security-policy")!;
    // Scripts from this origin only; the inline scripts allowed (the speculation rules, the grid's loader) by hash.
    assert.match(csp, /script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')*(;|$)/);
    assert.ok(!/unsafe-inline|unsafe-eval/.test(csp.match(/script-src[^;]*/)![0]), "no inline or eval script");
    assert.match(csp, /object-src 'none'/);
    assert.match(csp, /base-uri 'none'/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(r.headers.get("strict-transport-security")!, /max-age=\d+/);
    assert.equal(r.headers.get("x-content-type-options"), "nosniff");
    assert.equal(r.headers.get("referrer-policy"), "no-referrer");
    assert.doesNotMatch(r.text, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
  } finally {
    t.close();
  }
});

Deno.test("system - static files: hashed bundles are immutable, paths cannot escape static/", async () => {
  const t = await testApp();
  try {
    const icon = await t.call("GET", "/static/icon.svg");
    assert.equal(icon.status, 200);
    assert.doesNotMatch(icon.headers.get("cache-control")!, /immutable/);
    assert.equal((await t.call("GET", "/static/../deno.json")).status, 404);
    assert.equal((await t.call("GET", "/static/%2e%2e/deno.json")).status, 404);
    assert.equal((await t.call("GET", "/static/build.ts")).status, 404);
    const manifest = JSON.parse(await Deno.readTextFile(`${buildDir()}/manifest.json`).catch(() => "null"));
    if (manifest) {
      const js = manifest.islands.Header.js as string;
      const r = await t.call("GET", js);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get("cache-control"), "public, max-age=31536000, immutable");
      // Compressed once and kept: Brotli (written by the build) or gzip to a browser that takes
      // it, the file as it is otherwise.
      const file = await Deno.readFile(`${buildDir()}/${js.split("/").pop()}`);
      // (A build from before the Brotli copies has none: rebuild.)
      const built = await Deno.stat(`${buildDir()}/${js.split("/").pop()}${PRECOMPRESSED_BR}`).then(
        () => true,
        () => false,
      );
      for (let i = 0; i < 2; i++) {
        const br = await t.app.request(ORIGIN + js, { headers: { "accept-encoding": "gzip, deflate, br, zstd" } });
        assert.equal(br.headers.get("content-encoding"), built ? "br" : "gzip");
        assert.equal(br.headers.get("vary"), "Accept-Encoding");
        if (built) assert.deepEqual(new Uint8Array(brotliDecompressSync(new Uint8Array(await br.arrayBuffer()))), file);
        const zipped = await t.app.request(ORIGIN + js, { headers: { "accept-encoding": "gzip, br;q=0" } });
        assert.equal(zipped.headers.get("content-encoding"), "gzip");
        assert.equal(zipped.headers.get("content-type"), "text/javascript; charset=utf-8");
        const unzipped = new Uint8Array(
          await new Response(zipped.body!.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer(),
        );
        assert.deepEqual(unzipped, file);
      }
      const plain = await t.app.request(ORIGIN + js, { headers: { "accept-encoding": "identity" } });
      assert.equal(plain.headers.get("content-encoding"), null);
      assert.deepEqual(new Uint8Array(await plain.arrayBuffer()), file);
    }
  } finally {
    t.close();
  }
});

Deno.test("static - Accept-Encoding: a coding is taken when named or under *, never with q=0", () => {
  assert.equal(acceptsEncoding("gzip, deflate, br, zstd", "br"), true);
  assert.equal(acceptsEncoding("GZIP;q=0.5", "gzip"), true);
  assert.equal(acceptsEncoding("gzip, br;q=0", "br"), false);
  assert.equal(acceptsEncoding("*", "br"), true);
  assert.equal(acceptsEncoding("*, br;q=0", "br"), false);
  assert.equal(acceptsEncoding("*;q=0, gzip", "br"), false);
  assert.equal(acceptsEncoding("identity", "gzip"), false);
  assert.equal(acceptsEncoding("", "gzip"), false);
});
