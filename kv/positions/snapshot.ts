/**
 * A compact snapshot of the position index, so an instance starts in seconds at a million members
 * instead of listing every shown record (8 to 23 s at 1M).
 *
 * Contract: the snapshot is the index as of one log key (`cursor`): every member with its shown
 * point, report time, expiry and sector (an empty third line stands where a version was). Loading it and then
 * tailing the log after `cursor` gives the same index as a full load (the log holds every change
 * after it, in commit order). A snapshot older than half the log's lifetime is not used (the log
 * may have expired past its cursor): the store loads in full. It is a blob (kv/blobs.ts), written
 * by one instance at a time (a lease) every `SNAPSHOT_EVERY_MS` and on shutdown.
 *
 * Layout (little-endian): a 4-byte header length, a JSON header `{v, cursor, ts, n}`, four
 * Float64Arrays of n (lat, lon, report time, expiry), then each member's id, sector and an empty
 * line as one UTF-8 text.
 */

import { kvBlobStore } from "../blobs.ts";
import { keys } from "../keys.ts";
import { PositionIndex } from "./memoryIndex.ts";
import { POSITION_LOG_TTL_MS } from "./types.ts";

/** The blob that holds the snapshot. */
export const SNAPSHOT_BLOB = "positions-snapshot";
/** How often one instance writes a snapshot (well within the log's lifetime). */
export const SNAPSHOT_EVERY_MS = 5 * 60_000;
/** A snapshot older than this is not loaded: the log may no longer reach back to its cursor. */
export const SNAPSHOT_MAX_AGE_MS = POSITION_LOG_TTL_MS / 2;

interface Header {
  v: 1;
  cursor: string;
  ts: number;
  n: number;
}

/** The index as bytes, as of the log key `cursor`. */
export function encodeSnapshot(index: PositionIndex, cursor: string, ts: number): Uint8Array {
  const members = [...index.members.values()];
  const n = members.length;
  const floats = new Float64Array(4 * n);
  const lines: string[] = [];
  members.forEach((m, i) => {
    floats[i] = m.lat;
    floats[n + i] = m.lon;
    floats[2 * n + i] = m.ts;
    floats[3 * n + i] = m.until;
    // The third line (the member's versionstamp) is kept empty: loading uses the cursor (decodeSnapshot).
    lines.push(m.id, m.sector, "");
  });
  const header = new TextEncoder().encode(JSON.stringify({ v: 1, cursor, ts, n } satisfies Header));
  const text = new TextEncoder().encode(lines.join("\n"));
  // The floats start on an 8-byte boundary, so they can be read in place.
  const floatsAt = Math.ceil((4 + header.byteLength) / 8) * 8;
  const out = new Uint8Array(floatsAt + floats.byteLength + text.byteLength);
  new DataView(out.buffer).setUint32(0, header.byteLength, true);
  out.set(header, 4);
  out.set(new Uint8Array(floats.buffer), floatsAt);
  out.set(text, floatsAt + floats.byteLength);
  return out;
}

/**
 * An index rebuilt from a snapshot (members expired at `t` left out), with its cursor and time.
 * Every member's version is the cursor itself (one shared string): every change in the log after
 * it is newer, which is all the version is compared for. Sectors repeat, so each is kept once.
 */
export function decodeSnapshot(bytes: Uint8Array, t: number): { index: PositionIndex; cursor: string; ts: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = view.getUint32(0, true);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + headerLength))) as Header;
  if (header.v !== 1) throw new Error(`unknown snapshot version ${header.v}`);
  const n = header.n;
  const floatsAt = Math.ceil((4 + headerLength) / 8) * 8;
  const aligned = (bytes.byteOffset + floatsAt) % 8 === 0;
  const floats = aligned
    ? new Float64Array(bytes.buffer, bytes.byteOffset + floatsAt, 4 * n)
    : new Float64Array(bytes.slice(floatsAt, floatsAt + 32 * n).buffer);
  const text = new TextDecoder().decode(bytes.subarray(floatsAt + 32 * n));
  const sectors = new Map<string, string>();
  const index = new PositionIndex();
  let at = 0;
  const next = () => {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    const line = text.slice(at, end);
    at = end + 1;
    return line;
  };
  for (let i = 0; i < n; i++) {
    const id = next(), sectorText = next();
    next(); // the member's own versionstamp: not needed (see above)
    const until = floats[3 * n + i];
    if (until <= t) continue;
    let sector = sectors.get(sectorText);
    if (sector === undefined) sectors.set(sectorText, sector = sectorText);
    index.apply(
      { p: id, s: sector, lat: floats[i], lon: floats[n + i], ts: floats[2 * n + i], u: until },
      header.cursor,
    );
  }
  return { index, cursor: header.cursor, ts: header.ts };
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
