/**
 * Positions: where members are (private), where others see them (shown), and the nearby queries.
 * This file (`kv/positions/mod.ts`) is the folder's one public entry; the parts beside it each have their contract.
 *
 * Privacy (design.md, "Location privacy"). A report stores the member's true position in
 * `positions_own/{id}`, which only `getOwnPosition` (the owner) reads. From it the write derives
 * the shown position (a ~1 km grid cell with hysteresis, and a point in it fixed per member and
 * cell by HMAC-SHA256 with `GEO_SECRET`, or a secret generated once into KV). Every query reads
 * shown positions only, measures from the viewer's shown position, and returns shown positions
 * only; hidden members are in no index at all. Everything expires 26 h after the report: shown
 * records by `expireIn`, own records by the sweep (`sweepExpiredPositions`), and `tsEffectiveUntil`
 * is checked on every read because neither deletes at the very moment.
 *
 * Store. One `kv.atomic()` per batch of concurrent reports writes each member's own and shown
 * records plus one change-log entry `positions_log/{commit versionstamp}`; reads of own records
 * are grouped, and are skipped when the index already knows what the write needs.
 *
 * Index and sync. Queries never list KV: each process keeps an in-memory index of the visible
 * shown positions, searched best-first so a query's cost follows the answer size. Many stateless
 * instances may share one remote KV, so the index is a cache of KV, loaded in full and kept
 * current by tailing the change log; a write applies its own change to the local index as soon
 * as it commits, other instances see it after their next tail (milliseconds).
 *
 * The parts:
 * - `types.ts`: the public constants and types, the stored shapes;
 * - `records.ts`: validation, and what one report writes (own and shown records);
 * - `writes.ts`: atomic batched commits, grouped reads, per-member locks;
 * - `import.ts`: bulk import in large commits;
 * - `expiry.ts`: the sweep that deletes own records past their validity;
 * - `memoryIndex.ts`: the in-memory index (cells, blocks, sectors) and its search (`regionRead.ts`,
 *   `rings.ts`, `nearest.ts`);
 * - `heaps.ts`: the search's heaps;
 * - `sync.ts`: the full load and the tail of the change log (watch plus poll);
 * - `queries.ts`: nearest, by bounds, by sector, aggregates, own and shown positions;
 * - `state.ts`, `positions/store.ts`: `PositionStore`, which composes the parts.
 */

import { kv } from "../db.ts";
import { PositionStore } from "./store.ts";
import type { PositionAggregate } from "../../domain/shapes/positions.ts";
import type {
  BoundsQuery,
  ImportItem,
  NearbyPage,
  OwnPosition,
  PositionReport,
  PositionUse,
  QueryOptions,
  ShownPosition,
} from "./types.ts";

export { GeoInputError } from "../../domain/geo.ts";
export {
  DEFAULT_BOUNDS_SIZE,
  DEFAULT_NEAREST_SIZE,
  DEFAULT_SECTOR_SIZE,
  FRESH_MS,
  MAX_PAGE_SIZE,
  MAX_RESULT_DEPTH,
  NEARBY_AREA_DEG,
  POSITION_LOG_TTL_MS,
  POSITION_SWEEP_MS,
  POSITION_TTL_MS,
  SHOWN_REFRESH_MS,
} from "./types.ts";
export type {
  BoundsQuery,
  ImportItem,
  NearbyItem,
  NearbyPage,
  OwnPosition,
  PositionReport,
  PositionUse,
  QueryOptions,
  ShownPosition,
} from "./types.ts";
export { PositionStore, type PositionStoreOptions } from "./store.ts";
export { isKeptPage } from "./keptSearches.ts";

// --- the module API: the store of kv()

let current: PositionStore | undefined;

/** The position store of the open KV handle (a new handle gets a new store). */
export function positionStore(): PositionStore {
  const db = kv();
  if (current?.db !== db) {
    current?.stopSync().catch(() => {});
    current = new PositionStore(db);
  }
  return current;
}

/**
 * Stores a member's report: the private record (owner only) and, unless `hide`, the derived
 * shown position, both valid 26 h. Throws `GeoInputError` for bad input. Returns the owner's view.
 */
export function reportPosition(profileId: string, report: PositionReport): Promise<OwnPosition> {
  return positionStore().report(profileId, report);
}

/**
 * Writes many positions in large commits (seeding, admin test users, benchmarks). Each profile at
 * most once; it does not check for concurrent reports of the same profiles.
 */
export function importPositions(items: ImportItem[]): Promise<number> {
  return positionStore().import(items);
}

/** The member's own reported position (owner only!), or null when none is valid. */
export function getOwnPosition(profileId: string): Promise<OwnPosition | null> {
  return positionStore().own(profileId);
}

/**
 * The member's own last report as a page hands it to the location reporter (their own record
 * only: this is never another member's position), or null.
 */
export async function knownLocation(
  profileId: string,
): Promise<{ lat: number; lon: number; use: PositionUse; hide: boolean } | null> {
  const own = await getOwnPosition(profileId);
  return own && { lat: own.lat, lon: own.lon, use: own.use, hide: own.hide };
}

/** A visible member's shown position (what others may see), or null. */
export function getShownPosition(profileId: string): Promise<ShownPosition | null> {
  return positionStore().shown(profileId);
}

/**
 * `getShownPosition` as the nearby queries see it: after the index caught up with writes on any
 * instance older than `FRESH_MS` (the point a discovery list measures its viewer from).
 */
export function getFreshShownPosition(profileId: string): Promise<ShownPosition | null> {
  return positionStore().shown(profileId, true);
}

/**
 * Visible members within ±1 degree of the viewer's shown position, nearest first (ties by id),
 * the viewer left out. Empty when the viewer has no valid position.
 */
export function nearest(viewerId: string, options: QueryOptions = {}): Promise<NearbyPage> {
  return positionStore().nearest(viewerId, options);
}

/**
 * Visible members whose shown position is in the box, nearest to the viewer first (from the box
 * centre when the viewer has no position). A box with lonMin > lonMax (across the date line) is
 * empty; coordinates out of range or latMin > latMax throw `GeoInputError`.
 */
export function byBounds(query: BoundsQuery, viewerId: string): Promise<NearbyPage> {
  return positionStore().byBounds(query, viewerId);
}

/** Visible members of one 1-degree sector `"lat:lon"`, nearest to the viewer first. */
export function bySector(sector: string, options: QueryOptions, viewerId: string): Promise<NearbyPage> {
  return positionStore().bySector(sector, options, viewerId);
}

/** Visible members counted per 1-degree sector (spec Position aggregate). */
export function aggregates(): Promise<PositionAggregate[]> {
  return positionStore().aggregates();
}

/**
 * Deletes the own records whose 26 h have run out (they carry no store expiry: expiry.ts).
 * Resolves with how many it deleted; `stopped` ends it early (a server that stops).
 */
export function sweepExpiredPositions(stopped?: () => boolean): Promise<number> {
  return positionStore().sweepExpired(stopped);
}

/**
 * `sweepExpiredPositions` when it is this process's turn: when no process has begun one in the
 * last `POSITION_SWEEP_MS` (the workers ask every minute). Resolves with how many it deleted, or
 * null when it was not due.
 */
export function sweepPositionsWhenDue(stopped?: () => boolean): Promise<number | null> {
  return positionStore().sweepWhenDue(stopped);
}

/** (Re)builds the in-memory index from KV; resolves with its size and the time taken. */
export function loadPositionIndex(): Promise<{ members: number; ms: number; from: "snapshot" | "records" }> {
  return positionStore().load();
}

/** Writes a snapshot of the index (shutdown; the sync also writes one every few minutes). */
export async function writePositionSnapshot(): Promise<{ members: number; bytes: number } | null> {
  return await current?.writeSnapshot() ?? null;
}

/** Starts following writes of other instances (server start). Stop it with `stopPositionSync`. */
export function startPositionSync(options: { pollMs?: number; snapshots?: boolean } = {}): void {
  positionStore().startSync(options);
}

/** Stops the sync started by `startPositionSync` (shutdown, end of a test). */
export async function stopPositionSync(): Promise<void> {
  await current?.stopSync();
}
