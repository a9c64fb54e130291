/**
 * Searches' answers kept while nothing near enough to change them did (decisions 0206, 0281): the
 * map asks a member's box of 800 again every 15 s, the grid its nearest 30 every few seconds, and
 * while nobody within the last member's distance of the viewer arrived, left, moved or expired,
 * the index gives the same members in the same order. A search of 801 in a dense box (nearest.ts)
 * is most of what such a view costs asked again, when its bytes are kept (routes/keptAnswers.ts);
 * checking that it stands is a few dozen lookups.
 *
 * An answer is kept with the index's change count then (memoryIndex.ts `changes`; answers of an
 * index a full load replaced all go); the blocks of the grid (grid.ts) that hold every point within the
 * distance of its last member from the viewer (the one that tells whether more follow), with a
 * margin; the members left out (blocks, withdrawals: the same members, not the same set object);
 * and the first time one of its members' shown points expires. It is given again while none of
 * those blocks changed since, the members left out are the same and that time has not come. A
 * change further away can neither bring a member in nor take one out: anyone who arrives further
 * than the last member is behind them, and anyone who leaves from further was not in the answer.
 * The key holds everything else the answer is found from: the region, the viewer's point and own
 * slot, the paging. An answer that did not fill its page (the region ran out) is not kept: its
 * region, not a distance, bounds what may change it.
 *
 * Memory: at most `MAX_KEPT_ITEMS` members' items over every kept answer (about 60 bytes each, the
 * ids shared with the index), the answers asked least lately dropped first.
 */

import { METERS_PER_DEGREE } from "../../domain/geo.ts";
import { RAD } from "./geoMath.ts";
import { BLOCK_COLS, BLOCK_DEG, BLOCK_ROWS } from "./grid.ts";
import type { PositionIndex } from "./memoryIndex.ts";
import type { NearbyPage } from "./types.ts";
import type { Bounds } from "../../domain/geo.ts";

/** Members' items kept over every answer: 500 views of 800 (a city's members each on their map). */
export const MAX_KEPT_ITEMS = 500_000;
/**
 * Only answers of at least this many members are kept: the grid's nearest list (30) and larger.
 * Asked again, a kept answer spares more than its search: its records are checked, not looked up,
 * and its signature is given again (kv/briefs.ts, decision 0205), so even a list of 30 costs less
 * kept than found (decision 0281).
 */
export const KEEP_MIN_NEED = 30;
/**
 * An answer whose checked blocks would be more than this is not kept: checking a block is a map
 * lookup, so this many cost a small part of the search they save.
 */
const MAX_BLOCKS = 1024;
/** Past this latitude the blocks near a point are not worth bounding: nothing is kept. */
const MAX_ABS_LAT = 80;

interface Kept {
  /** The index's change count when it was found. */
  changes: number;
  /** The blocks within reach (see the top): rows `r0` to `r1`, columns `c0` to `c1` (`blocksWithin`). */
  blocks: BlockRange;
  /** The point and paging it was found for (a key that names the viewer's slot names neither). */
  lat: number;
  lon: number;
  page: number;
  size: number;
  exclude: ReadonlySet<string> | undefined;
  /** When it was found (an answer is not given for an earlier time: members expired then were not), and
   * the first time one of its members' shown points expires. */
  at: number;
  until: number;
  found: NearbyPage;
  /** Items it holds (the answer's, and the one that tells whether more follow). */
  items: number;
}

/**
 * The grid's blocks in rows `r0` to `r1` and columns `c0` to `c1` (a column past the date line
 * wraps): a range, not a list, so that keeping an answer allocates and fills nothing per block.
 */
export interface BlockRange {
  r0: number;
  r1: number;
  c0: number;
  c1: number;
}

/**
 * By key (queries.ts `run`): a nearest list of a viewer in the index by their slot (no string made
 * for the grid's most asked list), any other answer by a string that names its region.
 */
const kept = new Map<string | number, Kept>();
let keptItems = 0;
/** Every page kept (while it is reachable): what is made from one may be kept with it (kv/briefs.ts). */
const keptPages = new WeakSet<NearbyPage>();

/** Is `page` one this module kept (it may be given again, the same object, while it stands)? */
export function isKeptPage(page: NearbyPage): boolean {
  return keptPages.has(page);
}
/** The index the kept answers came from: when another replaces it (a full load), they all go, and with them the old index. */
let keptIndex: PositionIndex | null = null;

function sameIndex(index: PositionIndex): void {
  if (index === keptIndex) return;
  forgetKeptSearches();
  keptIndex = index;
}

function drop(key: string | number): void {
  const k = kept.get(key);
  if (!k) return;
  kept.delete(key);
  keptItems -= k.items;
}

/** Whether two sets of members left out hold the same members (none: an empty set). */
function sameMembers(a: ReadonlySet<string> | undefined, b: ReadonlySet<string> | undefined): boolean {
  if (a === b) return true;
  if ((a?.size ?? 0) !== (b?.size ?? 0)) return false;
  if (a === undefined || b === undefined) return true;
  for (const id of b) if (!a.has(id)) return false;
  return true;
}

/** Did any block of `b` change in `index` after the stamp `changes`? */
function changedIn(index: PositionIndex, b: BlockRange, changes: number): boolean {
  for (let row = b.r0; row <= b.r1; row++) {
    for (let col = b.c0; col <= b.c1; col++) {
      if (index.changedSince(row * BLOCK_COLS + ((col % BLOCK_COLS) + BLOCK_COLS) % BLOCK_COLS, changes)) return true;
    }
  }
  return false;
}

/**
 * The answer kept for `key`, found from (lat, lon) with this paging, if it still stands in `index`
 * at `t` with `exclude` left out (see the top).
 */
export function keptSearch(
  key: string | number,
  lat: number,
  lon: number,
  page: number,
  size: number,
  index: PositionIndex,
  exclude: ReadonlySet<string> | undefined,
  t: number,
): NearbyPage | undefined {
  sameIndex(index);
  const k = kept.get(key);
  if (k === undefined) return undefined;
  if (
    !(k.lat === lat && k.lon === lon && k.page === page && k.size === size && t >= k.at && t < k.until &&
      sameMembers(k.exclude, exclude)) ||
    changedIn(index, k.blocks, k.changes)
  ) {
    drop(key);
    return undefined;
  }
  kept.delete(key);
  kept.set(key, k);
  return k.found;
}

/**
 * The grid's blocks that hold every point within `meters` of (lat, lon), with a margin (a quarter
 * more, and a block each way), of those that may hold a point of `region` (a member who arrives
 * in it or leaves it changes a block in it); null when that is too many blocks or too near a pole.
 */
export function blocksWithin(lat: number, lon: number, meters: number, region: Bounds): BlockRange | null {
  const r = 1.25 * meters;
  const dLat = r / METERS_PER_DEGREE;
  const latLo = lat - dLat, latHi = lat + dLat;
  if (!(Math.abs(latLo) <= MAX_ABS_LAT && Math.abs(latHi) <= MAX_ABS_LAT)) return null;
  const dLon = r / (METERS_PER_DEGREE * Math.cos(Math.max(Math.abs(latLo), Math.abs(latHi)) * RAD));
  const blockOf = (deg: number) => Math.floor(deg / BLOCK_DEG);
  const r0 = Math.max(blockOf(latLo + 90), blockOf(region.latMin + 90)) - 1;
  const r1 = Math.min(blockOf(latHi + 90), blockOf(region.latMax + 90)) + 1;
  let c0 = blockOf(lon - dLon + 180) - 1, c1 = blockOf(lon + dLon + 180) + 1;
  // The region's columns where they overlap these in the same turn (else all of these: a region
  // across the date line from the viewer is not cut).
  const rc0 = blockOf(region.lonMin + 180) - 1, rc1 = blockOf(region.lonMax + 180) + 1;
  if (rc0 <= c1 && rc1 >= c0) {
    c0 = Math.max(c0, rc0);
    c1 = Math.min(c1, rc1);
  }
  const n = Math.max(0, r1 - r0 + 1) * (c1 - c0 + 1);
  if (!(n <= MAX_BLOCKS) || c1 - c0 + 1 >= BLOCK_COLS || r0 < 0 || r1 >= BLOCK_ROWS) return null;
  return { r0, r1, c0, c1 };
}

/**
 * Keeps `found`, found from (lat, lon) at `page` of `size` in `index` (at its change count
 * `changes`) with `exclude` left out, for `key` at `at`: `blocks` are those within reach of its
 * last member (`blocksWithin`), `until` the first expiry of its members, `items` how many members
 * it holds.
 */
export function keepSearch(
  key: string | number,
  lat: number,
  lon: number,
  page: number,
  size: number,
  index: PositionIndex,
  changes: number,
  exclude: ReadonlySet<string> | undefined,
  blocks: BlockRange,
  at: number,
  until: number,
  found: NearbyPage,
  items: number,
): void {
  sameIndex(index);
  drop(key);
  kept.set(key, { changes, blocks, lat, lon, page, size, exclude, at, until, found, items });
  keptPages.add(found);
  keptItems += items;
  while (keptItems > MAX_KEPT_ITEMS && kept.size > 0) drop(kept.keys().next().value!);
}

/** Forgets every kept search (a new index; tests). */
export function forgetKeptSearches(): void {
  kept.clear();
  keptItems = 0;
  keptIndex = null;
}

/** How many searches are kept (tests). */
export function keptSearchCount(): number {
  return kept.size;
}
