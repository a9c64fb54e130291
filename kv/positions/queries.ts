/**
 * Positions: the reads, the nearby queries (nearest, by bounds, by sector), the aggregates, and
 * the own and shown positions of one member.
 *
 * Contract (design.md, "Location privacy"): every query reads shown positions only, from the
 * in-memory index after the first load, measures from the viewer's shown position (their shown
 * point even while hidden) and returns shown positions only; hidden members are in no index at
 * all. Expired members are never returned (KV expiry is lazy, so `tsEffectiveUntil` is checked on
 * every read). Bad paging or coordinates throw `GeoInputError` before anything is read. Only
 * `own` (the owner's own record) and a viewer without an indexed position read KV.
 */

import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { GeoInputError, isLat, isLon, type LatLon, parseSectorKey } from "../../domain/geo.ts";
import { toldHour } from "../../domain/presence.ts";
import type { Region } from "./types.ts";
import { aToMeters } from "./geoMath.ts";
import { blocksWithin, KEEP_MIN_NEED, keepSearch, keptSearch } from "./keptSearches.ts";
import { decodeOwn } from "./ownRecord.ts";
import { ownView } from "./records.ts";
import type { StoreState } from "./state.ts";
import type { PositionIndex } from "./memoryIndex.ts";
import {
  type BoundsQuery,
  DEFAULT_BOUNDS_SIZE,
  DEFAULT_NEAREST_SIZE,
  DEFAULT_SECTOR_SIZE,
  MAX_PAGE_SIZE,
  MAX_RESULT_DEPTH,
  NEARBY_AREA_DEG,
  type NearbyItem,
  type NearbyPage,
  type OwnPosition,
  type QueryOptions,
  type ShownPosition,
} from "./types.ts";
import type { PositionAggregate } from "../../domain/shapes/positions.ts";

/** Checks and defaults a query's paging; throws `GeoInputError` when out of range. */
function checkPaging(page: unknown, size: unknown, defaultSize: number): { page: number; size: number } {
  const p = page ?? 0, s = size ?? defaultSize;
  if (!Number.isSafeInteger(p) || (p as number) < 0) {
    throw new GeoInputError("page must be an integer >= 0");
  }
  if (
    !Number.isSafeInteger(s) || (s as number) < 1 ||
    (s as number) > MAX_PAGE_SIZE
  ) {
    throw new GeoInputError(`size must be an integer in [1, ${MAX_PAGE_SIZE}]`);
  }
  return { page: p as number, size: s as number };
}

/** The owner's own record, or null (none, or expired). */
export async function own(s: StoreState, profileId: string): Promise<OwnPosition | null> {
  const r = decodeOwn(profileId, (await s.db.get(keys.positionOwn(profileId))).value);
  return r && r.tsEffectiveUntil > now() ? ownView(r) : null;
}

/**
 * A visible member's shown position from the index, or null (hidden, expired, unknown); with
 * `fresh`, after the index caught up with the writes of other instances as the nearby queries do.
 */
export async function shown(s: StoreState, profileId: string, fresh = false): Promise<ShownPosition | null> {
  await s.ready();
  if (fresh) await s.fresh();
  const m = s.index.members.get(profileId);
  if (!m || m.until <= now()) return null;
  return { profileId, lat: m.lat, lon: m.lon, sector: m.sector, tsUpdated: m.ts, tsEffectiveUntil: m.until };
}

/** A viewer's point, with their slot in the index it was read from (when it was). */
type Viewer = LatLon & { slot?: number; index?: PositionIndex };

/**
 * Where a viewer is measured from: their shown point even while hidden; null without a report.
 * From the index when it holds them (no await), else from their own record.
 */
function viewerPoint(s: StoreState, viewerId: string): Viewer | Promise<LatLon | null> {
  const index = s.index, slot = index.slotOf(viewerId);
  if (slot >= 0) {
    const p = index.placeOf(slot);
    if (index.untilAt(p) > now()) return { lat: index.latAt(p), lon: index.lonAt(p), slot, index };
  }
  return viewerRecord(s, viewerId);
}

/**
 * The viewer's point (`viewerPoint`) once the index is loaded and fresh (`StoreState.fresh`),
 * without an await when it need not wait.
 */
function readyViewer(s: StoreState, viewerId: string): Viewer | null | Promise<Viewer | null> {
  if (s.current()) return viewerPoint(s, viewerId);
  return (async () => {
    await s.ready();
    await s.fresh();
    return await viewerPoint(s, viewerId);
  })();
}

/** `viewerPoint` of a viewer the index does not hold (hidden, or its index behind): their own record's shown point. */
async function viewerRecord(s: StoreState, viewerId: string): Promise<LatLon | null> {
  const t = now();
  const r = decodeOwn(viewerId, (await s.db.get(keys.positionOwn(viewerId))).value);
  if (r && r.tsEffectiveUntil > t) return { lat: r.shownLat, lon: r.shownLon };
  return null;
}

/**
 * One page of the members of `region` (named `regionKey`) nearest to `from`, the viewer and
 * unaccepted ones left out. A page of 30 or more without a filter of the caller's is kept while nothing
 * near enough to change it did (keptSearches.ts), and given again then: a page is shared, read
 * only by its callers.
 */
function run(
  s: StoreState,
  from: Viewer,
  region: Region,
  regionKey: string,
  viewerId: string,
  o: QueryOptions,
  page: number,
  size: number,
): NearbyPage {
  const need = (page + 1) * size;
  if (need > MAX_RESULT_DEPTH) return { items: [], hasMore: false };
  const { exclude, filter } = o;
  const index = s.index, t = now();
  const self = from.index === index ? from.slot! : index.slotOf(viewerId);
  // The point and paging are checked beside the key (a move finds anew under the same key). A
  // viewer's first page of nearest members (the grid's list, or a swipe deck's candidates: one
  // replaces the other) is named by the viewer's slot alone, no string made for the list asked
  // most; any other answer by its region, paging, and the viewer's slot or (without one) point.
  const key = filter !== undefined || need < KEEP_MIN_NEED
    ? undefined
    : self < 0
    ? `${regionKey} ${from.lat} ${from.lon} ${page} ${size}`
    : regionKey === "nearest" && page === 0
    ? self
    : `${regionKey} @${self} ${page} ${size}`;
  const again = key === undefined ? undefined : keptSearch(key, from.lat, from.lon, page, size, index, exclude, t);
  if (again !== undefined) return again;
  const changes = index.changes;
  const accept = exclude === undefined && filter === undefined
    ? null
    : (id: string) => (exclude === undefined || !exclude.has(id)) && (filter === undefined || filter(id));
  const top = index.search(from.lat, from.lon, region, need + 1, t, self, accept);
  const end = Math.min(top.a.length, need);
  const items: NearbyItem[] = [];
  for (let i = page * size; i < end; i++) {
    const slot = top.m[i];
    items.push({
      profileId: index.idAt(slot),
      lat: index.latAt(slot),
      lon: index.lonAt(slot),
      distanceMeters: aToMeters(top.a[i]),
      tsUpdated: index.tsAt(slot),
    });
  }
  const found = { items, hasMore: top.a.length > need };
  // Kept only when the page and one more were found: the last one's distance bounds what may change it.
  if (key !== undefined && top.a.length > need) {
    let until = Infinity;
    for (let i = 0; i < top.a.length; i++) until = Math.min(until, index.untilAt(top.m[i]));
    const blocks = blocksWithin(from.lat, from.lon, aToMeters(top.a[top.a.length - 1]), region);
    if (blocks !== null) {
      keepSearch(
        key,
        from.lat,
        from.lon,
        page,
        size,
        index,
        changes,
        exclude,
        blocks,
        t,
        until,
        found,
        items.length + 1,
      );
    }
  }
  return found;
}

/** See the module function `nearest`. */
export async function nearest(s: StoreState, viewerId: string, o: QueryOptions = {}): Promise<NearbyPage> {
  const { page, size } = checkPaging(o.page, o.size, DEFAULT_NEAREST_SIZE);
  const viewer = readyViewer(s, viewerId);
  const from = viewer instanceof Promise ? await viewer : viewer;
  if (!from) return { items: [], hasMore: false };
  const d = NEARBY_AREA_DEG;
  const latMin = Math.max(-90, from.lat - d),
    latMax = Math.min(90, from.lat + d);
  const lonMin = from.lon - d, width = 2 * d;
  const region: Region = {
    latMin,
    latMax,
    lonMin,
    lonMax: lonMin + width,
    test: (lat, lon) => lat >= latMin && lat <= latMax && ((lon - lonMin) % 360 + 360) % 360 <= width,
  };
  return run(s, from, region, "nearest", viewerId, o, page, size);
}

/** See the module function `byBounds`. */
export async function byBounds(s: StoreState, q: BoundsQuery, viewerId: string): Promise<NearbyPage> {
  const { latMin, lonMin, latMax, lonMax } = q;
  if (!isLat(latMin) || !isLat(latMax)) {
    throw new GeoInputError("latMin and latMax must be numbers in [-90, 90]");
  }
  if (!isLon(lonMin) || !isLon(lonMax)) {
    throw new GeoInputError("lonMin and lonMax must be numbers in [-180, 180]");
  }
  if (latMin > latMax) {
    throw new GeoInputError("latMin must not exceed latMax");
  }
  const { page, size } = checkPaging(q.page, q.size, DEFAULT_BOUNDS_SIZE);
  if (lonMin > lonMax) return { items: [], hasMore: false }; // across the date line: spec §5
  const viewer = readyViewer(s, viewerId);
  const from = (viewer instanceof Promise ? await viewer : viewer) ??
    { lat: (latMin + latMax) / 2, lon: (lonMin + lonMax) / 2 };
  const region: Region = {
    latMin,
    latMax,
    lonMin,
    lonMax,
    test: (lat, lon) => lat >= latMin && lat <= latMax && lon >= lonMin && lon <= lonMax,
  };
  return run(s, from, region, `bounds ${latMin} ${lonMin} ${latMax} ${lonMax}`, viewerId, q, page, size);
}

/** See the module function `bySector`. */
export async function bySector(
  s: StoreState,
  sector: string,
  o: QueryOptions,
  viewerId: string,
): Promise<NearbyPage> {
  const sw = parseSectorKey(sector);
  const key = `${sw.lat}:${sw.lon}`;
  const { page, size } = checkPaging(o.page, o.size, DEFAULT_SECTOR_SIZE);
  const viewer = readyViewer(s, viewerId);
  const from = (viewer instanceof Promise ? await viewer : viewer) ??
    { lat: sw.lat + 0.5, lon: sw.lon + 0.5 };
  const index = s.index;
  const sectorId = index.sectorId(key);
  const region: Region = {
    latMin: sw.lat,
    latMax: sw.lat + 1,
    lonMin: sw.lon,
    lonMax: sw.lon + 1,
    test: (_lat, _lon, slot) => index.sectorAt(slot) === sectorId,
  };
  return run(s, from, region, `sector ${key}`, viewerId, o, page, size);
}

/** See the module function `aggregates`. */
export async function aggregates(s: StoreState): Promise<PositionAggregate[]> {
  await s.ready();
  const t = now();
  s.index.purgeExpired(t);
  const out: PositionAggregate[] = [];
  for (const { key, count, tsUpdated } of s.index.sectors()) {
    const { lat, lon } = parseSectorKey(key);
    out.push({
      centerLat: lat + 0.5,
      centerLon: lon + 0.5,
      deltaLat: 1,
      deltaLon: 1,
      count,
      tsUpdated: toldHour(tsUpdated),
    });
  }
  out.sort((x, y) => x.centerLat - y.centerLat || x.centerLon - y.centerLon);
  return out;
}
