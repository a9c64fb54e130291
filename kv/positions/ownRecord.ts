/**
 * Positions: the stored form of the private record `positions_own/{id}`.
 *
 * Contract: pure (no I/O). A record is stored as bytes: a format byte, a byte of flags (the mode in
 * use, hidden, which of the other points and the GPS time are set), then its numbers as 64-bit
 * floats, its cell as two 32-bit integers and its sector's text. The member's id is its key's, so
 * it is not stored again. That is the facts of the V8-serialized object stored before (decision
 * 0251), without its field names: about a third of its bytes, and no V8 serialization in a write.
 * Records stored before as objects are still read (`decodeOwn`) until they are next written or
 * expire.
 */

import { writeAscii } from "../../domain/ascii.ts";
import type { OwnRecord, PositionUse } from "./types.ts";

/** The format byte of the stored form. */
const FORMAT = 1;
const GPS = 1, HIDE = 2, O_LAT = 4, O_LON = 8, G_LAT = 16, G_LON = 32, G_TS = 64;
/** Format and flags, eight numbers always there, two cell integers. */
const FIXED = 2 + 8 * 8 + 2 * 4;
const utf8 = new TextEncoder();
const text = new TextDecoder();

/** The text of UTF-8 bytes; ASCII without a call out of JavaScript. */
function textOf(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i++) {
    if (b[i] > 0x7f) return text.decode(b);
    s += String.fromCharCode(b[i]);
  }
  return s;
}

/** Writes `x` at `at` when it is given; the offset after what was written. */
function setIfGiven(view: DataView, at: number, x: number | null): number {
  if (x === null) return at;
  view.setFloat64(at, x, true);
  return at + 8;
}

/** The stored bytes of an own record. */
export function encodeOwn(r: OwnRecord): Uint8Array {
  // Written field by field (no list of the optional numbers, no closure): this runs in every write.
  const { overrideLat, overrideLon, gpsLat, gpsLon, gpsTimestamp } = r;
  const flags = (r.use === "DEVICE_GPS" ? GPS : 0) | (r.hide ? HIDE : 0) | (overrideLat !== null ? O_LAT : 0) |
    (overrideLon !== null ? O_LON : 0) | (gpsLat !== null ? G_LAT : 0) | (gpsLon !== null ? G_LON : 0) |
    (gpsTimestamp !== null ? G_TS : 0);
  const extra = (overrideLat !== null ? 8 : 0) + (overrideLon !== null ? 8 : 0) + (gpsLat !== null ? 8 : 0) +
    (gpsLon !== null ? 8 : 0) + (gpsTimestamp !== null ? 8 : 0);
  const out = new Uint8Array(FIXED + extra + r.sector.length);
  const view = new DataView(out.buffer);
  out[0] = FORMAT;
  out[1] = flags;
  view.setFloat64(2, r.lat, true);
  view.setFloat64(10, r.lon, true);
  let at = setIfGiven(view, 18, overrideLat);
  at = setIfGiven(view, at, overrideLon);
  at = setIfGiven(view, at, gpsLat);
  at = setIfGiven(view, at, gpsLon);
  at = setIfGiven(view, at, gpsTimestamp);
  view.setFloat64(at, r.shownLat, true);
  view.setFloat64(at + 8, r.shownLon, true);
  view.setFloat64(at + 16, r.tsUpdated, true);
  view.setFloat64(at + 24, r.tsEffectiveUntil, true);
  view.setFloat64(at + 32, r.shownTs, true);
  view.setFloat64(at + 40, r.cellMeters, true);
  at += 48;
  view.setInt32(at, r.row, true);
  view.setInt32(at + 4, r.col, true);
  // The sector's text in place when ASCII (a sector key always is), else its UTF-8 in a longer copy.
  if (writeAscii(r.sector, out, at + 8)) return out;
  const sector = utf8.encode(r.sector), longer = new Uint8Array(at + 8 + sector.length);
  longer.set(out.subarray(0, at + 8));
  longer.set(sector, at + 8);
  return longer;
}

/**
 * The own record of `profileId` from its stored value: the bytes `encodeOwn` makes, or the object
 * stored before them; null for anything else.
 */
export function decodeOwn(profileId: string, v: unknown): OwnRecord | null {
  if (!(v instanceof Uint8Array)) return typeof v === "object" && v !== null ? v as OwnRecord : null;
  if (v.length < FIXED || v[0] !== FORMAT) return null;
  const view = new DataView(v.buffer, v.byteOffset, v.byteLength);
  const flags = v[1];
  let at = 2;
  const num = () => {
    const x = view.getFloat64(at, true);
    at += 8;
    return x;
  };
  const opt = (bit: number) => (flags & bit ? num() : null);
  const lat = num(), lon = num();
  const overrideLat = opt(O_LAT), overrideLon = opt(O_LON), gpsLat = opt(G_LAT), gpsLon = opt(G_LON);
  const gpsTimestamp = opt(G_TS);
  const shownLat = num(), shownLon = num(), tsUpdated = num(), tsEffectiveUntil = num(), shownTs = num();
  const cellMeters = num();
  const row = view.getInt32(at, true), col = view.getInt32(at + 4, true);
  const use: PositionUse = flags & GPS ? "DEVICE_GPS" : "OVERRIDE";
  return {
    profileId,
    lat,
    lon,
    overrideLat,
    overrideLon,
    gpsLat,
    gpsLon,
    gpsTimestamp,
    use,
    hide: (flags & HIDE) !== 0,
    shownLat,
    shownLon,
    tsUpdated,
    tsEffectiveUntil,
    shownTs,
    cellMeters,
    row,
    col,
    sector: textOf(v.subarray(at + 8)),
  };
}

/** A read entry of `positions_own/{profileId}` with its value decoded (`decodeOwn`). */
export function ownEntry(profileId: string, e: Deno.KvEntryMaybe<unknown>): Deno.KvEntryMaybe<OwnRecord> {
  // A value that is no record (none stored, or a form this code does not know) counts as none; its
  // versionstamp stays, so a write that replaces it checks what it replaces.
  return { key: e.key, value: decodeOwn(profileId, e.value), versionstamp: e.versionstamp } as Deno.KvEntryMaybe<
    OwnRecord
  >;
}
