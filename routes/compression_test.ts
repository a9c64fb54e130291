import assert from "node:assert/strict";
import { brotliDecompressSync, zstdDecompressSync } from "node:zlib";
import { Hono } from "hono";
import {
  COMPRESS_MIN_BYTES,
  compression,
  forgetCompressedAnswers,
  jsonAnswer,
  OFF_THREAD_BYTES,
  stopCompressThread,
} from "./compression.ts";
import type { AppEnv, Caller } from "./env.ts";

const big = {
  items: Array.from({ length: 2000 }, (_, i) => ({ id: `m${i}`, name: `Member ${i}`, lat: 40 + i / 1e4 })),
};
const medium = { items: big.items.slice(0, 100) };
const page = `<!doctype html><p>${"A page of the app. ".repeat(200)}</p>`;
const app = new Hono();
app.use(compression());
app.get("/j/big", (c) => c.json(big));
app.get("/j/medium", (c) => c.json(medium, 201, { etag: '"v1"' }));
app.get("/j/small", (c) => c.json({ ok: true }));
app.get("/j/kept", (c) => c.json(big, 200, { "cache-control": "private, no-transform" }));
app.get("/page", (c) => c.html(page));

/** The body of `res` decoded as its Content-Encoding says. */
async function decoded(res: Response): Promise<string> {
  const enc = res.headers.get("content-encoding");
  if (enc === "br") return new TextDecoder().decode(brotliDecompressSync(new Uint8Array(await res.arrayBuffer())));
  if (enc === "zstd") return new TextDecoder().decode(zstdDecompressSync(new Uint8Array(await res.arrayBuffer())));
  if (enc === "gzip" || enc === "deflate") {
    return await new Response(res.body!.pipeThrough(new DecompressionStream(enc))).text();
  }
  return await res.text();
}

const BROWSER = { "accept-encoding": "gzip, deflate, br" };

Deno.test("compression - a large JSON answer goes in Brotli to a browser, in gzip to a gzip-only caller: same content", async () => {
  try {
    assert.ok(JSON.stringify(big).length >= OFF_THREAD_BYTES);
    for (const [accept, encoding] of [["gzip, deflate, br", "br"], ["gzip", "gzip"], ["br;q=0, gzip", "gzip"]]) {
      const res = await app.request("/j/big", { headers: { "accept-encoding": accept } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("content-encoding"), encoding, accept);
      assert.match(res.headers.get("vary") ?? "", /accept-encoding/i);
      assert.equal(res.headers.get("content-type"), "application/json");
      const text = await decoded(res);
      assert.equal(text, JSON.stringify(big));
    }
    const plain = await app.request("/j/big", { headers: { "accept-encoding": "gzip;q=0, identity" } });
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.deepEqual(await plain.json(), big);
  } finally {
    stopCompressThread();
  }
});

Deno.test("compression - a caller that names zstd gets large answers in Zstandard, small ones in Brotli; '*' never brings zstd", async () => {
  try {
    const current = "gzip, deflate, br, zstd";
    for (
      const [path, accept, encoding] of [
        ["/j/big", current, "zstd"], // off the thread
        ["/j/medium", current, "br"], // under 16 KB: Brotli
        ["/j/big", "zstd", "zstd"],
        ["/j/medium", "zstd", "zstd"], // nothing else accepted
        ["/j/big", "gzip, br, zstd;q=0", "br"],
        ["/j/big", "*", "br"],
      ] as const
    ) {
      const res = await app.request(path, { headers: { "accept-encoding": accept } });
      assert.equal(res.headers.get("content-encoding"), encoding, `${path} ${accept}`);
      assert.match(res.headers.get("vary") ?? "", /accept-encoding/i);
      assert.equal(await decoded(res), JSON.stringify(path === "/j/big" ? big : medium));
    }
    // Between 16 and 64 KB, on this thread.
    const mid = { items: big.items.slice(0, 600) };
    const size = JSON.stringify(mid).length;
    assert.ok(size >= 16 * 1024 && size < OFF_THREAD_BYTES);
    const local = new Hono().use(compression()).get("/", (c) => c.json(mid));
    const res = await local.request("/", { headers: { "accept-encoding": current } });
    assert.equal(res.headers.get("content-encoding"), "zstd");
    assert.equal(await decoded(res), JSON.stringify(mid));
  } finally {
    stopCompressThread();
  }
});

Deno.test("compression - a JSON answer under 64 KB is compressed on the spot; its status and headers stay, its ETag turns weak", async () => {
  const size = JSON.stringify(medium).length;
  assert.ok(size >= COMPRESS_MIN_BYTES && size < OFF_THREAD_BYTES);
  const res = await app.request("/j/medium", { headers: BROWSER });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("content-encoding"), "br");
  assert.equal(res.headers.get("etag"), 'W/"v1"');
  assert.deepEqual(JSON.parse(await decoded(res)), medium);
});

Deno.test("compression - a small JSON answer and one marked no-transform go as they were made", async () => {
  const small = await app.request("/j/small", { headers: BROWSER });
  assert.equal(small.headers.get("content-encoding"), null);
  assert.match(small.headers.get("vary") ?? "", /accept-encoding/i);
  assert.deepEqual(await small.json(), { ok: true });

  const kept = await app.request("/j/kept", { headers: BROWSER });
  assert.equal(kept.headers.get("content-encoding"), null);
  assert.deepEqual(await kept.json(), big);

  const head = await app.request("/j/big", { method: "HEAD", headers: BROWSER });
  assert.equal(head.headers.get("content-encoding"), null);
});

Deno.test("compression - other answers (a page) are left to Hono's compress(): gzip, same text", async () => {
  const res = await app.request("/page", { headers: BROWSER });
  assert.equal(res.headers.get("content-encoding"), "gzip");
  assert.equal(await decoded(res), page);
  const plain = await app.request("/page");
  assert.equal(plain.headers.get("content-encoding"), null);
  assert.equal(await plain.text(), page);
});

Deno.test("compression - a session's answer of the same text goes out in the same bytes; a changed text or another session's is compressed anew", async () => {
  let list = medium.items;
  const local = new Hono<AppEnv>()
    .use(async (c, next) => {
      const sid = c.req.header("x-session");
      c.set("caller", sid ? { sessionId: sid } as Caller : null);
      await next();
    })
    .use(compression())
    .get("/nearest", (c) => jsonAnswer(c, JSON.stringify({ items: list }), 200));
  const get = async (session?: string) => {
    const res = await local.request("/nearest", {
      headers: { ...BROWSER, ...(session ? { "x-session": session } : {}) },
    });
    assert.equal(res.headers.get("content-encoding"), "br");
    const bytes = new Uint8Array(await res.clone().arrayBuffer());
    return { bytes, text: await decoded(res) };
  };
  try {
    const first = await get("s1");
    const again = await get("s1");
    assert.equal(again.text, JSON.stringify({ items: list }));
    assert.deepEqual(again.bytes, first.bytes);
    // One member moved: the same session's next answer says so.
    list = [{ ...list[0], lat: 41 }, ...list.slice(1)];
    const moved = await get("s1");
    assert.equal(moved.text, JSON.stringify({ items: list }));
    assert.notDeepEqual(moved.bytes, first.bytes);
    // Another session and a caller without one get the same text, compressed for them.
    assert.equal((await get("s2")).text, moved.text);
    assert.equal((await get()).text, moved.text);
    assert.equal((await get("s1")).text, moved.text);
    // The same session from a caller that takes only gzip: gzip, never the kept Brotli bytes.
    const gzip = await local.request("/nearest", { headers: { "accept-encoding": "gzip", "x-session": "s1" } });
    assert.equal(gzip.headers.get("content-encoding"), "gzip");
    assert.equal(await decoded(gzip), moved.text);
  } finally {
    forgetCompressedAnswers();
  }
});
