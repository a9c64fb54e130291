/**
 * The KV Connect test server's key codec against Deno KV itself: every key decodes back to
 * itself, and the order of the encoded bytes is the order a local Deno KV lists the keys in.
 */

import assert from "node:assert/strict";
import fc from "fast-check";
import { compareBytes, decodeKey, encodeKey } from "./keyCodec.ts";
import { binaryString } from "../../tests/binaryString.ts";

const part: fc.Arbitrary<Deno.KvKeyPart> = fc.oneof(
  binaryString(),
  fc.uint8Array({ maxLength: 6 }),
  fc.double({ noNaN: true }),
  fc.bigInt({ min: -(1n << 80n), max: 1n << 80n }),
  fc.boolean(),
);
const key = fc.array(part, { minLength: 1, maxLength: 3 });

Deno.test("kv key codec - every key decodes back to itself", () => {
  fc.assert(fc.property(key, (k) => {
    const back = decodeKey(encodeKey(k));
    assert.deepEqual(back, k.map((p) => Object.is(p, -0) ? 0 : p));
  }));
});

Deno.test("kv key codec - bytes that are not one key decode to null", () => {
  for (const bad of [[0x02, 0x61], [0x21, 0, 0], [0x99], [0x01, 0x61, 0x00, 0xff]]) {
    assert.equal(decodeKey(new Uint8Array(bad)), null, String(bad));
  }
});

Deno.test("kv key codec - other spellings of a key decode to null", () => {
  // A leading byte order mark (the decoder drops it), a short number in the long form, -0 spelt as a
  // negative, a NaN that is not the one the codec writes.
  for (
    const other of [
      [0x02, 0xef, 0xbb, 0xbf, 0x61, 0x00],
      [0x1d, 0x08, 1, 2, 3, 4, 5, 6, 7, 8],
      [0x21, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff],
      [0x21, 0x00, 0x07, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe],
    ]
  ) {
    assert.equal(decodeKey(new Uint8Array(other)), null, String(other));
  }
});

Deno.test("kv key codec - the encoded bytes sort as a local Deno KV lists the keys", async () => {
  const db = await Deno.openKv(":memory:");
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(key, { minLength: 2, maxLength: 12, selector: (k) => String(encodeKey(k)) }),
        async (keys) => {
          for await (const e of db.list({ prefix: [] })) await db.delete(e.key);
          for (const k of keys) await db.set(k, 1);
          const listed = (await Array.fromAsync(db.list({ prefix: [] }))).map((e) => encodeKey(e.key));
          const sorted = keys.map(encodeKey).sort(compareBytes);
          assert.deepEqual(listed, sorted);
        },
      ),
      { numRuns: 60 },
    );
  } finally {
    db.close();
  }
});
