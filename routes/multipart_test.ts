import assert from "node:assert/strict";
import { ApiError } from "./errors.ts";
import { boundaryOf, MULTIPART_ALLOWANCE, readMultipart } from "./multipart.ts";

const LIMITS = { maxFileBytes: 1000, maxFieldBytes: 50, maxParts: 4 };

/** A request whose body arrives in chunks of `chunk` bytes; `pulled()` says how many were read. */
function chunkedRequest(body: Uint8Array | (() => Iterator<Uint8Array>), type: string, headers: HeadersInit = {}) {
  let pulled = 0;
  const iter = typeof body === "function" ? body() : (function* () {
    for (let i = 0; i < body.length; i += 7) yield body.subarray(i, i + 7);
  })();
  const stream = new ReadableStream<Uint8Array>({
    pull(ctl) {
      const next = iter.next();
      if (next.done) return ctl.close();
      pulled += next.value.length;
      ctl.enqueue(next.value);
    },
  }, { highWaterMark: 0 });
  const req = new Request("http://x/", {
    method: "POST",
    body: stream,
    headers: { "content-type": type, ...headers },
  });
  return { req, pulled: () => pulled };
}

async function formBytes(fd: FormData): Promise<{ bytes: Uint8Array; type: string }> {
  const r = new Request("http://x/", { method: "POST", body: fd });
  return { bytes: new Uint8Array(await r.arrayBuffer()), type: r.headers.get("content-type")! };
}

async function status(p: Promise<unknown>): Promise<number> {
  try {
    await p;
    return 200;
  } catch (e) {
    assert.ok(e instanceof ApiError, String(e));
    return e.status;
  }
}

Deno.test("multipart - fields and a file come back whole, whatever the chunking", async () => {
  const file = crypto.getRandomValues(new Uint8Array(1000));
  file.set(new TextEncoder().encode("\r\n--"), 100); // delimiter-like bytes inside the file
  const fd = new FormData();
  fd.set("authorProfileId", "abc");
  fd.set("picfile", new File([file], "me.jpg", { type: "image/jpeg" }));
  fd.set("picfilename", "me.jpg");
  const { bytes, type } = await formBytes(fd);
  const { req } = chunkedRequest(bytes, type);
  const out = await readMultipart(req, LIMITS);
  assert.equal(out.fields.get("authorProfileId"), "abc");
  assert.equal(out.fields.get("picfilename"), "me.jpg");
  const got = out.files.get("picfile")!;
  assert.equal(got.filename, "me.jpg");
  assert.equal(got.type, "image/jpeg");
  assert.deepEqual(got.bytes, file);
});

Deno.test("multipart - a file one byte over the limit is refused with 413", async () => {
  for (const size of [1000, 1001]) {
    const fd = new FormData();
    fd.set("picfile", new File([new Uint8Array(size)], "x.png"));
    const { bytes, type } = await formBytes(fd);
    assert.equal(await status(readMultipart(chunkedRequest(bytes, type).req, LIMITS)), size > 1000 ? 413 : 200);
  }
});

Deno.test("multipart - an endless body is refused after the limit, without reading the rest", async () => {
  const boundary = "XyZ";
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="picfile"; filename="a.jpg"\r\n\r\n`,
  );
  const { req, pulled } = chunkedRequest(function* () {
    yield head;
    for (;;) yield new Uint8Array(4096);
  }, `multipart/form-data; boundary=${boundary}`);
  assert.equal(await status(readMultipart(req, LIMITS)), 413);
  assert.ok(pulled() < 1000 + 2 * 4096 + head.length, `read ${pulled()} bytes`);
});

Deno.test("multipart - a declared length over the limit is refused before reading", async () => {
  const { req, pulled } = chunkedRequest(new Uint8Array(10), "multipart/form-data; boundary=a", {
    "content-length": String(1000 + MULTIPART_ALLOWANCE + 1),
  });
  assert.equal(await status(readMultipart(req, LIMITS)), 413);
  assert.equal(pulled(), 0);
});

Deno.test("multipart - bad bodies: not multipart (415), truncated, nameless, too many parts, long field (400)", async () => {
  assert.equal(await status(readMultipart(chunkedRequest(new Uint8Array(3), "application/json").req, LIMITS)), 415);
  const fd = new FormData();
  fd.set("a", "1");
  const { bytes, type } = await formBytes(fd);
  assert.equal(await status(readMultipart(chunkedRequest(bytes.subarray(0, 30), type).req, LIMITS)), 400);
  const nameless = new TextEncoder().encode("--b\r\nContent-Type: text/plain\r\n\r\nhi\r\n--b--\r\n");
  assert.equal(
    await status(readMultipart(chunkedRequest(nameless, "multipart/form-data; boundary=b").req, LIMITS)),
    400,
  );
  const many = new FormData();
  for (let i = 0; i < 5; i++) many.set(`f${i}`, "x");
  const m = await formBytes(many);
  assert.equal(await status(readMultipart(chunkedRequest(m.bytes, m.type).req, LIMITS)), 400);
  const long = new FormData();
  long.set("authorProfileId", "x".repeat(51));
  const l = await formBytes(long);
  assert.equal(await status(readMultipart(chunkedRequest(l.bytes, l.type).req, LIMITS)), 400);
});

Deno.test("multipart - the boundary is read from the content type", () => {
  assert.equal(boundaryOf("multipart/form-data; boundary=abc"), "abc");
  assert.equal(boundaryOf('multipart/form-data; charset=utf-8; boundary="a b"'), "a b");
  assert.equal(boundaryOf("multipart/form-data"), null);
  assert.equal(boundaryOf("text/plain; boundary=abc"), null);
  assert.equal(boundaryOf(null), null);
});
