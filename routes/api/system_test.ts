import assert from "node:assert/strict";
import { ORIGIN, testApp } from "../../tests/api.ts";
import { buildDir } from "../../islands/build.ts";

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
    assert.match(csp, /script-src 'self'(;|$)/);
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
      // Compressed once and kept: gzip to a browser that takes it, the file as it is otherwise.
      const file = await Deno.readFile(`${buildDir()}/${js.split("/").pop()}`);
      for (let i = 0; i < 2; i++) {
        const zipped = await t.app.request(ORIGIN + js, { headers: { "accept-encoding": "gzip, br" } });
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
