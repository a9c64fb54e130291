/**
 * A compact snapshot of the position index, so an instance starts in seconds at a million members
 * instead of listing every shown record (8 to 23 s at 1M).
 *
 * Contract: the snapshot is the index as of one log key (`cursor`): every member with its shown
 * point, report time, expiry and sector. Loading it and then tailing the log after `cursor` gives
 * the same index as a full load (the log holds every change after it, in commit order). A
 * snapshot older than half the log's lifetime is not used (the log may have expired past its
 * cursor): the store loads in full. It is a blob (kv/blobs.ts), written by one instance at a time
 * (a lease) every `SNAPSHOT_EVERY_MS` and on shutdown.
 *
 * Layout (little-endian, version 2): a 4-byte header length, a JSON header `{v, cursor, ts, n,
 * sectors}`, then from an 8-byte boundary the index's own columns in its cell order
 * (memoryIndex.ts `toColumns`): four Float64Arrays of n (lat, lon, report time, expiry), an
 * Int32Array of n (the sector, an index into the header's `sectors`), then the n ids as one UTF-8
 * text, one a line. Loading reads the numbers in place (views over the blob's bytes) and fills
 * the index's arena in one pass; only the ids become strings. Version 1 (the floats, then id,
 * sector and an empty line per member as text) is still read.
 */

import { kvBlobStore } from "../blobs.ts";
import { keys } from "../keys.ts";
import { type IndexColumns, PositionIndex } from "./memoryIndex.ts";
import { POSITION_LOG_TTL_MS } from "./types.ts";

/** The blob that holds the snapshot. */
export const SNAPSHOT_BLOB = "positions-snapshot";
/** How often one instance writes a snapshot (well within the log's lifetime). */
export const SNAPSHOT_EVERY_MS = 5 * 60_000;
/** A snapshot older than this is not loaded: the log may no longer reach back to its cursor. */
export const SNAPSHOT_MAX_AGE_MS = POSITION_LOG_TTL_MS / 2;

interface Header {
  v: 1 | 2;
  cursor: string;
  ts: number;
  n: number;
  /** Version 2: the sectors the sector column points into. */
  sectors?: string[];
}

/** The index as bytes, as of the log key `cursor`. */
export function encodeSnapshot(index: PositionIndex, cursor: string, ts: number): Uint8Array {
  const cols = index.toColumns();
  const n = cols.ids.length;
  const enc = new TextEncoder();
  const header = enc.encode(JSON.stringify({ v: 2, cursor, ts, n, sectors: cols.sectors } satisfies Header));
  const text = enc.encode(cols.ids.join("\n"));
  // The numbers start on an 8-byte boundary, so they can be read in place.
  const at = Math.ceil((4 + header.byteLength) / 8) * 8;
  const out = new Uint8Array(at + 36 * n + text.byteLength);
  new DataView(out.buffer).setUint32(0, header.byteLength, true);
  out.set(header, 4);
  const floats = new Float64Array(out.buffer, at, 4 * n);
  floats.set(cols.lat, 0);
  floats.set(cols.lon, n);
  floats.set(cols.ts, 2 * n);
  floats.set(cols.until, 3 * n);
  new Int32Array(out.buffer, at + 32 * n, n).set(cols.sector);
  out.set(text, at + 36 * n);
  return out;
}

/**
 * An index rebuilt from a snapshot (members expired at `t` left out), with its cursor and time.
 * Every member's version is the cursor itself (one shared string): every change in the log after
 * it is newer, which is all the version is compared for.
 */
export function decodeSnapshot(bytes: Uint8Array, t: number): { index: PositionIndex; cursor: string; ts: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))) as Header;
  if (header.v !== 1 && header.v !== 2) throw new Error(`unknown snapshot version ${header.v}`);
  const n = header.n;
  const at = Math.ceil((4 + headerLength) / 8) * 8;
  const numbers = header.v === 2 ? 36 * n : 32 * n;
  // In place when the blob's bytes are 8-byte aligned (they are: a fresh buffer), else copied.
  const body = (bytes.byteOffset + at) % 8 === 0 ? bytes.subarray(at) : bytes.slice(at);
  const floats = new Float64Array(body.buffer, body.byteOffset, 4 * n);
  const text = new TextDecoder().decode(body.subarray(numbers));
  const lines = n === 0 ? [] : text.split("\n");
  let cols: IndexColumns;
  if (header.v === 2) {
    cols = {
      ids: lines,
      lat: floats.subarray(0, n),
      lon: floats.subarray(n, 2 * n),
      ts: floats.subarray(2 * n, 3 * n),
      until: floats.subarray(3 * n, 4 * n),
      sector: new Int32Array(body.buffer, body.byteOffset + 32 * n, n),
      sectors: header.sectors ?? [],
    };
  } else {
    // Version 1: id, sector and an empty line per member.
    const sectors = new Map<string, number>();
    const sector = new Int32Array(n);
    const ids: string[] = new Array(n);
    for (let i = 0; i < n; i++) {
      ids[i] = lines[3 * i];
      let s = sectors.get(lines[3 * i + 1]);
      if (s === undefined) sectors.set(lines[3 * i + 1], s = sectors.size);
      sector[i] = s;
    }
    cols = {
      ids,
      lat: floats.subarray(0, n),
      lon: floats.subarray(n, 2 * n),
      ts: floats.subarray(2 * n, 3 * n),
      until: floats.subarray(3 * n, 4 * n),
      sector,
      sectors: [...sectors.keys()],
    };
  }
  if (cols.ids.length !== n) throw new Error("snapshot: id count does not match");
  return { index: PositionIndex.fromColumns(cols, t, header.cursor), cursor: header.cursor, ts: header.ts };
}

/** Stores a snapshot (replacing the previous one). */
export async function writeSnapshot(db: Deno.Kv, bytes: Uint8Array, cursor: string): Promise<void> {
  await kvBlobStore(() => db).put(SNAPSHOT_BLOB, bytes, { type: "application/x-positions-snapshot", cursor });
}

/** The stored snapshot's bytes when it is recent enough to start from, else null. */
export async function readSnapshot(db: Deno.Kv, t: number): Promise<Uint8Array | null> {
  const store = kvBlobStore(() => db);
  const meta = await store.meta(SNAPSHOT_BLOB);
  if (!meta || t - meta.created > SNAPSHOT_MAX_AGE_MS) return null;
  return (await store.get(SNAPSHOT_BLOB))?.bytes ?? null;
}

/**
 * Takes the snapshot lease for `holder` until `SNAPSHOT_EVERY_MS` from now, unless another
 * instance holds it: one writer at a time, each snapshot about `SNAPSHOT_EVERY_MS` after the last.
 */
export async function takeSnapshotLease(db: Deno.Kv, holder: string, t: number): Promise<boolean> {
  const key = keys.positionsSnapshotLease();
  const entry = await db.get<{ holder: string; until: number }>(key);
  if (entry.value && entry.value.until > t && entry.value.holder !== holder) return false;
  const res = await db.atomic().check(entry).set(key, { holder, until: t + SNAPSHOT_EVERY_MS }, {
    expireIn: SNAPSHOT_EVERY_MS,
  }).commit();
  return res.ok;
}
