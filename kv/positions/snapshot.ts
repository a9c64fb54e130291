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
 * sectors, base, sector16, hex}`, then from an 8-byte boundary the index's own columns in its
 * cell order (memoryIndex.ts `toColumns`): lat and lon (Float64Arrays of n), report times and
 * expiries (Int32Arrays of milliseconds from `base`, or Float64Arrays when one is not such a
 * whole number), the sectors (indexes into the header's `sectors`, a Uint16Array or an
 * Int32Array), then the ids: 14 bytes each when every id is 28 hex digits (kv/ids.ts), else one
 * UTF-8 text, one a line. 38 bytes a member (66 in version 1). Loading reads the numbers in place
 * (views over the blob's bytes) and fills the index's arena in one pass; only the ids become
 * strings (one text, split). Version 1 (four Float64Arrays, then id, sector and an empty line per
 * member as text) is still read.
 */

import { kvBlobStore } from "../blobs.ts";
import { keys } from "../keys.ts";
import { PositionIndex } from "./memoryIndex.ts";
import type { IndexColumns } from "./types.ts";
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
  /** Version 2: report times and expiries are Int32 milliseconds from this (else Float64). */
  base?: number | null;
  /** Version 2: the sector column is a Uint16Array (else an Int32Array). */
  sector16?: boolean;
  /** Version 2: every id is 28 lowercase hex digits (kv/ids.ts), stored as 14 bytes (else a text, one a line). */
  hex?: boolean;
}

const HEX_ID = /^[0-9a-f]{28}$/;
const HEX_DIGITS = new TextEncoder().encode("0123456789abcdef");

/** The value of a lowercase hex digit's char code. */
function nibble(code: number): number {
  return code <= 57 ? code - 48 : code - 87;
}

/** The index as bytes, as of the log key `cursor`. */
export function encodeSnapshot(index: PositionIndex, cursor: string, ts: number): Uint8Array {
  const cols = index.toColumns();
  const n = cols.ids.length;
  const ids = cols.ids as string[];
  const base = Math.floor(ts);
  let int32 = true;
  for (let i = 0; i < n && int32; i++) {
    const dt = cols.ts[i] - base, du = cols.until[i] - base;
    int32 = dt === (dt | 0) && du === (du | 0) && base + dt === cols.ts[i] && base + du === cols.until[i];
  }
  const sector16 = cols.sectors.length <= 0x10000;
  const hex = ids.every((id) => HEX_ID.test(id));
  const enc = new TextEncoder();
  const header = enc.encode(JSON.stringify(
    { v: 2, cursor, ts, n, sectors: cols.sectors, base: int32 ? base : null, sector16, hex } satisfies Header,
  ));
  const text = hex ? null : enc.encode(ids.join("\n"));
  // The numbers start on an 8-byte boundary, so they can be read in place.
  const at = Math.ceil((4 + header.byteLength) / 8) * 8;
  const timesAt = at + 16 * n, sectorAt = timesAt + (int32 ? 8 : 16) * n;
  const idsAt = sectorAt + (sector16 ? 2 : 4) * n;
  const out = new Uint8Array(idsAt + (hex ? 14 * n : text!.byteLength));
  new DataView(out.buffer).setUint32(0, header.byteLength, true);
  out.set(header, 4);
  new Float64Array(out.buffer, at, n).set(cols.lat);
  new Float64Array(out.buffer, at + 8 * n, n).set(cols.lon);
  if (int32) {
    const times = new Int32Array(out.buffer, timesAt, 2 * n);
    for (let i = 0; i < n; i++) {
      times[i] = cols.ts[i] - base;
      times[n + i] = cols.until[i] - base;
    }
  } else {
    new Float64Array(out.buffer, timesAt, n).set(cols.ts);
    new Float64Array(out.buffer, timesAt + 8 * n, n).set(cols.until);
  }
  (sector16 ? new Uint16Array(out.buffer, sectorAt, n) : new Int32Array(out.buffer, sectorAt, n)).set(cols.sector);
  if (hex) {
    for (let i = 0, o = idsAt; i < n; i++) {
      const id = ids[i];
      for (let j = 0; j < 28; j += 2, o++) out[o] = (nibble(id.charCodeAt(j)) << 4) | nibble(id.charCodeAt(j + 1));
    }
  } else {
    out.set(text!, idsAt);
  }
  return out;
}

/** The ids of a hex snapshot: their text made from the bytes, then split (no string per byte). */
function hexIds(bytes: Uint8Array, n: number): string[] {
  if (n === 0) return [];
  const text = new Uint8Array(29 * n - 1);
  for (let i = 0, o = 0, b = 0; i < n; i++) {
    for (let j = 0; j < 14; j++, b++) {
      text[o++] = HEX_DIGITS[bytes[b] >> 4];
      text[o++] = HEX_DIGITS[bytes[b] & 15];
    }
    if (i < n - 1) text[o++] = 10;
  }
  return new TextDecoder().decode(text).split("\n");
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
  // In place when the blob's bytes are 8-byte aligned (they are: a fresh buffer), else copied.
  const body = (bytes.byteOffset + at) % 8 === 0 ? bytes.subarray(at) : bytes.slice(at);
  const f64 = (from: number) => new Float64Array(body.buffer, body.byteOffset + from, n);
  let cols: IndexColumns;
  if (header.v === 2) {
    const base = header.base ?? null;
    const sectorAt = (base === null ? 32 : 24) * n, idsAt = sectorAt + (header.sector16 ? 2 : 4) * n;
    let ts: Float64Array, until: Float64Array;
    if (base === null) {
      ts = f64(16 * n);
      until = f64(24 * n);
    } else {
      const times = new Int32Array(body.buffer, body.byteOffset + 16 * n, 2 * n);
      ts = new Float64Array(n);
      until = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        ts[i] = base + times[i];
        until[i] = base + times[n + i];
      }
    }
    const ids = header.hex
      ? hexIds(body.subarray(idsAt, idsAt + 14 * n), n)
      : n === 0
      ? []
      : new TextDecoder().decode(body.subarray(idsAt)).split("\n");
    cols = {
      ids,
      lat: f64(0),
      lon: f64(8 * n),
      ts,
      until,
      sector: header.sector16
        ? new Uint16Array(body.buffer, body.byteOffset + sectorAt, n)
        : new Int32Array(body.buffer, body.byteOffset + sectorAt, n),
      sectors: header.sectors ?? [],
    };
  } else {
    // Version 1: four Float64Arrays, then id, sector and an empty line per member.
    const lines = n === 0 ? [] : new TextDecoder().decode(body.subarray(32 * n)).split("\n");
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
      lat: f64(0),
      lon: f64(8 * n),
      ts: f64(16 * n),
      until: f64(24 * n),
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
