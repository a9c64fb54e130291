import assert from "node:assert/strict";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import {
  BLOB_CHUNK_BYTES,
  deleteBlob,
  getBlob,
  getBlobMeta,
  keepShareableBlob,
  putBlob,
  sha256HexBytes,
  shareBlobOp,
} from "./blobs.ts";
import { kvTest } from "../tests/kv.ts";

function randomBytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  // getRandomValues fills at most 65,536 bytes per call.
  for (let i = 0; i < n; i += 65_536) {
    crypto.getRandomValues(out.subarray(i, i + 65_536));
  }
  return out;
}

async function countKeys(prefix: Deno.KvKey): Promise<number> {
  let n = 0;
  for await (const _ of kv().list({ prefix })) n++;
  return n;
}

kvTest(
  "blobs - a 500 KB blob round-trips byte for byte with type, size and etag",
  async () => {
    const id = newId();
    const bytes = randomBytes(500_000);
    const meta = await putBlob(id, bytes, { type: "image/webp", width: 640 });
    assert.equal(meta.size, 500_000);
    assert.equal(meta.etag, await sha256HexBytes(bytes));
    assert.equal(
      await countKeys(keys.blobChunksAll(id)),
      Math.ceil(500_000 / BLOB_CHUNK_BYTES),
    );

    const got = await getBlob(id);
    assert.ok(got);
    assert.equal(got.type, "image/webp");
    assert.equal(got.size, 500_000);
    assert.equal(got.etag, meta.etag);
    assert.deepEqual(got.bytes, bytes);
    assert.equal(got.meta.width, 640);

    const m = await getBlobMeta(id);
    assert.ok(m);
    assert.equal(m.type, "image/webp");
    assert.equal(m.size, 500_000);
    assert.equal(
      "gen" in m || "chunks" in m,
      false,
      "backend internals stay internal",
    );
  },
);

kvTest("blobs - empty and exact-multiple sizes round-trip", async () => {
  for (const n of [0, 1, BLOB_CHUNK_BYTES, 2 * BLOB_CHUNK_BYTES]) {
    const id = newId();
    const bytes = randomBytes(n);
    await putBlob(id, bytes, { type: "application/octet-stream" });
    const got = await getBlob(id);
    assert.ok(got, `size ${n}`);
    assert.deepEqual(got.bytes, bytes);
  }
});

kvTest(
  "blobs - a view into a larger buffer stores only its own bytes",
  async () => {
    const id = newId();
    const backing = randomBytes(300_000);
    const view = backing.subarray(1_000, 131_000);
    await putBlob(id, view, { type: "image/webp" });
    const got = await getBlob(id);
    assert.ok(got);
    assert.equal(got.size, 130_000);
    assert.deepEqual(got.bytes, backing.slice(1_000, 131_000));
    assert.equal(got.etag, await sha256HexBytes(backing.slice(1_000, 131_000)));
  },
);

kvTest("blobs - a missing blob is null", async () => {
  assert.equal(await getBlob(newId()), null);
  assert.equal(await getBlobMeta(newId()), null);
  assert.equal(await deleteBlob(newId()), false);
});

kvTest("blobs - chunks without a manifest are invisible", async () => {
  const id = newId();
  // What a put that crashed before its manifest leaves behind.
  await kv().set(keys.blobChunk(id, newId(), 0), new Uint8Array([1, 2, 3]));
  assert.equal(await getBlob(id), null);
  assert.equal(await getBlobMeta(id), null);
  // ... and deleting the id sweeps them.
  await deleteBlob(id);
  assert.equal(await countKeys(keys.blobChunksAll(id)), 0);
});

kvTest(
  "blobs - a manifest whose chunks are gone reads as null, not as torn bytes",
  async () => {
    const id = newId();
    await putBlob(id, randomBytes(150_000), { type: "image/jpeg" });
    const m = await kv().get<{ gen: string }>(keys.blob(id));
    assert.ok(m.value);
    await kv().delete(keys.blobChunk(id, m.value.gen, 1));
    assert.equal(await getBlob(id), null);
  },
);

kvTest("blobs - delete removes the manifest and every chunk", async () => {
  const id = newId();
  const other = newId();
  await putBlob(id, randomBytes(200_000), { type: "image/png" });
  await putBlob(other, randomBytes(10), { type: "image/png" });
  assert.equal(await deleteBlob(id), true);
  assert.equal(await getBlob(id), null);
  assert.equal((await kv().get(keys.blob(id))).value, null);
  assert.equal(await countKeys(keys.blobChunksAll(id)), 0);
  assert.equal(await deleteBlob(id), false, "a second delete is a no-op");
  assert.ok(await getBlob(other), "other blobs are untouched");
});

kvTest(
  "blobs - a re-put replaces the bytes and leaves no old chunks",
  async () => {
    const id = newId();
    await putBlob(id, randomBytes(300_000), { type: "image/png" });
    const next = randomBytes(70_000);
    await putBlob(id, next, { type: "image/webp" });
    const got = await getBlob(id);
    assert.ok(got);
    assert.equal(got.type, "image/webp");
    assert.deepEqual(got.bytes, next);
    assert.equal(await countKeys(keys.blobChunksAll(id)), 2);
  },
);

kvTest("blobs - put refuses a missing type and stores nothing", async () => {
  const id = newId();
  await assert.rejects(
    () => putBlob(id, randomBytes(10), {} as unknown as { type: string }),
    TypeError,
  );
  assert.equal(await countKeys(keys.blobChunksAll(id)), 0);
});

kvTest(
  "blobs - a blob sharing a kept blob's bytes reads them whole; deleting or re-putting it leaves the kept one",
  async () => {
    const bytes = randomBytes(BLOB_CHUNK_BYTES * 2 + 17);
    const kept = await keepShareableBlob("shared/a", bytes, { type: "image/webp" });
    assert.deepEqual(
      await keepShareableBlob("shared/a", bytes, { type: "image/webp" }),
      kept,
      "found again, not re-put",
    );
    await assert.rejects(keepShareableBlob("shared/a", randomBytes(10), { type: "image/webp" }));
    for (const id of ["one", "two"]) {
      const op = kv().atomic();
      shareBlobOp(op, id, kept, { type: "image/webp", stage: "master" });
      assert.ok((await op.commit()).ok);
    }
    const one = (await getBlob("one"))!;
    assert.deepEqual(one.bytes, bytes);
    assert.equal(one.etag, await sha256HexBytes(bytes));
    assert.equal(one.meta.stage, "master");
    assert.equal("chunksOf" in one.meta, false, "where the chunks are stays the store's own");
    assert.equal(await countKeys(keys.blobChunksAll("one")), 0, "no bytes copied");
    assert.equal(await deleteBlob("one"), true);
    const other = randomBytes(100);
    await putBlob("two", other, { type: "image/webp" });
    assert.deepEqual((await getBlob("two"))!.bytes, other);
    assert.deepEqual((await getBlob("shared/a"))!.bytes, bytes, "the kept blob is whole");
  },
);
