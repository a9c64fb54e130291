/**
 * Positions: where members are (private), where others see them (shown), and the nearby queries.
 *
 * Privacy (design.md, "Location privacy"). A report stores the member's true position in
 * `positions_own/{id}`, which only `getOwnPosition` (the owner) reads. From it the write derives
 * the shown position (`geo.ts`: a ~1 km grid cell with hysteresis, and a point in it fixed per
 * member and cell by HMAC-SHA256 with `GEO_SECRET`, or a secret generated once into KV). Every
 * query here reads shown positions only, measures from the viewer's shown position, and returns
 * shown positions only; hidden members are in no index at all. Everything expires 26 h after the
 * report (`expireIn`, and `tsEffectiveUntil` is checked on every read because KV expiry is lazy).
 *
 * Store. One `kv.atomic()` per write batch holds, per member: a check on the own record, the own
 * record, the shown record `positions_shown/{sector}/{id}` (deleting the old one when the sector
 * changes or the member hides), plus one change-log entry `positions_log/{commit versionstamp}`
 * listing the batch's changes (kept 15 min) and a `sum` on `positions_version`. Concurrent
 * reports are grouped into one commit (up to 100, KV's limit of checks) because a commit (a
 * transaction and an fsync in SQLite), not the work per member, limits write throughput. A write
 * needs the previous own record (hysteresis cell, old sector, the other mode's point): when the
 * report carries the other point, as the client's ProfilePosition body does, and the member is
 * visible, the index supplies the rest and the versionstamp to check, so no read is needed (a stale
 * guess fails the check and is retried with a read); otherwise own records are read in `getMany`
 * groups of 10. A report that leaves the shown point unchanged writes only the own record while the
 * shown record is younger than `SHOWN_REFRESH_MS` (15 min).
 *
 * Index and sync. Queries never list KV: each process keeps an in-memory index of the visible
 * shown positions: cells of 1/256 degree (about 430 m) grouped into blocks of 4 x 4 cells, plus
 * per-sector sets for aggregates. A query is a best-first search: rings of blocks around the
 * viewer are enumerated lazily (or, for a region far larger than the index, the occupied blocks
 * are taken from the map), blocks and then cells are visited in order of their lower-bound
 * distance, and the search stops once the (page+1)*size nearest found are closer than anything
 * unvisited, so its cost follows the answer size, not the number of members in the sector.
 * Many stateless instances may share one remote KV, so the index is a cache of KV:
 * - `loadPositionIndex()` notes the last log key, lists all shown records, then tails the log
 *   from the noted key (a write racing the load is in the log after it);
 * - `startPositionSync()` watches `positions_version` and, when it changes (and every few
 *   seconds as a fallback), lists the log after the last key applied. Log keys are commit
 *   versionstamps, so they are in commit order and a tail misses nothing committed before it;
 * - each profile keeps the versionstamp of its last applied change, so applying a change twice
 *   or out of order is a no-op; an instance that could not tail for half the log's lifetime
 *   reloads in full;
 * - a write applies its own change to the local index as soon as it commits, so the writer's
 *   next query sees it at once; other instances see it after their next tail (milliseconds).
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { randomToken } from "./ids.ts";
import {
  assertLatLon,
  type Bounds,
  DEFAULT_CELL_METERS,
  DEFAULT_HYSTERESIS,
  EARTH_RADIUS_M,
  GeoInputError,
  type GridCell,
  isLat,
  isLon,
  type LatLon,
  METERS_PER_DEGREE,
  normalizeLon,
  parseSectorKey,
  PrivacyGrid,
  sectorKey,
  shownPoint,
} from "../domain/geo.ts";

export { GeoInputError } from "../domain/geo.ts";

/** How long a report stays valid (spec §9: about 26 h). */
export const POSITION_TTL_MS = 93_600_000;
/** Half-width of the area `nearest` searches around the viewer (spec §9: ±1 degree). */
export const NEARBY_AREA_DEG = 1;
/** Default page sizes: tiles, by-bounds (spec §7) and by-sector (what the map asks for). */
export const DEFAULT_NEAREST_SIZE = 30;
export const DEFAULT_BOUNDS_SIZE = 500;
export const DEFAULT_SECTOR_SIZE = 1500;
/** Largest page size accepted. */
export const MAX_PAGE_SIZE = 2000;
/** Deepest result reachable by paging: (page + 1) * size beyond it yields an empty page. */
export const MAX_RESULT_DEPTH = 20_000;
/** Lifetime of change-log entries. */
export const POSITION_LOG_TTL_MS = 15 * 60_000;

/**
 * A report that leaves the shown point where it was rewrites only the private record, unless the
 * shown record is older than this: shown expiry then trails the report by at most 15 min (still
 * "about 26 h"), and GPS chatter inside one cell costs one KV row and wakes no other instance.
 */
export const SHOWN_REFRESH_MS = 15 * 60_000;

const WRITE_BATCH = 100;
const WRITES_IN_FLIGHT = 2;
const IMPORT_BATCH = 300;
const PURGE_EVERY_MS = 60_000;

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

/** Visible members per 1-degree sector (spec "Position aggregate"); delta* is the cell's full size. */
export interface PositionAggregate {
  centerLat: number;
  centerLon: number;
  deltaLat: number;
  deltaLon: number;
  count: number;
  tsUpdated: number;
}

/** One member of a bulk import. */
export interface ImportItem extends PositionReport {
  profileId: string;
}

// --- stored shapes

interface OwnRecord extends OwnPosition {
  /** When the shown record was last written. */
  shownTs: number;
  cellMeters: number;
  row: number;
  col: number;
  /** Sector of the shown record while one exists (not hidden). */
  sector: string;
}

interface ShownValue {
  lat: number;
  lon: number;
  ts: number;
  u: number;
}

/** A change in the log: a shown position (with `s`, its sector) or, without `s`, a removal. */
interface LogChange {
  p: string;
  s?: string;
  lat?: number;
  lon?: number;
  ts?: number;
  u?: number;
}

// --- the in-memory index

const RAD = Math.PI / 180;
const CELLS_PER_DEG = 256;
const BLOCK_SHIFT = 2;
const BLOCK_SIDE = 1 << BLOCK_SHIFT;
const BLOCK_MASK = BLOCK_SIDE - 1;
const BLOCK_DEG = BLOCK_SIDE / CELLS_PER_DEG;
const BLOCK_ROWS = 180 * CELLS_PER_DEG / BLOCK_SIDE;
const BLOCK_COLS = 360 * CELLS_PER_DEG / BLOCK_SIDE;
const CELL_DEG = 1 / CELLS_PER_DEG;
/** Lower bounds are shrunk by this factor so rounding never makes them exceed a true distance. */
const LB_SAFETY = 0.9999;

interface Member {
  id: string;
  lat: number;
  lon: number;
  cosLat: number;
  ts: number;
  until: number;
  sector: string;
  cell: Cell;
  slot: number;
}

interface Cell {
  members: Member[];
  block: Block;
  index: number;
  latMin: number;
  latMax: number;
  lonMin: number;
  lonMax: number;
}

interface Block {
  id: number;
  cells: (Cell | undefined)[];
  count: number;
  latMin: number;
  latMax: number;
  lonMin: number;
  lonMax: number;
}

interface SectorSet {
  members: Set<Member>;
  minUntil: number;
  tsUpdated: number;
}

/** The region a query may return: a box for pruning plus an exact test per member. */
interface Region {
  latMin: number;
  latMax: number;
  /** West edge, unwrapped: lonMin <= lonMax, lonMax - lonMin <= 360. */
  lonMin: number;
  lonMax: number;
  test: (m: Member) => boolean;
}

function haversineA(lat1: number, lon1: number, cos1: number, lat2: number, lon2: number, cos2: number): number {
  const s1 = Math.sin((lat2 - lat1) * RAD / 2);
  const s2 = Math.sin((lon2 - lon1) * RAD / 2);
  return s1 * s1 + cos1 * cos2 * s2 * s2;
}

function aToMeters(a: number): number {
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/**
 * Lower bound (metres) of the distance from a point at a latitude with cosine `cosLat` to anything
 * `dLonDeg` or more degrees of longitude away: the distance to that meridian's great circle,
 * R asin(cosLat sin x), is at least R cosLat (x - x^3/6) for x in [0, pi/2] (no trigonometry).
 */
function lonGapMeters(cosLat: number, dLonDeg: number): number {
  const x = (dLonDeg < 90 ? dLonDeg : 90) * RAD;
  return EARTH_RADIUS_M * cosLat * (x - x * x * x / 6);
}

/** Lower bound (metres) of the distance from a point to any point of a box. */
function boxLowerBound(lat: number, lon: number, cosLat: number, b: Bounds): number {
  let dLat = 0;
  if (lat < b.latMin) dLat = b.latMin - lat;
  else if (lat > b.latMax) dLat = lat - b.latMax;
  const w = b.lonMax - b.lonMin;
  let east = lon - b.lonMin; // lon and b.lonMin are both in [-180, 180)
  if (east < 0) east += 360;
  const dLon = east <= w ? 0 : Math.min(east - w, 360 - east);
  const latM = dLat * METERS_PER_DEGREE;
  const lonM = dLon > 0 ? lonGapMeters(cosLat, dLon) : 0;
  return (latM > lonM ? latM : lonM) * LB_SAFETY;
}

/**
 * Max-heap of the best `cap` members found so far, ordered by (haversine a, id); `sortInPlace`
 * then turns it into the ascending answer (heapsort: much cheaper than Array#sort with a comparator).
 */
class TopK {
  readonly a: number[] = [];
  readonly m: Member[] = [];
  constructor(readonly cap: number) {}

  get full(): boolean {
    return this.a.length >= this.cap;
  }

  /** True when (a, id) would enter a full heap. */
  beats(a: number, id: string): boolean {
    const w = this.a[0];
    return a < w || (a === w && id < this.m[0].id);
  }

  #above(i: number, j: number): boolean {
    const ai = this.a[i], aj = this.a[j];
    return ai > aj || (ai === aj && this.m[i].id > this.m[j].id);
  }

  #swap(i: number, j: number): void {
    const a = this.a[i];
    this.a[i] = this.a[j];
    this.a[j] = a;
    const m = this.m[i];
    this.m[i] = this.m[j];
    this.m[j] = m;
  }

  #siftDown(i: number, n: number): void {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let top = i;
      if (l < n && this.#above(l, top)) top = l;
      if (r < n && this.#above(r, top)) top = r;
      if (top === i) return;
      this.#swap(i, top);
      i = top;
    }
  }

  push(a: number, m: Member): void {
    if (this.a.length < this.cap) {
      this.a.push(a);
      this.m.push(m);
      let i = this.a.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.#above(i, p)) break;
        this.#swap(i, p);
        i = p;
      }
      return;
    }
    this.a[0] = a;
    this.m[0] = m;
    this.#siftDown(0, this.a.length);
  }

  /** Sorts ascending by (a, id) in place; the heap order is gone afterwards. */
  sortInPlace(): this {
    for (let n = this.a.length - 1; n > 0; n--) {
      this.#swap(0, n);
      this.#siftDown(0, n);
    }
    return this;
  }
}

/** Min-heap of blocks and cells by lower-bound distance. */
class NodeHeap {
  readonly lb: number[] = [];
  readonly node: (Block | Cell)[] = [];

  get size(): number {
    return this.lb.length;
  }

  push(lb: number, node: Block | Cell): void {
    const l = this.lb, n = this.node;
    let i = l.length;
    l.push(lb);
    n.push(node);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (l[p] <= lb) break;
      l[i] = l[p];
      n[i] = n[p];
      i = p;
    }
    l[i] = lb;
    n[i] = node;
  }

  pop(): Block | Cell {
    const l = this.lb, n = this.node;
    const top = n[0];
    const lastLb = l.pop()!;
    const lastNode = n.pop()!;
    const size = l.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const c = 2 * i + 1;
        if (c >= size) break;
        const d = c + 1 < size && l[c + 1] < l[c] ? c + 1 : c;
        if (l[d] >= lastLb) break;
        l[i] = l[d];
        n[i] = n[d];
        i = d;
      }
      l[i] = lastLb;
      n[i] = lastNode;
    }
    return top;
  }
}

function isBlock(n: Block | Cell): n is Block {
  return "cells" in n;
}

/** The visible shown positions of one KV database, in memory. */
class PositionIndex {
  readonly members = new Map<string, Member>();
  /**
   * Versionstamp of the last change (or quiet own write here) per profile: kept when a change
   * removes the member, dropped when the member expires.
   */
  readonly versions = new Map<string, string>();
  readonly blocks = new Map<number, Block>();
  readonly sectors = new Map<string, SectorSet>();

  /** Applies a change committed at `vs` unless a newer change of the profile was applied. */
  apply(c: LogChange, vs: string): boolean {
    const seen = this.versions.get(c.p);
    if (seen !== undefined && seen >= vs) return false;
    this.versions.set(c.p, vs);
    const old = this.members.get(c.p);
    if (old) this.#remove(old);
    if (c.s !== undefined && isLat(c.lat) && isLon(c.lon)) {
      this.#insert(c.p, c.lat, c.lon, c.ts ?? 0, c.u ?? 0, c.s);
    }
    return true;
  }

  /**
   * Records the versionstamp of a quiet write (own record only): nothing another instance logged
   * for the profile can lie between the previous change and it, since that write's check passed.
   */
  noteOwnWrite(profileId: string, vs: string): void {
    const seen = this.versions.get(profileId);
    if (seen === undefined || seen < vs) this.versions.set(profileId, vs);
  }

  #insert(id: string, lat: number, lon: number, ts: number, until: number, sector: string): void {
    const row = Math.min(180 * CELLS_PER_DEG - 1, Math.floor((lat + 90) * CELLS_PER_DEG));
    const col = Math.floor((normalizeLon(lon) + 180) * CELLS_PER_DEG) %
      (360 * CELLS_PER_DEG);
    const bid = (row >> BLOCK_SHIFT) * BLOCK_COLS + (col >> BLOCK_SHIFT);
    let block = this.blocks.get(bid);
    if (!block) {
      const latMin = -90 + (row >> BLOCK_SHIFT) * BLOCK_DEG;
      const lonMin = -180 + (col >> BLOCK_SHIFT) * BLOCK_DEG;
      block = {
        id: bid,
        cells: new Array(BLOCK_SIDE * BLOCK_SIDE),
        count: 0,
        latMin,
        latMax: latMin + BLOCK_DEG,
        lonMin,
        lonMax: lonMin + BLOCK_DEG,
      };
      this.blocks.set(bid, block);
    }
    const index = (row & BLOCK_MASK) * BLOCK_SIDE + (col & BLOCK_MASK);
    let cell = block.cells[index];
    if (!cell) {
      const latMin = -90 + row * CELL_DEG;
      const lonMin = -180 + col * CELL_DEG;
      cell = { members: [], block, index, latMin, latMax: latMin + CELL_DEG, lonMin, lonMax: lonMin + CELL_DEG };
      block.cells[index] = cell;
    }
    const m: Member = { id, lat, lon, cosLat: Math.cos(lat * RAD), ts, until, sector, cell, slot: cell.members.length };
    cell.members.push(m);
    block.count++;
    this.members.set(id, m);
    let s = this.sectors.get(sector);
    if (!s) {
      s = { members: new Set(), minUntil: Infinity, tsUpdated: 0 };
      this.sectors.set(sector, s);
    }
    s.members.add(m);
    if (until < s.minUntil) s.minUntil = until;
    if (ts > s.tsUpdated) s.tsUpdated = ts;
  }

  #remove(m: Member): void {
    const cell = m.cell;
    const last = cell.members.pop()!;
    if (last !== m) {
      cell.members[m.slot] = last;
      last.slot = m.slot;
    }
    const block = cell.block;
    if (cell.members.length === 0) block.cells[cell.index] = undefined;
    if (--block.count === 0) this.blocks.delete(block.id);
    this.members.delete(m.id);
    const s = this.sectors.get(m.sector);
    if (s) {
      s.members.delete(m);
      if (s.members.size === 0) this.sectors.delete(m.sector);
    }
  }

  /** Drops members whose shown position expired at `t` (memory only; reads filter anyway). */
  purgeExpired(t: number): void {
    for (const [key, s] of this.sectors) {
      if (s.minUntil > t) continue;
      let minUntil = Infinity, tsUpdated = 0;
      for (const m of [...s.members]) {
        if (m.until <= t) {
          this.#remove(m);
          this.versions.delete(m.id);
        } else {
          if (m.until < minUntil) minUntil = m.until;
          if (m.ts > tsUpdated) tsUpdated = m.ts;
        }
      }
      if (this.sectors.get(key) === s) {
        s.minUntil = minUntil;
        s.tsUpdated = tsUpdated;
      }
    }
  }

  /**
   * The `need` members nearest to (lat, lon) inside `region`, unexpired at `t`, accepted by
   * `accept`, in (distance, id) order. See the top comment for the search.
   */
  search(
    lat: number,
    lon: number,
    region: Region,
    need: number,
    t: number,
    self: Member | undefined,
    accept: ((profileId: string) => boolean) | null,
  ): TopK {
    const cosQ = Math.cos(lat * RAD);
    const top = new TopK(need);
    const heap = new NodeHeap();
    const rowOf = (x: number) => Math.max(0, Math.min(BLOCK_ROWS - 1, Math.floor((x + 90) / BLOCK_DEG)));
    const brMin = rowOf(region.latMin), brMax = rowOf(region.latMax);
    const bcMin = Math.floor((region.lonMin + 180) / BLOCK_DEG);
    const bcMax = Math.min(bcMin + BLOCK_COLS - 1, Math.floor((region.lonMax + 180) / BLOCK_DEG));
    const br0 = rowOf(lat);
    // The viewer's block column, shifted by whole turns to where it is closest to the region.
    const qLon = normalizeLon(lon);
    let bc0 = Math.floor((qLon + 180) / BLOCK_DEG);
    let shift = Math.round(((bcMin + bcMax) / 2 - bc0) / BLOCK_COLS);
    const gap = (c: number) => (c < bcMin ? bcMin - c : c > bcMax ? c - bcMax : 0);
    if (gap(bc0 + (shift - 1) * BLOCK_COLS) < gap(bc0 + shift * BLOCK_COLS)) {
      shift--;
    }
    if (gap(bc0 + (shift + 1) * BLOCK_COLS) < gap(bc0 + shift * BLOCK_COLS)) {
      shift++;
    }
    bc0 += shift * BLOCK_COLS;
    const qLonU = qLon + shift * 360;
    const rowGap = br0 < brMin ? brMin - br0 : br0 > brMax ? br0 - brMax : 0;
    const kStart = Math.max(rowGap, gap(bc0));
    const kMax = Math.max(Math.abs(brMin - br0), Math.abs(brMax - br0), Math.abs(bcMin - bc0), Math.abs(bcMax - bc0));

    const visitBlock = (r: number, c: number) => {
      const b = this.blocks.get(r * BLOCK_COLS + ((c % BLOCK_COLS) + BLOCK_COLS) % BLOCK_COLS);
      if (b) heap.push(boxLowerBound(lat, qLon, cosQ, b), b);
    };
    const enumerateRing = (k: number) => {
      const r0 = Math.max(brMin, br0 - k), r1 = Math.min(brMax, br0 + k);
      const c0 = Math.max(bcMin, bc0 - k), c1 = Math.min(bcMax, bc0 + k);
      for (let r = r0; r <= r1; r++) {
        if (r === br0 - k || r === br0 + k) {
          for (let c = c0; c <= c1; c++) visitBlock(r, c);
        } else {
          if (bc0 - k >= bcMin) visitBlock(r, bc0 - k);
          if (k > 0 && bc0 + k <= bcMax) visitBlock(r, bc0 + k);
        }
      }
    };
    // Lower bound of every block of the region not in rings 0..k.
    const ringBound = (k: number): number => {
      if (k >= kMax) return Infinity;
      let lb = Infinity;
      if (br0 + k < brMax) {
        lb = Math.min(lb, (-90 + (br0 + k + 1) * BLOCK_DEG - lat) * METERS_PER_DEGREE);
      }
      if (br0 - k > brMin) {
        lb = Math.min(lb, (lat - (-90 + (br0 - k) * BLOCK_DEG)) * METERS_PER_DEGREE);
      }
      if (bc0 + k < bcMax) {
        lb = Math.min(lb, lonGapMeters(cosQ, -180 + (bc0 + k + 1) * BLOCK_DEG - qLonU));
      }
      if (bc0 - k > bcMin) {
        lb = Math.min(lb, lonGapMeters(cosQ, qLonU - (-180 + (bc0 - k) * BLOCK_DEG)));
      }
      return Math.max(0, lb * LB_SAFETY);
    };
    // Where a block or cell lies in the region: 0 outside, 1 across its edge, 2 strictly inside
    // (then its members need no per-member test: sector and box edges are never strictly inside).
    const regionW = region.lonMax - region.lonMin;
    const relation = (b: Bounds, size: number): number => {
      if (b.latMax < region.latMin || b.latMin > region.latMax) return 0;
      let e = b.lonMin - region.lonMin;
      if (e < 0) e += 360;
      else if (e >= 360) e -= 360;
      if (e > regionW && e + size < 360) return 0;
      return b.latMin > region.latMin && b.latMax < region.latMax && e > 0 && e + size < regionW ? 2 : 1;
    };

    let k = kStart - 1;
    let ringLb = k < 0 ? 0 : ringBound(k);
    // A region with far more blocks than the index holds (a world-wide box, an empty area): take
    // the occupied blocks from the map instead of walking rings of mostly empty ones.
    const regionBlocks = (brMax - brMin + 1) * (bcMax - bcMin + 1);
    if (regionBlocks > 4 * this.blocks.size + 1024) {
      for (const b of this.blocks.values()) {
        if (relation(b, BLOCK_DEG) > 0) heap.push(boxLowerBound(lat, qLon, cosQ, b), b);
      }
      ringLb = Infinity;
    }
    let worstA = -1, worstM = Infinity;
    for (;;) {
      const nodeLb = heap.size > 0 ? heap.lb[0] : Infinity;
      const frontier = ringLb < nodeLb ? ringLb : nodeLb;
      if (frontier === Infinity) break;
      if (top.full) {
        if (top.a[0] !== worstA) {
          worstA = top.a[0];
          worstM = aToMeters(worstA);
        }
        if (frontier > worstM) break;
      }
      if (ringLb <= nodeLb) {
        k++;
        enumerateRing(k);
        ringLb = ringBound(k);
        continue;
      }
      const node = heap.pop();
      if (isBlock(node)) {
        const inside = relation(node, BLOCK_DEG) === 2;
        for (const c of node.cells) {
          if (c && (inside || relation(c, CELL_DEG) > 0)) heap.push(boxLowerBound(lat, qLon, cosQ, c), c);
        }
        continue;
      }
      const inside = relation(node, CELL_DEG) === 2;
      const members = node.members;
      for (let i = 0; i < members.length; i++) {
        const m = members[i];
        if (m.until <= t || m === self || (!inside && !region.test(m))) continue;
        const a = haversineA(lat, lon, cosQ, m.lat, m.lon, m.cosLat);
        if (top.full && !top.beats(a, m.id)) continue;
        if (accept !== null && !accept(m.id)) continue;
        top.push(a, m);
      }
    }
    return top.sortInPlace();
  }
}

// --- one store per KV database

interface PreparedWrite {
  profileId: string;
  check: Deno.AtomicCheck;
  own: OwnRecord;
  oldSector: string | null;
  /** What others must learn (index, log), or null when the shown position stays as it was. */
  change: LogChange | null;
}

interface QueuedRead {
  profileId: string;
  done: (e: Deno.KvEntryMaybe<OwnRecord>) => void;
  fail: (e: unknown) => void;
}

interface QueuedWrite {
  w: PreparedWrite;
  done: (versionstamp: string | null) => void;
  fail: (e: unknown) => void;
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

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

/**
 * Commits, retrying a few times when SQLite reports the file locked by another process that
 * writes the same local KV file (a second instance or a worker); remote KV never says this.
 */
async function commitRetryingLocks(op: Deno.AtomicOperation): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  for (let attempt = 0;; attempt++) {
    try {
      return await op.commit();
    } catch (e) {
      if (attempt >= 8 || !/database is locked|busy/i.test(String((e as Error)?.message))) throw e;
      await new Promise((r) => setTimeout(r, 2 + Math.random() * 8 * (attempt + 1)));
    }
  }
}

function otherPointGiven(r: PositionReport): boolean {
  return r.overrideLat !== undefined || r.overrideLon !== undefined || r.gpsLat !== undefined ||
    r.gpsLon !== undefined;
}

function validateReport(profileId: unknown, r: PositionReport): void {
  if (typeof profileId !== "string" || profileId.length === 0 || profileId.length > 200) {
    throw new GeoInputError("profileId must be a non-empty string");
  }
  if (typeof r !== "object" || r === null) throw new GeoInputError("position report must be an object");
  assertLatLon(r.lat, r.lon);
  if (r.use !== "OVERRIDE" && r.use !== "DEVICE_GPS") throw new GeoInputError("use must be OVERRIDE or DEVICE_GPS");
  if (typeof r.hide !== "boolean") throw new GeoInputError("hide must be a boolean");
  for (
    const [k, ok] of [["overrideLat", isLat], ["overrideLon", isLon], ["gpsLat", isLat], ["gpsLon", isLon]] as const
  ) {
    const v = r[k];
    if (v !== undefined && v !== null && !ok(v)) throw new GeoInputError(`${k} must be a coordinate or null`);
  }
  if (r.gpsTimestamp != null && !Number.isFinite(r.gpsTimestamp)) {
    throw new GeoInputError("gpsTimestamp must be a number of milliseconds");
  }
}

function ownView(r: OwnRecord): OwnPosition {
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
  };
}

/** Options of a `PositionStore`; the module functions use the defaults (and the env). */
export interface PositionStoreOptions {
  /** Privacy cell edge in metres (default env `GEO_CELL_METERS`, else 1000). */
  cellMeters?: number;
  /** Hysteresis in cells (default 0.2). */
  hysteresis?: number;
  /** Shown-point secret (default env `GEO_SECRET`, else generated once and kept in KV). */
  secret?: string;
}

/**
 * Positions of one KV database: writes, the in-memory index and its sync. The module functions
 * below use the store of `kv()`; a second store on another handle stands in for another instance.
 */
export class PositionStore {
  readonly db: Deno.Kv;
  readonly grid: PrivacyGrid;
  #secretOption?: string;
  #secret?: Promise<string>;
  #index = new PositionIndex();
  #loaded?: Promise<void>;
  #cursor = "";
  #lastTail = 0;
  #lastPurge = 0;
  #chain: Promise<unknown> = Promise.resolve();
  #tailing?: Promise<void>;
  #tailAgain = false;
  #locks = new Map<string, Promise<void>>();
  #queue: QueuedWrite[] = [];
  #inFlight = 0;
  #reads: QueuedRead[] = [];
  #readsScheduled = false;
  #sync?: {
    reader: ReadableStreamDefaultReader<unknown>;
    timer: ReturnType<typeof setInterval>;
    loop: Promise<void>;
  };

  constructor(db: Deno.Kv, options: PositionStoreOptions = {}) {
    this.db = db;
    const envCell = Number(readEnv("GEO_CELL_METERS"));
    const cell = options.cellMeters ??
      (Number.isFinite(envCell) && envCell > 0 ? envCell : DEFAULT_CELL_METERS);
    this.grid = new PrivacyGrid(cell, options.hysteresis ?? DEFAULT_HYSTERESIS);
    this.#secretOption = options.secret;
  }

  /** The shown-point secret: option, env `GEO_SECRET`, or one generated and stored in KV. */
  secret(): Promise<string> {
    this.#secret ??= (async () => {
      const given = this.#secretOption ?? readEnv("GEO_SECRET");
      if (given) return given;
      const key = keys.positionsSecret();
      for (;;) {
        const e = await this.db.get<string>(key);
        if (typeof e.value === "string" && e.value) return e.value;
        const s = randomToken(32);
        const res = await this.db.atomic().check(e).set(key, s).commit();
        if (res.ok) return s;
      }
    })();
    this.#secret.catch(() => (this.#secret = undefined));
    return this.#secret;
  }

  /** Number of visible members in the index (expired ones included until purged). */
  get size(): number {
    return this.#index.members.size;
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(fn, fn);
    this.#chain = run.catch(() => {});
    return run;
  }

  /** Loads the index once (first use); queries and writes wait for it. */
  ready(): Promise<void> {
    this.#loaded ??= this.load().then(() => {});
    this.#loaded.catch(() => (this.#loaded = undefined));
    return this.#loaded;
  }

  /** Rebuilds the index from KV: every shown record, then the log written meanwhile. */
  load(): Promise<{ members: number; ms: number }> {
    const run = this.#serial(async () => {
      const t0 = performance.now();
      let cursor = "";
      for await (const e of this.db.list({ prefix: keys.positionsLogAll() }, { reverse: true, limit: 1 })) {
        cursor = String(e.key[1]);
      }
      const index = new PositionIndex();
      const iter = this.db.list<ShownValue>({ prefix: keys.positionsShownAll() }, { batchSize: 1000 });
      for await (const e of iter) {
        const v = e.value;
        index.apply({
          p: String(e.key[2]),
          s: String(e.key[1]),
          lat: v.lat,
          lon: v.lon,
          ts: v.ts,
          u: v.u,
        }, e.versionstamp);
      }
      this.#index = index;
      this.#cursor = cursor;
      await this.#tailOnce();
      return { members: index.members.size, ms: performance.now() - t0 };
    });
    this.#loaded = run.then(() => {});
    this.#loaded.catch(() => (this.#loaded = undefined));
    return run;
  }

  async #tailOnce(): Promise<void> {
    const started = Date.now();
    const index = this.#index;
    const selector: Deno.KvListSelector = this.#cursor
      ? { prefix: keys.positionsLogAll(), start: keys.positionLog(this.#cursor + "\u0000") }
      : { prefix: keys.positionsLogAll() };
    for await (const e of this.db.list<LogChange[]>(selector, { batchSize: 500 })) {
      const vs = String(e.key[1]);
      if (Array.isArray(e.value)) {
        for (const c of e.value) index.apply(c, e.versionstamp);
      }
      this.#cursor = vs;
    }
    this.#lastTail = started;
  }

  /** Applies what other instances wrote since the last tail (single flight; calls coalesce). */
  tail(): Promise<void> {
    if (this.#tailing) {
      this.#tailAgain = true;
      return this.#tailing;
    }
    this.#tailing = (async () => {
      try {
        do {
          this.#tailAgain = false;
          await this.#serial(async () => {
            if (!this.#loaded) return;
            if (
              this.#lastTail &&
              Date.now() - this.#lastTail > POSITION_LOG_TTL_MS / 2
            ) {
              // The log may have expired past our cursor: start over from the records.
              this.#lastTail = 0;
              queueMicrotask(() => this.load().catch(() => {}));
              return;
            }
            await this.#tailOnce();
          });
        } while (this.#tailAgain);
      } finally {
        this.#tailing = undefined;
      }
    })();
    return this.#tailing;
  }

  /** Starts following other instances' writes (watch plus a fallback poll). Idempotent. */
  startSync(options: { pollMs?: number } = {}): void {
    if (this.#sync) return;
    const reader = this.db.watch([keys.positionsVersion()]).getReader();
    const loop = (async () => {
      try {
        for (;;) {
          const r = await reader.read();
          if (r.done) return;
          this.tail().catch(() => {});
        }
      } catch {
        // The watch ends when the database closes or the sync stops.
      }
    })();
    const timer = setInterval(() => {
      this.tail().catch(() => {});
      if (Date.now() - this.#lastPurge > PURGE_EVERY_MS) {
        this.#lastPurge = Date.now();
        this.#index.purgeExpired(now());
      }
    }, options.pollMs ?? 5000);
    this.#sync = { reader, timer, loop };
    this.ready().catch(() => {});
  }

  /** Stops the sync and waits for its last tail. */
  async stopSync(): Promise<void> {
    const s = this.#sync;
    if (!s) return;
    this.#sync = undefined;
    clearInterval(s.timer);
    await s.reader.cancel().catch(() => {});
    await s.loop;
    await this.#tailing?.catch(() => {});
    await this.#loaded?.catch(() => {});
  }

  async #lock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.#locks.get(id);
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    this.#locks.set(id, mine);
    if (prev) await prev;
    try {
      return await fn();
    } finally {
      release();
      if (this.#locks.get(id) === mine) this.#locks.delete(id);
    }
  }

  #prepare(profileId: string, r: PositionReport, prev: Deno.KvEntryMaybe<OwnRecord>, secret: string): PreparedWrite {
    const t = now();
    const old = prev.value && prev.value.tsEffectiveUntil > t ? prev.value : null;
    const previousCell: GridCell | null = old && old.cellMeters === this.grid.cellMeters
      ? { row: old.row, col: old.col }
      : null;
    const cell = this.grid.next(previousCell, r.lat, r.lon);
    const shown = shownPoint(secret, profileId, this.grid, cell);
    const sector = sectorKey(shown.lat, shown.lon);
    const gps = r.use === "DEVICE_GPS";
    const given = otherPointGiven(r);
    // Nothing others see changes: the same shown point (or still hidden), refreshed recently.
    const unchanged = old !== null && old.hide === r.hide && old.sector === sector &&
      old.shownLat === shown.lat && old.shownLon === shown.lon && typeof old.shownTs === "number" &&
      t >= old.shownTs && t - old.shownTs < SHOWN_REFRESH_MS;
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
      cellMeters: this.grid.cellMeters,
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
    return { profileId, check: prev, own, oldSector, change };
  }

  #addWrite(op: Deno.AtomicOperation, w: PreparedWrite, withCheck: boolean): void {
    if (withCheck) op.check(w.check);
    op.set(keys.positionOwn(w.profileId), w.own, { expireIn: POSITION_TTL_MS });
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

  async #commit(ws: PreparedWrite[], withCheck: boolean): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
    const op = this.db.atomic();
    const changes: LogChange[] = [];
    for (const w of ws) {
      this.#addWrite(op, w, withCheck);
      if (w.change) changes.push(w.change);
    }
    if (changes.length > 0) {
      op.set(keys.positionLog(this.db.commitVersionstamp()), changes, { expireIn: POSITION_LOG_TTL_MS });
      op.sum(keys.positionsVersion(), 1n);
    }
    const res = await commitRetryingLocks(op);
    if (res.ok) {
      for (const w of ws) {
        if (w.change) this.#index.apply(w.change, res.versionstamp);
        else this.#index.noteOwnWrite(w.profileId, res.versionstamp);
      }
    }
    return res;
  }

  /**
   * Reads an own record; concurrent reads are grouped into `getMany` calls of 10 keys, which cost
   * KV about a third of 10 single reads. While commits are in flight, reads wait one macrotask to
   * gather company; otherwise they go out in the same microtask turn.
   */
  #readOwn(profileId: string): Promise<Deno.KvEntryMaybe<OwnRecord>> {
    return new Promise((done, fail) => {
      this.#reads.push({ profileId, done, fail });
      if (this.#reads.length >= 10) this.#flushReads();
      else if (!this.#readsScheduled) {
        this.#readsScheduled = true;
        if (this.#inFlight > 0) setTimeout(() => this.#flushReads(), 0);
        else queueMicrotask(() => this.#flushReads());
      }
    });
  }

  #flushReads(): void {
    this.#readsScheduled = false;
    const all = this.#reads.splice(0);
    for (let i = 0; i < all.length; i += 10) {
      const chunk = all.slice(i, i + 10);
      this.db.getMany<OwnRecord[]>(chunk.map((r) => keys.positionOwn(r.profileId))).then(
        (entries) => chunk.forEach((r, j) => r.done(entries[j])),
        (e) => chunk.forEach((r) => r.fail(e)),
      );
    }
  }

  /** Queues a prepared write; commits group whatever is queued (group commit). */
  #write(w: PreparedWrite): Promise<string | null> {
    return new Promise((done, fail) => {
      this.#queue.push({ w, done, fail });
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#inFlight < WRITES_IN_FLIGHT && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, WRITE_BATCH);
      this.#inFlight++;
      this.#commitBatch(batch).finally(() => {
        this.#inFlight--;
        this.#pump();
      });
    }
  }

  async #commitBatch(batch: QueuedWrite[]): Promise<void> {
    try {
      const res = await this.#commit(batch.map((b) => b.w), true);
      if (res.ok) {
        for (const b of batch) b.done(res.versionstamp);
        return;
      }
    } catch (e) {
      if (batch.length === 1) {
        batch[0].fail(e);
        return;
      }
    }
    if (batch.length === 1) {
      batch[0].done(null);
      return;
    }
    // Somebody's check failed (another instance wrote that member): commit one by one.
    for (const b of batch) {
      try {
        const res = await this.#commit([b.w], true);
        b.done(res.ok ? res.versionstamp : null);
      } catch (e) {
        b.fail(e);
      }
    }
  }

  /** See the module function `reportPosition`. */
  async report(profileId: string, r: PositionReport): Promise<OwnPosition> {
    validateReport(profileId, r);
    const report: PositionReport = { ...r, lon: r.lon === 180 ? -180 : r.lon };
    const [secret] = await Promise.all([this.secret(), this.ready()]);
    return await this.#lock(profileId, async () => {
      // Without a read when the index knows all the report does not bring (see #knownOwn).
      const known = otherPointGiven(report) ? this.#knownOwn(profileId) : null;
      if (known) {
        const w = this.#prepare(profileId, report, known, secret);
        if ((await this.#write(w)) !== null) return ownView(w.own);
      }
      for (let attempt = 0; attempt < 10; attempt++) {
        const prev = await this.#readOwn(profileId);
        const w = this.#prepare(profileId, report, prev, secret);
        if ((await this.#write(w)) !== null) return ownView(w.own);
      }
      throw new Error(`position of ${profileId}: too many concurrent writes`);
    });
  }

  /**
   * The own record of a visible member as far as a write needs it, from the index: cell (from the
   * shown point), sector, shown point and refresh time, and the own record's versionstamp as this
   * instance last saw it (the commit of its last change, or of its last quiet write here). The
   * write checks that versionstamp, so a stale guess only costs a retry with a real read.
   */
  #knownOwn(profileId: string): Deno.KvEntryMaybe<OwnRecord> | null {
    const m = this.#index.members.get(profileId);
    const vs = this.#index.versions.get(profileId);
    if (!m || vs === undefined || m.until <= now()) return null;
    const cell = this.grid.cellOf(m.lat, m.lon);
    const value = {
      profileId,
      hide: false,
      sector: m.sector,
      shownLat: m.lat,
      shownLon: m.lon,
      shownTs: m.ts,
      tsEffectiveUntil: m.until,
      cellMeters: this.grid.cellMeters,
      row: cell.row,
      col: cell.col,
    } as OwnRecord;
    return { key: keys.positionOwn(profileId), value, versionstamp: vs };
  }

  /** See the module function `importPositions`. */
  async import(items: ImportItem[]): Promise<number> {
    for (const it of items) validateReport(it.profileId, it);
    const [secret] = await Promise.all([this.secret(), this.ready()]);
    const seen = new Set<string>();
    for (const it of items) {
      if (seen.has(it.profileId)) {
        throw new GeoInputError(`duplicate profile ${it.profileId} in import`);
      }
      seen.add(it.profileId);
    }
    let done = 0;
    for (let i = 0; i < items.length; i += IMPORT_BATCH) {
      const chunk = items.slice(i, i + IMPORT_BATCH);
      const prevs: Deno.KvEntryMaybe<OwnRecord>[] = [];
      const reads: Promise<Deno.KvEntryMaybe<OwnRecord>[]>[] = [];
      for (let j = 0; j < chunk.length; j += 10) {
        reads.push(this.db.getMany<OwnRecord[]>(chunk.slice(j, j + 10).map((it) => keys.positionOwn(it.profileId))));
      }
      for (const r of await Promise.all(reads)) prevs.push(...r);
      const ws = chunk.map((it, j) =>
        this.#prepare(it.profileId, { ...it, lon: it.lon === 180 ? -180 : it.lon }, prevs[j], secret)
      );
      const res = await this.#commit(ws, false);
      if (!res.ok) throw new Error("position import commit failed");
      done += chunk.length;
    }
    return done;
  }

  /** The owner's own record, or null (none, or expired). */
  async own(profileId: string): Promise<OwnPosition | null> {
    const e = await this.db.get<OwnRecord>(keys.positionOwn(profileId));
    return e.value && e.value.tsEffectiveUntil > now() ? ownView(e.value) : null;
  }

  /** A visible member's shown position from the index, or null (hidden, expired, unknown). */
  async shown(profileId: string): Promise<ShownPosition | null> {
    await this.ready();
    const m = this.#index.members.get(profileId);
    if (!m || m.until <= now()) return null;
    return { profileId, lat: m.lat, lon: m.lon, sector: m.sector, tsUpdated: m.ts, tsEffectiveUntil: m.until };
  }

  /** Where a viewer is measured from: their shown point even while hidden; null without a report. */
  async #viewerPoint(viewerId: string): Promise<LatLon | null> {
    const m = this.#index.members.get(viewerId);
    const t = now();
    if (m && m.until > t) return { lat: m.lat, lon: m.lon };
    const e = await this.db.get<OwnRecord>(keys.positionOwn(viewerId));
    if (e.value && e.value.tsEffectiveUntil > t) {
      return { lat: e.value.shownLat, lon: e.value.shownLon };
    }
    return null;
  }

  #run(from: LatLon, region: Region, viewerId: string, o: QueryOptions, page: number, size: number): NearbyPage {
    const need = (page + 1) * size;
    if (need > MAX_RESULT_DEPTH) return { items: [], hasMore: false };
    const { exclude, filter } = o;
    const accept = exclude === undefined && filter === undefined
      ? null
      : (id: string) => (exclude === undefined || !exclude.has(id)) && (filter === undefined || filter(id));
    const index = this.#index;
    const self = index.members.get(viewerId);
    const top = index.search(from.lat, from.lon, region, need + 1, now(), self, accept);
    const end = Math.min(top.a.length, need);
    const items: NearbyItem[] = [];
    for (let i = page * size; i < end; i++) {
      const m = top.m[i];
      items.push({ profileId: m.id, lat: m.lat, lon: m.lon, distanceMeters: aToMeters(top.a[i]), tsUpdated: m.ts });
    }
    return { items, hasMore: top.a.length > need };
  }

  /** See the module function `nearest`. */
  async nearest(viewerId: string, o: QueryOptions = {}): Promise<NearbyPage> {
    const { page, size } = checkPaging(o.page, o.size, DEFAULT_NEAREST_SIZE);
    await this.ready();
    const from = await this.#viewerPoint(viewerId);
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
      test: (m) =>
        m.lat >= latMin && m.lat <= latMax &&
        ((m.lon - lonMin) % 360 + 360) % 360 <= width,
    };
    return this.#run(from, region, viewerId, o, page, size);
  }

  /** See the module function `byBounds`. */
  async byBounds(q: BoundsQuery, viewerId: string): Promise<NearbyPage> {
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
    await this.ready();
    const from = await this.#viewerPoint(viewerId) ??
      { lat: (latMin + latMax) / 2, lon: (lonMin + lonMax) / 2 };
    const region: Region = {
      latMin,
      latMax,
      lonMin,
      lonMax,
      test: (m) =>
        m.lat >= latMin && m.lat <= latMax && m.lon >= lonMin &&
        m.lon <= lonMax,
    };
    return this.#run(from, region, viewerId, q, page, size);
  }

  /** See the module function `bySector`. */
  async bySector(sector: string, o: QueryOptions, viewerId: string): Promise<NearbyPage> {
    const sw = parseSectorKey(sector);
    const key = `${sw.lat}:${sw.lon}`;
    const { page, size } = checkPaging(o.page, o.size, DEFAULT_SECTOR_SIZE);
    await this.ready();
    const from = await this.#viewerPoint(viewerId) ??
      { lat: sw.lat + 0.5, lon: sw.lon + 0.5 };
    const region: Region = {
      latMin: sw.lat,
      latMax: sw.lat + 1,
      lonMin: sw.lon,
      lonMax: sw.lon + 1,
      test: (m) => m.sector === key,
    };
    return this.#run(from, region, viewerId, o, page, size);
  }

  /** See the module function `aggregates`. */
  async aggregates(): Promise<PositionAggregate[]> {
    await this.ready();
    const t = now();
    this.#index.purgeExpired(t);
    const out: PositionAggregate[] = [];
    for (const [key, s] of this.#index.sectors) {
      if (s.members.size === 0) continue;
      const { lat, lon } = parseSectorKey(key);
      out.push({
        centerLat: lat + 0.5,
        centerLon: lon + 0.5,
        deltaLat: 1,
        deltaLon: 1,
        count: s.members.size,
        tsUpdated: s.tsUpdated,
      });
    }
    out.sort((x, y) => x.centerLat - y.centerLat || x.centerLon - y.centerLon);
    return out;
  }
}

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

/** (Re)builds the in-memory index from KV; resolves with its size and the time taken. */
export function loadPositionIndex(): Promise<{ members: number; ms: number }> {
  return positionStore().load();
}

/** Starts following writes of other instances (server start). Stop it with `stopPositionSync`. */
export function startPositionSync(options: { pollMs?: number } = {}): void {
  positionStore().startSync(options);
}

/** Stops the sync started by `startPositionSync` (shutdown, end of a test). */
export async function stopPositionSync(): Promise<void> {
  await current?.stopSync();
}

/** Applies other instances' writes now instead of waiting for the watch. */
export function syncPositionsNow(): Promise<void> {
  return positionStore().tail();
}
