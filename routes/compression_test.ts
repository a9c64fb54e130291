import assert from "node:assert/strict";
import { Hono } from "hono";
import { compress } from "hono/compress";
import { OFF_THREAD_BYTES, offThreadGzip, stopGzipThread } from "./offThreadGzip.ts";

const big = {
  items: Array.from({ length: 2000 }, (_, i) => ({ id: `m${i}`, name: `Member ${i}`, lat: 40 + i / 1e4 })),
};
const app = new Hono();
app.use(compress());
app.use("/j/*", offThreadGzip());
app.get("/j/big", (c) => c.json(big));
app.get("/j/small", (c) => c.json({ ok: true }));

const decoded = async (res: Response) =>
  JSON.parse(await new Response(res.body!.pipeThrough(new DecompressionStream("gzip"))).text());

Deno.test("offThreadGzip - a large JSON answer is gzipped off the thread: same content, gzip headers", async () => {
  try {
    assert.ok(JSON.stringify(big).length >= OFF_THREAD_BYTES);
    const res = await app.request("/j/big", { headers: { "accept-encoding": "gzip, deflate, br" } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-encoding"), "gzip");
    assert.match(res.headers.get("vary") ?? "", /accept-encoding/i);
    assert.equal(res.headers.get("content-type"), "application/json");
    assert.deepEqual(await decoded(res), big);

    const plain = await app.request("/j/big", { headers: { "accept-encoding": "gzip;q=0, identity" } });
    assert.equal(plain.headers.get("content-encoding"), null);
    assert.deepEqual(await plain.json(), big);

    // A small answer is left to compress(), as before.
    const small = await app.request("/j/small", { headers: { "accept-encoding": "gzip" } });
    assert.equal(small.headers.get("content-encoding"), "gzip");
    assert.deepEqual(await decoded(small), { ok: true });
  } finally {
    stopGzipThread();
  }
});
