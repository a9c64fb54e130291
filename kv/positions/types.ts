/**
 * Positions: the public constants and types, and the shapes stored in KV.
 *
 * Contract: declarations only (no code runs here). Everything above "stored shapes" is public and
 * re-exported by `kv/positions/mod.ts`; the stored shapes are what `positions_own/{id}`,
 * `positions_shown/{sector}/{id}` and `positions_log/{versionstamp}` hold, for the parts only.
 */

import type { Bounds } from "../../domain/geo.ts";
import { MAX_BRIEFS_SIZE } from "../../domain/shapes/briefs.ts";

/** How long a report stays valid (spec §9: about 26 h). */
export const POSITION_TTL_MS = 93_600_000;
/** Half-width of the area `nearest` searches around the viewer (spec §9: ±1 degree). */
export const NEARBY_AREA_DEG = 1;
/** Default page size of `nearest` (tiles). */
export const DEFAULT_NEAREST_SIZE = 30;
/** Default page size of `byBounds` (spec §7). */
export const DEFAULT_BOUNDS_SIZE = 500;
/** Default page size of `bySector` (what the map asks for). */
export const DEFAULT_SECTOR_SIZE = 1500;
/** Largest page size accepted (decided in domain/, where the query's schema reads it). */
export const MAX_PAGE_SIZE = MAX_BRIEFS_SIZE;
/** Deepest result reachable by paging: (page + 1) * size beyond it yields an empty page. */
export const MAX_RESULT_DEPTH = 20_000;
/**
 * A query on an instance that follows the change log first reads the log when its last read began
 * longer ago than this: a position saved on any instance (a newcomer's first) is in every
 * instance's answers this soon, not a poll later. At most one read of the log per this time.
 */
export const FRESH_MS = 200;
/** Lifetime of change-log entries. */
export const POSITION_LOG_TTL_MS = 15 * 60_000;

/**
 * A report that leaves the shown point where it was rewrites only the private record, unless the
 * shown record is older than this: shown expiry then trails the report by at most 15 min (still
 * "about 26 h"), and GPS chatter inside one cell costs one KV row and wakes no other instance.
 */
export const SHOWN_REFRESH_MS = 15 * 60_000;

/**
 * How often own records whose validity ran out are swept (expiry.ts), by one process of all the
 * workers: one is deleted at most this long (and a sweep's time) after its 26 h, as the shown
 * record's expiry trails a report by at most `SHOWN_REFRESH_MS`.
 */
export const POSITION_SWEEP_MS = 15 * 60_000;

/** Which reported point is in use (spec ProfilePosition.use). */
export type PositionUse = "OVERRIDE" | "DEVICE_GPS";

/** What a member's client reports. */
export interface PositionReport {
  /** The point in use: the dragged point for OVERRIDE, the device's for DEVICE_GPS. */
  lat: number;
  lon: number;
  use: PositionUse;
  hide: boolean;
  gpsTimestamp?: number | null;
  /**
   * The other mode's last point, as the client's ProfilePosition body carries it. When any of
   * these is given they are stored as given (null clears) and gpsTimestamp with them; when all are
   * absent the stored ones are kept, which costs a read of the private record.
   */
  overrideLat?: number | null;
  overrideLon?: number | null;
  gpsLat?: number | null;
  gpsLon?: number | null;
}

/** A member's own position record (spec ProfilePosition), for its owner's eyes only. */
export interface OwnPosition {
  profileId: string;
  /** The point in use (the override or the GPS point). */
  lat: number;
  lon: number;
  overrideLat: number | null;
  overrideLon: number | null;
  gpsLat: number | null;
  gpsLon: number | null;
  gpsTimestamp: number | null;
  use: PositionUse;
  hide: boolean;
  /** Where others see this member (while not hidden). */
  shownLat: number;
  shownLon: number;
  tsUpdated: number;
  tsEffectiveUntil: number;
  /** The spec's `session` of the record (decision 0140). */
  session: PositionSession;
}

/**
 * The spec's Session as a position record carries it: the member, logged in, and the point the
 * report gave (the one in use). The owner's own facts, already in the record; never a token.
 */
export interface PositionSession {
  profileId: string;
  loggedIn: true;
  lat: number;
  lon: number;
}

/** A shown position: safe to give to anybody. */
export interface ShownPosition {
  profileId: string;
  lat: number;
  lon: number;
  sector: string;
  tsUpdated: number;
  tsEffectiveUntil: number;
}

/** One result of a nearby query: shown position, distance between shown positions. */
export interface NearbyItem {
  profileId: string;
  lat: number;
  lon: number;
  distanceMeters: number;
  tsUpdated: number;
}

/** A page of a nearby query. */
export interface NearbyPage {
  items: NearbyItem[];
  /** True when a further page has at least one item. */
  hasMore: boolean;
}

/** Paging, blocking and filtering of a nearby query. */
export interface QueryOptions {
  page?: number;
  size?: number;
  /** Profiles to leave out (blocked either way). */
  exclude?: ReadonlySet<string>;
  /** Keep only profiles for which it returns true (attribute and like filters). */
  filter?: (profileId: string) => boolean;
}

/** A box query: the box plus paging and filtering. */
export interface BoundsQuery extends Bounds, QueryOptions {}

/** One member of a bulk import. */
export interface ImportItem extends PositionReport {
  profileId: string;
}

// --- stored shapes

/**
 * The private record `positions_own/{id}`: the owner's view plus what the next write needs (stored
 * as bytes, kv/positions/ownRecord.ts).
 */
export interface OwnRecord extends Omit<OwnPosition, "session"> {
  /** When the shown record was last written. */
  shownTs: number;
  cellMeters: number;
  row: number;
  col: number;
  /** Sector of the shown record while one exists (not hidden). */
  sector: string;
}

/** The value of a shown record `positions_shown/{sector}/{id}`: point, report time, expiry. */
export interface ShownValue {
  lat: number;
  lon: number;
  ts: number;
  u: number;
}

/** A change in the log: a shown position (with `s`, its sector) or, without `s`, a removal. */
export interface LogChange {
  p: string;
  s?: string;
  lat?: number;
  lon?: number;
  ts?: number;
  u?: number;
}

/** The region a query may return: a box for pruning plus an exact test per member. */
export interface Region {
  latMin: number;
  latMax: number;
  /** West edge, unwrapped: lonMin <= lonMax, lonMax - lonMin <= 360. */
  lonMin: number;
  lonMax: number;
  /** The exact test of a member at its shown point (`slot`: see `PositionIndex.sectorAt`). */
  test: (lat: number, lon: number, slot: number) => boolean;
}

/** The index as columns in cell order, for the snapshot (snapshot.ts). */
export interface IndexColumns {
  /** Ids by row; a row whose id is undefined is no member. */
  ids: (string | undefined)[];
  lat: Float64Array;
  lon: Float64Array;
  ts: Float64Array;
  until: Float64Array;
  /** Index into `sectors` by row. */
  sector: Int32Array | Uint16Array;
  sectors: string[];
  /** Versions by row (default: one for all, given to `fromColumns`). */
  versions?: (string | undefined)[];
}
