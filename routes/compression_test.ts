import assert from "node:assert/strict";
import { brotliDecompressSync, zstdDecompressSync } from "node:zlib";
import { Hono } from "hono";
import { COMPRESS_MIN_BYTES, compression, OFF_THREAD_BYTES, pageAnswer, stopCompressThread } from "./compression.ts";

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
/** A grid-like page of 40 KB or so: tiles with names, distances and picture addresses. */
const grid = `<!doctype html><main>${
  Array.from({ length: 160 }, (_, i) =>
    `<a class="tile" href="/profile/${(i * 7919).toString(16).padStart(28, "0")}"><img src="/api/profile-pic/${
      (i * 104_729).toString(16).padStart(28, "0")
    }?scale_x=256" alt=""><span class="name">Member ${i}</span><span class="dist">${
      (i * 0.37).toFixed(2)
    } mi</span></a>`).join("")
}</main>`;
app.get("/made-page", (c) => pageAnswer(c, grid, 200));
app.get("/streamed-grid", (c) => c.html(grid));

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

Deno.test("compression - a page made whole (pageAnswer) is compressed at once: Zstandard where named, else gzip, else Brotli; no larger than gzip's stream made it", async () => {
  assert.ok(grid.length >= 16 * 1024);
  const streamed = await app.request("/streamed-grid", { headers: BROWSER });
  assert.equal(streamed.headers.get("content-encoding"), "gzip");
  const streamedBytes = (await streamed.arrayBuffer()).byteLength;
  for (
    const [accept, encoding] of [
      ["gzip, deflate, br, zstd", "zstd"],
      ["gzip, deflate, br", "gzip"],
      ["gzip", "gzip"],
      ["br", "br"],
    ]
  ) {
    const res = await app.request("/made-page", { headers: { "accept-encoding": accept } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-encoding"), encoding, accept);
    assert.match(res.headers.get("content-type") ?? "", /^text\/html/);
    assert.match(res.headers.get("vary") ?? "", /accept-encoding/i);
    const bytes = Number(res.headers.get("content-length") ?? (await res.clone().arrayBuffer()).byteLength);
    assert.ok(bytes <= streamedBytes * 1.1, `${encoding}: ${bytes} bytes against gzip's stream ${streamedBytes}`);
    assert.equal(await decoded(res), grid);
  }
  const plain = await app.request("/made-page");
  assert.equal(plain.headers.get("content-encoding"), null);
  assert.equal(await plain.text(), grid);
  const head = await app.request("/made-page", { method: "HEAD", headers: BROWSER });
  assert.equal(head.headers.get("content-encoding"), null);
});
