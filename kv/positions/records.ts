/**
 * Positions: what one report writes, derived from the report and the previous own record.
 *
 * Contract: pure (no I/O); the writes part (writes.ts) and bulk import (import.ts) commit what
 * this derives. Privacy (design.md, "Location privacy"): a report stores the member's true
 * position in `positions_own/{id}`, which only its owner reads. From it the write derives the
 * shown position (`domain/geo.ts`: a ~1 km grid cell with hysteresis, and a point in it fixed per
 * member and cell by HMAC-SHA256 with the store's secret) and the shown record
 * `positions_shown/{sector}/{id}` (deleting the old one when the sector changes or the member
 * hides), both valid 26 h after the report: the shown record by its store expiry, the own record
 * by its `tsEffectiveUntil`, which every read checks and after which the sweep (expiry.ts) deletes
 * it. A report that leaves the shown point unchanged writes only the own record while the shown
 * record is younger than `SHOWN_REFRESH_MS`, and then carries no change for the log; when the
 * index gave the previous record, such a write takes the shown record's point as it is rather than
 * computing the hash again (decision 0274).
 */

import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import {
  assertLatLon,
  GeoInputError,
  type GridCell,
  isLat,
  isLon,
  type PrivacyGrid,
  sectorKey,
  shownPoint,
} from "../../domain/geo.ts";
import type { PositionIndex } from "./memoryIndex.ts";
import { encodeOwn } from "./ownRecord.ts";
import {
  type LogChange,
  type OwnPosition,
  type OwnRecord,
  POSITION_TTL_MS,
  type PositionReport,
  SHOWN_REFRESH_MS,
  type ShownValue,
} from "./types.ts";

/** One member's write, ready to commit: the check, the own record, and what others must learn. */
export interface PreparedWrite {
  profileId: string;
  check: Deno.AtomicCheck;
  own: OwnRecord;
  /** The own record as stored (ownRecord.ts). */
  stored: Uint8Array;
  oldSector: string | null;
  /** What others must learn (index, log), or null when the shown position stays as it was. */
  change: LogChange | null;
}

/** The other mode's point in a report, each field with its test (made once, not at every write). */
const OTHER_POINT_FIELDS = [
  ["overrideLat", isLat],
  ["overrideLon", isLon],
  ["gpsLat", isLat],
  ["gpsLon", isLon],
] as const;

/** Throws `GeoInputError` unless the profile id and the report are well formed. */
export function validateReport(profileId: unknown, r: PositionReport): void {
  if (typeof profileId !== "string" || profileId.length === 0 || profileId.length > 200) {
    throw new GeoInputError("profileId must be a non-empty string");
  }
  if (typeof r !== "object" || r === null) throw new GeoInputError("position report must be an object");
  assertLatLon(r.lat, r.lon);
  if (r.use !== "OVERRIDE" && r.use !== "DEVICE_GPS") throw new GeoInputError("use must be OVERRIDE or DEVICE_GPS");
  if (typeof r.hide !== "boolean") throw new GeoInputError("hide must be a boolean");
  for (const [k, ok] of OTHER_POINT_FIELDS) {
    const v = r[k];
    if (v !== undefined && v !== null && !ok(v)) throw new GeoInputError(`${k} must be a coordinate or null`);
  }
  if (r.gpsTimestamp != null && !Number.isFinite(r.gpsTimestamp)) {
    throw new GeoInputError("gpsTimestamp must be a number of milliseconds");
  }
}

/** True when the report carries the other mode's point (then no read of the own record is needed). */
export function otherPointGiven(r: PositionReport): boolean {
  return r.overrideLat !== undefined || r.overrideLon !== undefined || r.gpsLat !== undefined ||
    r.gpsLon !== undefined;
}

/** The owner's view of an own record (the stored extras left out). */
export function ownView(r: OwnRecord): OwnPosition {
  return {
    profileId: r.profileId,
    lat: r.lat,
    lon: r.lon,
    overrideLat: r.overrideLat,
    overrideLon: r.overrideLon,
    gpsLat: r.gpsLat,
    gpsLon: r.gpsLon,
    gpsTimestamp: r.gpsTimestamp,
    use: r.use,
    hide: r.hide,
    shownLat: r.shownLat,
    shownLon: r.shownLon,
    tsUpdated: r.tsUpdated,
    tsEffectiveUntil: r.tsEffectiveUntil,
    session: { profileId: r.profileId, loggedIn: true, lat: r.lat, lon: r.lon },
  };
}

/**
 * Derives the records of one report from the previous own record (none, or expired, counts as
 * none). `shownKnown`: the previous record came from the index (`knownOwn`), so its shown point is
 * the member's shown record as stored.
 */
export function prepareWrite(
  grid: PrivacyGrid,
  profileId: string,
  r: PositionReport,
  prev: Deno.KvEntryMaybe<OwnRecord>,
  secret: string,
  shownKnown = false,
): PreparedWrite {
  const t = now();
  const old = prev.value && prev.value.tsEffectiveUntil > t ? prev.value : null;
  const previousCell: GridCell | null = old && old.cellMeters === grid.cellMeters
    ? { row: old.row, col: old.col }
    : null;
  const cell = grid.next(previousCell, r.lat, r.lon);
  const recent = old !== null && typeof old.shownTs === "number" && t >= old.shownTs &&
    t - old.shownTs < SHOWN_REFRESH_MS;
  // A member who stays in their cell keeps the point the keyed hash gave for it (the same member,
  // cell and secret give the same point): when the index gave the previous record, its point is the
  // shown record's, written within `SHOWN_REFRESH_MS`, and is not computed again. A refresh, or a
  // previous record read from the store, computes it (a changed secret moves the point then).
  const keep = shownKnown && recent && previousCell !== null && cell.row === previousCell.row &&
    cell.col === previousCell.col;
  const shown = keep ? { lat: old.shownLat, lon: old.shownLon } : shownPoint(secret, profileId, grid, cell);
  const sector = keep ? old.sector : sectorKey(shown.lat, shown.lon);
  const gps = r.use === "DEVICE_GPS";
  const given = otherPointGiven(r);
  // Nothing others see changes: the same shown point (or still hidden), refreshed recently.
  const unchanged = recent && old.hide === r.hide && old.sector === sector && old.shownLat === shown.lat &&
    old.shownLon === shown.lon;
  const own: OwnRecord = {
    profileId,
    lat: r.lat,
    lon: r.lon,
    overrideLat: gps ? (given ? r.overrideLat ?? null : old?.overrideLat ?? null) : r.lat,
    overrideLon: gps ? (given ? r.overrideLon ?? null : old?.overrideLon ?? null) : r.lon,
    gpsLat: gps ? r.lat : given ? r.gpsLat ?? null : old?.gpsLat ?? null,
    gpsLon: gps ? r.lon : given ? r.gpsLon ?? null : old?.gpsLon ?? null,
    gpsTimestamp: gps
      ? r.gpsTimestamp ?? t
      : r.gpsTimestamp !== undefined
      ? r.gpsTimestamp
      : given
      ? null
      : old?.gpsTimestamp ?? null,
    use: r.use,
    hide: r.hide,
    shownLat: shown.lat,
    shownLon: shown.lon,
    tsUpdated: t,
    tsEffectiveUntil: t + POSITION_TTL_MS,
    shownTs: unchanged ? old.shownTs : t,
    cellMeters: grid.cellMeters,
    row: cell.row,
    col: cell.col,
    sector,
  };
  const change: LogChange | null = unchanged ? null : r.hide ? { p: profileId } : {
    p: profileId,
    s: sector,
    lat: shown.lat,
    lon: shown.lon,
    ts: t,
    u: own.tsEffectiveUntil,
  };
  const oldSector = prev.value && !prev.value.hide ? prev.value.sector : null;
  return { profileId, check: prev, own, stored: encodeOwn(own), oldSector, change };
}

/** Adds one prepared write to an atomic operation: check (optional), own record, shown record. */
export function addWrite(op: Deno.AtomicOperation, w: PreparedWrite, withCheck: boolean): void {
  if (withCheck) op.check(w.check);
  // No store expiry: an expired own record is deleted by the sweep (expiry.ts), not by Deno KV.
  op.set(keys.positionOwn(w.profileId), w.stored);
  if (w.change === null) return;
  if (w.oldSector !== null && (w.own.hide || w.oldSector !== w.own.sector)) {
    op.delete(keys.positionShown(w.oldSector, w.profileId));
  }
  if (!w.own.hide) {
    const v: ShownValue = {
      lat: w.own.shownLat,
      lon: w.own.shownLon,
      ts: w.own.tsUpdated,
      u: w.own.tsEffectiveUntil,
    };
    op.set(keys.positionShown(w.own.sector, w.profileId), v, { expireIn: POSITION_TTL_MS });
  }
}

/**
 * The own record of a visible member as far as a write needs it, from the index: cell (from the
 * shown point), sector, shown point and refresh time. A write prepared from it depends on nothing
 * else of the own record when the report carries the other point (`otherPointGiven`), so what it
 * checks is the shown record, at the versionstamp the index holds for it (the commit of the
 * member's last change): the write fails the check only when another instance changed what others
 * see of the member meanwhile, and then retries with a real read. Quiet writes (own record only,
 * made here or by any instance) leave the guess right.
 */
export function knownOwn(
  index: PositionIndex,
  grid: PrivacyGrid,
  profileId: string,
): Deno.KvEntryMaybe<OwnRecord> | null {
  // One lookup of the member's slot, and only the fields a write needs.
  const slot = index.slotOf(profileId);
  if (slot < 0) return null;
  const p = index.placeOf(slot), until = index.untilAt(p), vs = index.versionAt(slot);
  if (vs === undefined || until <= now()) return null;
  const lat = index.latAt(p), lon = index.lonAt(p), sector = index.sectorKeyAt(slot);
  const cell = grid.cellOf(lat, lon);
  const value = {
    profileId,
    hide: false,
    sector,
    shownLat: lat,
    shownLon: lon,
    shownTs: index.tsAt(p),
    tsEffectiveUntil: until,
    cellMeters: grid.cellMeters,
    row: cell.row,
    col: cell.col,
  } as OwnRecord;
  return { key: keys.positionShown(sector, profileId), value, versionstamp: vs };
}
