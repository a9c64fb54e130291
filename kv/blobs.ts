/**
 * Binary blobs (pictures) behind a small interface, so an object-store backend can replace
 * the Deno KV one. The KV backend splits a blob into chunks below the 64 KiB value limit and
 * writes its manifest LAST (and deletes it FIRST): a blob is visible exactly while its
 * manifest exists, so a half-written or half-deleted blob is never served.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";

/** Bytes per chunk: below KV's 64 KiB value limit with room to spare. */
export const BLOB_CHUNK_BYTES = 60_000;

/** Chunks written per `kv.atomic()`: 10 × 60 KB stays below KV's 800 KiB per-commit limit. */
const CHUNKS_PER_COMMIT = 10;

/** What a caller stores beside the bytes: the content type, plus any small JSON-like fields. */
export type BlobPutMeta = { type: string; [field: string]: unknown };

/** What is known about a stored blob without reading its bytes. */
export type BlobMeta = BlobPutMeta & {
  /** Byte length. */
  size: number;
  /** SHA-256 of the bytes, lowercase hex: usable as an HTTP ETag. */
  etag: string;
  /** Milliseconds since the epoch when this version was written. */
  created: number;
};

/** A blob read back whole. */
export type StoredBlob = {
  bytes: Uint8Array;
  type: string;
  etag: string;
  size: number;
  meta: BlobMeta;
};

/** The contract every backend (KV, object store) keeps. */
export interface BlobStore {
  /** Stores `bytes` under `id`, replacing any earlier blob; visible only once complete. */
  put(id: string, bytes: Uint8Array, meta: BlobPutMeta): Promise<BlobMeta>;
  /** The whole blob, or null when there is none (or it was deleted while being read). */
  get(id: string): Promise<StoredBlob | null>;
  /** The blob's metadata without its bytes, or null. */
  meta(id: string): Promise<BlobMeta | null>;
  /** Removes the blob; true when there was one. Safe to call twice. */
  delete(id: string): Promise<boolean>;
}

/** Thrown by `put`/`delete` when another write to the same id committed in between. */
export class BlobConflictError extends Error {
  override name = "BlobConflictError";
  constructor(id: string) {
    super(`blob ${id} was changed by a concurrent write`);
  }
}

/**
 * The manifest as the KV backend stores it: the public meta plus where the chunks are: under the
 * blob's own id, or under `chunksOf` when the blob shares the bytes of a kept blob (`shareBlobOp`).
 */
type KvManifest = BlobMeta & { chunks: number; gen: string; chunksOf?: string };

const RESERVED = new Set(["size", "etag", "created", "chunks", "gen", "chunksOf"]);

function publicMeta(m: KvManifest): BlobMeta {
  const { chunks: _chunks, gen: _gen, chunksOf: _of, ...meta } = m;
  return meta;
}

/** SHA-256 of `bytes` as lowercase hex. */
export async function sha256HexBytes(bytes: Uint8Array): Promise<string> {
  const d = await crypto.subtle.digest(
    "SHA-256",
    bytes as Uint8Array<ArrayBuffer>,
  );
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** Deletes every key under `prefix`, in commits of at most 100 mutations. */
async function deletePrefix(db: Deno.Kv, prefix: Deno.KvKey): Promise<void> {
  let batch: Deno.KvKey[] = [];
  for await (const e of db.list({ prefix }, { batchSize: 100 })) {
    batch.push(e.key);
    if (batch.length === 100) {
      const op = db.atomic();
      for (const k of batch) op.delete(k);
      await op.commit();
      batch = [];
    }
  }
  if (batch.length) {
    const op = db.atomic();
    for (const k of batch) op.delete(k);
    await op.commit();
  }
}

/**
 * The Deno KV backend. Each put writes a new generation of chunks under a fresh id, then
 * switches the manifest to it (checked against the manifest it started from), then removes
 * the old generation: readers see the old blob or the new one, never a mix.
 */
export function kvBlobStore(db: () => Deno.Kv = kv): BlobStore {
  async function readManifest(id: string) {
    return await db().get<KvManifest>(keys.blob(id));
  }

  return {
    async put(id, bytes, meta) {
      if (typeof meta?.type !== "string" || !meta.type) {
        throw new TypeError("putBlob: meta.type is required");
      }
      const extra = Object.fromEntries(
        Object.entries(meta).filter(([k]) => !RESERVED.has(k)),
      );
      const before = await readManifest(id);
      const gen = newId();
      const chunks = Math.ceil(bytes.byteLength / BLOB_CHUNK_BYTES);
      let committed = false;
      try {
        for (let first = 0; first < chunks; first += CHUNKS_PER_COMMIT) {
          const op = db().atomic();
          for (
            let n = first;
            n < Math.min(chunks, first + CHUNKS_PER_COMMIT);
            n++
          ) {
            // KV stores exactly the view's bytes, so a subarray needs no copy.
            op.set(
              keys.blobChunk(id, gen, n),
              bytes.subarray(n * BLOB_CHUNK_BYTES, (n + 1) * BLOB_CHUNK_BYTES),
            );
          }
          const res = await op.commit();
          if (!res.ok) throw new Error(`blob ${id}: chunk commit failed`);
        }
        const manifest: KvManifest = {
          ...extra,
          type: meta.type,
          size: bytes.byteLength,
          etag: await sha256HexBytes(bytes),
          created: now(),
          chunks,
          gen,
        };
        const res = await db().atomic().check(before).set(
          keys.blob(id),
          manifest,
        ).commit();
        if (!res.ok) throw new BlobConflictError(id);
        committed = true;
        if (before.value) {
          await deletePrefix(db(), keys.blobChunksOfGen(id, before.value.gen));
        }
        return publicMeta(manifest);
      } finally {
        // A failed put leaves no chunks behind (best effort: a crash still can).
        if (!committed) {
          await deletePrefix(db(), keys.blobChunksOfGen(id, gen)).catch(
            () => {},
          );
        }
      }
    },

    async get(id) {
      const m = await readManifest(id);
      if (!m.value) return null;
      const { chunks, gen, size } = m.value;
      const bytes = new Uint8Array(size);
      let n = 0;
      let offset = 0;
      for await (
        const e of db().list<Uint8Array>({
          prefix: keys.blobChunksOfGen(m.value.chunksOf ?? id, gen),
        }, {
          batchSize: 20,
        })
      ) {
        // Chunks come back in key order; a gap or overrun means a concurrent delete or re-put.
        if (e.key[e.key.length - 1] !== n) return null;
        if (offset + e.value.byteLength > size) return null;
        bytes.set(e.value, offset);
        offset += e.value.byteLength;
        n++;
      }
      if (n !== chunks || offset !== size) return null;
      const meta = publicMeta(m.value);
      return { bytes, type: meta.type, etag: meta.etag, size, meta };
    },

    async meta(id) {
      const m = await readManifest(id);
      return m.value ? publicMeta(m.value) : null;
    },

    async delete(id) {
      const m = await readManifest(id);
      if (m.value) {
        const res = await db().atomic().check(m).delete(keys.blob(id)).commit();
        if (!res.ok) throw new BlobConflictError(id);
      }
      // Every generation, so chunks left by a crashed put go too (a shared blob's chunks are not
      // under its id: they stay with the kept blob).
      await deletePrefix(db(), keys.blobChunksAll(id));
      return m.value !== null;
    },
  };
}

/** The backend every blob call goes to: another `BlobStore` (an object store) would be chosen here. */
const store: BlobStore = kvBlobStore();

/** Stores `bytes` under `id` (replacing any earlier blob); readers see it only once complete. */
export function putBlob(
  id: string,
  bytes: Uint8Array,
  meta: BlobPutMeta,
): Promise<BlobMeta> {
  return store.put(id, bytes, meta);
}

/** The whole blob `{bytes, type, etag, size, meta}`, or null when there is none. */
export function getBlob(id: string): Promise<StoredBlob | null> {
  return store.get(id);
}

/** The blob's metadata (type, size, etag, created, extra fields), or null. */
export function getBlobMeta(id: string): Promise<BlobMeta | null> {
  return store.meta(id);
}

/** Removes the blob: manifest first (it vanishes at once), then its chunks. True if it existed. */
export function deleteBlob(id: string): Promise<boolean> {
  return store.delete(id);
}

// --- bytes stored once, shown by many blobs (the KV backend's own; a seed's pictures)

/** A blob stored for sharing (`keepShareableBlob`): what `shareBlobOp` needs to point at it. */
export interface ShareableBlob {
  readonly id: string;
  readonly manifest: Readonly<KvManifest>;
}

/**
 * Stores `bytes` under `id` to be shared by other blobs (`shareBlobOp`), or finds it stored
 * already with the same bytes. A shareable blob must never be put again or deleted while blobs
 * share it: give it an id no member's data uses.
 */
export async function keepShareableBlob(id: string, bytes: Uint8Array, meta: BlobPutMeta): Promise<ShareableBlob> {
  const etag = await sha256HexBytes(bytes);
  let found = await kv().get<KvManifest>(keys.blob(id));
  if (found.value?.etag !== etag || found.value.chunksOf) {
    if (found.value) throw new Error(`shareable blob ${id} holds other bytes`);
    await putBlob(id, bytes, meta);
    found = await kv().get<KvManifest>(keys.blob(id));
  }
  if (!found.value) throw new Error(`shareable blob ${id} vanished`);
  return { id, manifest: found.value };
}

/**
 * Adds to `op` the manifest of a new blob `id` whose bytes are those of `shared`, read from its
 * chunks rather than copied (one small write instead of the bytes). `meta` replaces the shared
 * blob's own extra fields. Deleting blob `id` later removes only its manifest; a put over it
 * writes its own chunks as usual.
 */
export function shareBlobOp(op: Deno.AtomicOperation, id: string, shared: ShareableBlob, meta: BlobPutMeta): void {
  const extra = Object.fromEntries(Object.entries(meta).filter(([k]) => !RESERVED.has(k)));
  const { chunks, gen, size, etag } = shared.manifest;
  const manifest: KvManifest = {
    ...extra,
    type: meta.type,
    size,
    etag,
    created: now(),
    chunks,
    gen,
    chunksOf: shared.manifest.chunksOf ?? shared.id,
  };
  op.set(keys.blob(id), manifest);
}
