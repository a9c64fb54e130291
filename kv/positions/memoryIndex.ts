/**
 * The in-memory index of one KV database's visible shown positions, with its distance math.
 *
 * Contract: memory only, no I/O. `apply` takes log changes (a shown position, or a removal) with
 * the versionstamp they were committed at and ignores any that is not newer than the last one
 * applied for that profile, so changes may arrive twice or out of order. `search` returns the
 * nearest members of a region in (distance, id) order. The index holds shown points only.
 *
 * Layout: typed arrays, no object per member (about 140 bytes a member at a million, against
 * about 650 as objects). A member is a slot: by slot, its id (idTable.ts: an array of strings and
 * an open-addressing table from id to slot), its versionstamp, its cell, its interned sector and
 * its place in the arena. The arena is one Float64Array of 32-byte entries ordered by cell: shown
 * lat and lon, expiry, and (through an Int32Array over the same bytes) the slot and the report
 * time as expiry minus an Int32; the cosine of a latitude is computed when needed. Each cell of
 * 1/256 degree (about 430 m) owns a contiguous range of the arena (start, count, capacity), so a
 * search reads a cell's members in sequence. A member leaving a cell is swapped with the cell's
 * last; a full cell moves to a larger range (capacities 1, 2, 3, 4, 6, 8, 12, ...), its old range
 * kept on a free list for its size; once a quarter of the arena is such free ranges, the arena is
 * compacted in block order. Cells are grouped into blocks of 4 x 4 cells (a map from block id to
 * block), plus per-sector counts for aggregates. A load (`fromColumns`: a snapshot, or every
 * record) fills the arena in one pass in block and cell order, each member's slot its place, so
 * members near each other are near each other in memory too.
 *
 * Search: a best-first search: rings of blocks around the viewer are enumerated lazily (or, for a
 * region far larger than the index, the occupied blocks are taken from the map), blocks and then
 * cells are visited in order of their lower-bound distance, and the search stops once the
 * (page+1)*size nearest found are closer than anything unvisited, so its cost follows the answer
 * size, not the number of members in the sector. A small region (a map view) that holds at most a
 * few times the answer is read whole instead and sorted once: ordering its cells costs more there
 * than reading every member. That read finds its blocks through tiles of 16 x 16 blocks (a view's
 * 60-odd blocks are a few tiles) and places edge cells by their row and column; every search
 * measures nearby members with short Taylor series instead of `Math.sin` and `Math.cos`, which cost
 * a large share of a city's view (docs/decisions/0038-map-view-read-whole.md).
 */

import { EARTH_RADIUS_M, isLat, isLon, METERS_PER_DEGREE, normalizeLon } from "../../domain/geo.ts";
import { NodeHeap, TopK } from "./heaps.ts";
import { IdTable } from "./idTable.ts";
import type { LogChange } from "./types.ts";

const RAD = Math.PI / 180;
const CELLS_PER_DEG = 256;
const CELL_ROWS = 180 * CELLS_PER_DEG;
const CELL_COLS = 360 * CELLS_PER_DEG;
const BLOCK_SHIFT = 2;
const BLOCK_SIDE = 1 << BLOCK_SHIFT;
const BLOCK_MASK = BLOCK_SIDE - 1;
const BLOCK_CELLS = BLOCK_SIDE * BLOCK_SIDE;
const BLOCK_DEG = BLOCK_SIDE / CELLS_PER_DEG;
const BLOCK_ROWS = 180 * CELLS_PER_DEG / BLOCK_SIDE;
const BLOCK_COLS = 360 * CELLS_PER_DEG / BLOCK_SIDE;
const TILE_SHIFT = 4;
const TILE_SIDE = 1 << TILE_SHIFT;
const TILE_MASK = TILE_SIDE - 1;
const TILE_BLOCKS = TILE_SIDE * TILE_SIDE;
const TILE_COLS = BLOCK_COLS / TILE_SIDE;
const CELL_DEG = 1 / CELLS_PER_DEG;
/** An arena entry: its numbers, and how many. */
const LAT = 0, LON = 1, UNTIL = 2, E = 4;
/** The entry's fourth number as two Int32: its slot, and its expiry minus its report time. */
const I_SLOT = 6, I_DT = 7, IE = 2 * E;
/** An I_DT that stands for "the report time is in `#tsOther`" (not an exact Int32 difference). */
const DT_OTHER = -0x80000000;
/** Lower bounds are shrunk by this factor so rounding never makes them exceed a true distance. */
const LB_SAFETY = 0.9999;
// The members of the latest flat read, reused (searches run one at a time).
let flatA = new Float64Array(1024), flatM = new Int32Array(1024);

/** A region of at most this many blocks holding at most this factor times the answer is read whole. */
const FLAT_MAX_BLOCKS = 1024, FLAT_MAX_FACTOR = 3;

/** A visible member of the index: a copy of its shown position, report time, expiry and sector. */
export interface Member {
  id: string;
  lat: number;
  lon: number;
  cosLat: number;
  ts: number;
  until: number;
  sector: string;
  /** The member's slot (valid until the member leaves the index). */
  slot: number;
}

/** The visible members by id; `get` gives a copy (the index keeps no object per member). */
export interface MemberMap {
  readonly size: number;
  get(id: string): Member | undefined;
  has(id: string): boolean;
  keys(): IterableIterator<string>;
  values(): IterableIterator<Member>;
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

/**
 * Below this many radians `sinSmall` and `asinSmall` keep a double's precision: the first term
 * they leave out is under 1e-17 of the value.
 */
const SMALL_RAD = 0.01;

/** sin x: its Taylor series to x^7 for small x (no call into `Math.sin`), else `Math.sin`. */
function sinSmall(x: number): number {
  if (x > -SMALL_RAD && x < SMALL_RAD) {
    const x2 = x * x;
    return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42)));
  }
  return Math.sin(x);
}

/** asin x for x in [0, 1]: its Taylor series to x^7 for small x, else `Math.asin`. */
function asinSmall(x: number): number {
  if (x < SMALL_RAD) {
    const x2 = x * x;
    return x * (1 + x2 * (1 / 6 + x2 * (3 / 40 + x2 * (5 / 112))));
  }
  return Math.asin(x);
}

/**
 * Haversine "a" (metres: `aToMeters`) from a point (lat1, lon1), given the cosine and sine of its
 * latitude, to (lat2, lon2). The second latitude's cosine comes from the first's and the
 * half-difference's sine (cos(l1 + d) = cos l1 cos d - sin l1 sin d, with cos d = 1 - 2 s1^2 and
 * sin d = 2 s1 cos(d / 2)), so a nearby member costs no call to `Math.sin` or `Math.cos`.
 */
export function haversineA(lat1: number, lon1: number, cos1: number, sin1: number, lat2: number, lon2: number): number {
  const s1 = sinSmall((lat2 - lat1) * (RAD / 2));
  const s2 = sinSmall((lon2 - lon1) * (RAD / 2));
  const q = s1 * s1;
  const cos2 = cos1 * (1 - 2 * q) - sin1 * 2 * s1 * Math.sqrt(1 - q);
  return q + cos1 * cos2 * s2 * s2;
}

/** The great-circle distance in metres of a haversine "a". */
export function aToMeters(a: number): number {
  return 2 * EARTH_RADIUS_M * asinSmall(Math.min(1, Math.sqrt(a)));
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

/** Lower bound (metres) of the distance from a point to any point of a box `size` degrees wide. */
function boxLowerBound(lat: number, lon: number, cosLat: number, latMin: number, lonMin: number, size: number): number {
  let dLat = 0;
  if (lat < latMin) dLat = latMin - lat;
  else if (lat > latMin + size) dLat = lat - (latMin + size);
  let east = lon - lonMin; // lon and lonMin are both in [-180, 180)
  if (east < 0) east += 360;
  const dLon = east <= size ? 0 : Math.min(east - size, 360 - east);
  const latM = dLat * METERS_PER_DEGREE;
  const lonM = dLon > 0 ? lonGapMeters(cosLat, dLon) : 0;
  return (latM > lonM ? latM : lonM) * LB_SAFETY;
}

/** The smallest arena capacity class (1, 2, 3, 4, 6, 8, 12, 16, ...) of at least `n`. */
function capClass(n: number): number {
  if (n <= 2) return Math.max(1, n);
  const p = 2 ** Math.floor(Math.log2(n));
  return n === p ? p : n <= p + p / 2 ? p + p / 2 : 2 * p;
}

function growF64(a: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  return b;
}

function growI32(a: Int32Array, n: number, fill = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  if (fill !== 0 && n > a.length) b.fill(fill, a.length);
  return b;
}

/** The cell row and column of a point (rows from the south pole, columns from -180). */
function cellRow(lat: number): number {
  return Math.min(CELL_ROWS - 1, Math.floor((lat + 90) * CELLS_PER_DEG));
}
function cellCol(lon: number): number {
  return Math.floor((normalizeLon(lon) + 180) * CELLS_PER_DEG) % CELL_COLS;
}

/** The tile of a block id and the block's place in it. */
function tileOf(bid: number): [number, number] {
  const row = Math.floor(bid / BLOCK_COLS), col = bid % BLOCK_COLS;
  return [(row >> TILE_SHIFT) * TILE_COLS + (col >> TILE_SHIFT), (row & TILE_MASK) * TILE_SIDE + (col & TILE_MASK)];
}

/** The block-major cell key of a point: block id * 16 + cell in block (below 2^32). */
function cellKeyOf(lat: number, lon: number): number {
  const row = cellRow(lat), col = cellCol(lon);
  return ((row >> BLOCK_SHIFT) * BLOCK_COLS + (col >> BLOCK_SHIFT)) * BLOCK_CELLS +
    (row & BLOCK_MASK) * BLOCK_SIDE + (col & BLOCK_MASK);
}

/** The rows in block and cell order (stable): a native sort of the distinct cell keys, then a counting sort. */
function inCellOrder(cols: IndexColumns): IndexColumns {
  const n = cols.ids.length;
  const key = new Float64Array(n);
  for (let i = 0; i < n; i++) key[i] = cellKeyOf(cols.lat[i], cols.lon[i]);
  const cells = key.slice().sort();
  let c = 0;
  for (let i = 0; i < n; i++) if (i === 0 || cells[i] !== cells[c - 1]) cells[c++] = cells[i];
  const start = new Int32Array(c + 1), rank = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let lo = 0, hi = c - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cells[mid] < key[i]) lo = mid + 1;
      else hi = mid;
    }
    rank[i] = lo;
    start[lo + 1]++;
  }
  for (let r = 0; r < c; r++) start[r + 1] += start[r];
  const out: IndexColumns = {
    ids: new Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    ts: new Float64Array(n),
    until: new Float64Array(n),
    sector: new Int32Array(n),
    sectors: cols.sectors,
    versions: cols.versions && new Array(n),
  };
  for (let i = 0; i < n; i++) {
    const to = start[rank[i]]++;
    out.ids[to] = cols.ids[i];
    out.lat[to] = cols.lat[i];
    out.lon[to] = cols.lon[i];
    out.ts[to] = cols.ts[i];
    out.until[to] = cols.until[i];
    out.sector[to] = cols.sector[i];
    if (out.versions) out.versions[to] = cols.versions![i];
  }
  return out;
}

/** The visible shown positions of one KV database, in memory. */
export class PositionIndex {
  // --- members by slot
  /** Ids by slot (`#idt.ids`), and slots by id. */
  readonly #idt = new IdTable();
  /** Versionstamp of the last change (or quiet own write here) by slot. */
  #vers: (string | undefined)[] = [];
  #pos = new Int32Array(0);
  #cellOf = new Int32Array(0);
  #sec = new Int32Array(0);
  #slotEnd = 0;
  #freeSlots: number[] = [];
  /** Versions of profiles not in the index: kept when a change removes a member, dropped when it expires. */
  readonly #goneVersions = new Map<string, string>();
  /** The last versionstamp applied, so a commit's many changes share one string. */
  #lastVs = "";

  // --- the arena, by position: each cell's members in one range
  /**
   * Entry p: LAT, LON, UNTIL at `p * E + ...` of `#a`, and I_SLOT, I_DT at `p * IE + ...` of
   * `#ai`, an Int32Array over the same bytes. 32 bytes a member.
   */
  #a = new Float64Array(0);
  #ai = new Int32Array(0);
  /** Report times that are not expiry minus an Int32 (none in practice: expiry is report + 26 h), by slot. */
  readonly #tsOther = new Map<number, number>();
  #aEnd = 0;
  /** Free ranges by capacity, and their total. */
  readonly #aFree = new Map<number, number[]>();
  #aWaste = 0;

  // --- cells
  #cStart = new Int32Array(0);
  #cCount = new Int32Array(0);
  #cCap = new Int32Array(0);
  #cRow = new Int32Array(0);
  #cCol = new Int32Array(0);
  #cBlock = new Int32Array(0);
  #cellEnd = 0;
  #freeCells: number[] = [];

  // --- blocks of 4 x 4 cells
  readonly #blockOf = new Map<number, number>();
  /**
   * The same blocks by tile of 16 x 16 blocks (1/4 degree): block index by block-in-tile (-1:
   * none), then the tile's block count. A map view's 60-odd blocks are a few tiles, so a flat
   * read looks up a few tiles instead of every block.
   */
  readonly #tiles = new Map<number, Int32Array>();
  #bId = new Int32Array(0);
  #bCount = new Int32Array(0);
  /** Cell index by block and cell-in-block (-1: none). */
  #bCells = new Int32Array(0);
  #blockEnd = 0;
  #freeBlocks: number[] = [];

  // --- sectors, interned for good (at most 64,800)
  readonly #sectorOf = new Map<string, number>();
  readonly #sectorName: string[] = [];
  readonly #sCount: number[] = [];
  readonly #sMinUntil: number[] = [];
  readonly #sTs: number[] = [];

  /** The visible members by id (copies). */
  readonly members: MemberMap;
  /**
   * Versionstamp of the last change (or quiet own write here) per profile: kept when a change
   * removes the member, dropped when the member expires.
   */
  readonly versions: { get(profileId: string): string | undefined };

  constructor() {
    const idt = this.#idt;
    const member = (slot: number) => this.#member(slot);
    const slots = function* () {
      for (let slot = 0; slot < idt.ids.length; slot++) if (idt.ids[slot] !== undefined) yield slot;
    };
    this.members = {
      get size() {
        return idt.size;
      },
      get: (id) => {
        const slot = idt.get(id);
        return slot < 0 ? undefined : member(slot);
      },
      has: (id) => idt.get(id) >= 0,
      keys: function* () {
        for (const slot of slots()) yield idt.ids[slot]!;
      },
      values: function* () {
        for (const slot of slots()) yield member(slot);
      },
    };
    this.versions = { get: (id) => this.#versionOf(id) };
  }

  #member(slot: number): Member {
    const p = this.#pos[slot], e = p * E, a = this.#a;
    return {
      id: this.#idt.ids[slot]!,
      lat: a[e + LAT],
      lon: a[e + LON],
      cosLat: Math.cos(a[e + LAT] * RAD),
      ts: this.tsAt(p),
      until: a[e + UNTIL],
      sector: this.#sectorName[this.#sec[slot]],
      slot,
    };
  }

  #versionOf(id: string): string | undefined {
    const slot = this.#idt.get(id);
    return slot < 0 ? this.#goneVersions.get(id) : this.#vers[slot];
  }

  /** The slot of a visible member, or -1. */
  slotOf(profileId: string): number {
    return this.#idt.get(profileId);
  }

  /**
   * The id, shown point and report time of a member found by `search` (an arena position: valid
   * until the index next changes, so read at once).
   */
  idAt(p: number): string {
    return this.#idt.ids[this.#ai[p * IE + I_SLOT]]!;
  }
  latAt(p: number): number {
    return this.#a[p * E + LAT];
  }
  lonAt(p: number): number {
    return this.#a[p * E + LON];
  }
  tsAt(p: number): number {
    const dt = this.#ai[p * IE + I_DT];
    return dt === DT_OTHER ? this.#tsOther.get(this.#ai[p * IE + I_SLOT])! : this.#a[p * E + UNTIL] - dt;
  }

  /** Writes entry p's numbers. */
  #put(p: number, lat: number, lon: number, until: number, ts: number, slot: number): void {
    const a = this.#a, ai = this.#ai, e = p * E, ie = p * IE;
    a[e + LAT] = lat;
    a[e + LON] = lon;
    a[e + UNTIL] = until;
    ai[ie + I_SLOT] = slot;
    const dt = until - ts;
    if (dt === (dt | 0) && dt !== DT_OTHER && until - dt === ts) {
      ai[ie + I_DT] = dt;
      if (this.#tsOther.size > 0) this.#tsOther.delete(slot);
    } else {
      ai[ie + I_DT] = DT_OTHER;
      this.#tsOther.set(slot, ts);
    }
  }

  /** The interned number of a sector key (-1: no member was ever in it); see `sectorAt`. */
  sectorId(key: string): number {
    return this.#sectorOf.get(key) ?? -1;
  }

  /** The interned number of a slot's sector. */
  sectorAt(slot: number): number {
    return this.#sec[slot];
  }

  /** Every sector with members: its key, count and last report time. */
  *sectors(): IterableIterator<{ key: string; count: number; tsUpdated: number }> {
    for (let s = 0; s < this.#sectorName.length; s++) {
      if (this.#sCount[s] > 0) yield { key: this.#sectorName[s], count: this.#sCount[s], tsUpdated: this.#sTs[s] };
    }
  }

  /** Applies a change committed at `vs` unless a newer change of the profile was applied. */
  apply(c: LogChange, vs: string): boolean {
    const slot = this.#idt.get(c.p);
    const seen = slot < 0 ? this.#goneVersions.get(c.p) : this.#vers[slot];
    if (seen !== undefined && seen >= vs) return false;
    if (vs === this.#lastVs) vs = this.#lastVs;
    else this.#lastVs = vs;
    const shown = c.s !== undefined && isLat(c.lat) && isLon(c.lon);
    if (slot >= 0) {
      this.#detach(slot);
      if (shown) {
        this.#attach(slot, c.lat!, c.lon!, c.ts ?? 0, c.u ?? 0, this.#intern(c.s!));
        this.#vers[slot] = vs;
      } else {
        this.#freeSlot(slot);
        this.#goneVersions.set(c.p, vs);
      }
    } else if (shown) {
      const s = this.#newSlot(c.p);
      this.#attach(s, c.lat!, c.lon!, c.ts ?? 0, c.u ?? 0, this.#intern(c.s!));
      this.#vers[s] = vs;
      this.#goneVersions.delete(c.p);
    } else {
      this.#goneVersions.set(c.p, vs);
    }
    return true;
  }

  /**
   * Records the versionstamp of a quiet write (own record only): nothing another instance logged
   * for the profile can lie between the previous change and it, since that write's check passed.
   */
  noteOwnWrite(profileId: string, vs: string): void {
    const slot = this.#idt.get(profileId);
    const seen = slot < 0 ? this.#goneVersions.get(profileId) : this.#vers[slot];
    if (seen !== undefined && seen >= vs) return;
    if (slot < 0) this.#goneVersions.set(profileId, vs);
    else this.#vers[slot] = vs;
  }

  #intern(sector: string): number {
    let s = this.#sectorOf.get(sector);
    if (s === undefined) {
      s = this.#sectorName.length;
      this.#sectorOf.set(sector, s);
      this.#sectorName.push(sector);
      this.#sCount.push(0);
      this.#sMinUntil.push(Infinity);
      this.#sTs.push(0);
    }
    return s;
  }

  // --- slots

  #newSlot(id: string): number {
    let slot = this.#freeSlots.pop();
    if (slot === undefined) {
      slot = this.#slotEnd++;
      if (slot >= this.#pos.length) this.#growSlots(Math.max(1024, Math.ceil(this.#pos.length * 1.5)));
    }
    this.#idt.add(id, slot);
    return slot;
  }

  #growSlots(n: number): void {
    this.#pos = growI32(this.#pos, n);
    this.#cellOf = growI32(this.#cellOf, n);
    this.#sec = growI32(this.#sec, n);
  }

  #freeSlot(slot: number): void {
    this.#idt.remove(slot);
    this.#vers[slot] = undefined;
    if (this.#tsOther.size > 0) this.#tsOther.delete(slot);
    this.#freeSlots.push(slot);
  }

  // --- placing a slot in its cell, block and sector

  #attach(slot: number, lat: number, lon: number, ts: number, until: number, sector: number): void {
    const row = cellRow(lat), col = cellCol(lon);
    const bid = (row >> BLOCK_SHIFT) * BLOCK_COLS + (col >> BLOCK_SHIFT);
    let b = this.#blockOf.get(bid);
    if (b === undefined) b = this.#newBlock(bid);
    const inBlock = (row & BLOCK_MASK) * BLOCK_SIDE + (col & BLOCK_MASK);
    let c = this.#bCells[b * BLOCK_CELLS + inBlock];
    if (c < 0) c = this.#newCell(b, row, col, inBlock, 0);
    if (this.#cCount[c] === this.#cCap[c]) this.#growCell(c);
    const p = this.#cStart[c] + this.#cCount[c]++;
    this.#put(p, lat, lon, until, ts, slot);
    this.#pos[slot] = p;
    this.#cellOf[slot] = c;
    this.#sec[slot] = sector;
    this.#bCount[b]++;
    if (this.#sCount[sector]++ === 0) {
      this.#sMinUntil[sector] = Infinity;
      this.#sTs[sector] = 0;
    }
    if (until < this.#sMinUntil[sector]) this.#sMinUntil[sector] = until;
    if (ts > this.#sTs[sector]) this.#sTs[sector] = ts;
  }

  #detach(slot: number): void {
    const c = this.#cellOf[slot], p = this.#pos[slot];
    const last = this.#cStart[c] + --this.#cCount[c];
    if (p !== last) {
      this.#a.copyWithin(p * E, last * E, last * E + E);
      this.#pos[this.#ai[p * IE + I_SLOT]] = p;
    }
    const b = this.#cBlock[c];
    if (this.#cCount[c] === 0) this.#dropCell(c);
    if (--this.#bCount[b] === 0) this.#dropBlock(b);
    this.#sCount[this.#sec[slot]]--;
  }

  #newBlock(bid: number): number {
    let b = this.#freeBlocks.pop();
    if (b === undefined) {
      b = this.#blockEnd++;
      if (b >= this.#bId.length) {
        const n = Math.max(256, Math.ceil(this.#bId.length * 1.5));
        this.#bId = growI32(this.#bId, n);
        this.#bCount = growI32(this.#bCount, n);
        this.#bCells = growI32(this.#bCells, n * BLOCK_CELLS, -1);
      }
    }
    this.#bId[b] = bid;
    this.#bCount[b] = 0;
    this.#blockOf.set(bid, b);
    const [tile, inTile] = tileOf(bid);
    let blocks = this.#tiles.get(tile);
    if (!blocks) this.#tiles.set(tile, blocks = new Int32Array(TILE_BLOCKS + 1).fill(-1, 0, TILE_BLOCKS));
    blocks[inTile] = b;
    blocks[TILE_BLOCKS]++;
    return b;
  }

  #dropBlock(b: number): void {
    const bid = this.#bId[b];
    this.#blockOf.delete(bid);
    const [tile, inTile] = tileOf(bid);
    const blocks = this.#tiles.get(tile)!;
    blocks[inTile] = -1;
    if (--blocks[TILE_BLOCKS] === 0) this.#tiles.delete(tile);
    this.#freeBlocks.push(b);
  }

  /** A new cell of block `b` with a range of `cap` (0: none yet). */
  #newCell(b: number, row: number, col: number, inBlock: number, cap: number): number {
    let c = this.#freeCells.pop();
    if (c === undefined) {
      c = this.#cellEnd++;
      if (c >= this.#cStart.length) {
        const n = Math.max(1024, Math.ceil(this.#cStart.length * 1.5));
        this.#cStart = growI32(this.#cStart, n);
        this.#cCount = growI32(this.#cCount, n);
        this.#cCap = growI32(this.#cCap, n);
        this.#cRow = growI32(this.#cRow, n);
        this.#cCol = growI32(this.#cCol, n);
        this.#cBlock = growI32(this.#cBlock, n);
      }
    }
    this.#cStart[c] = cap > 0 ? this.#alloc(cap) : 0;
    this.#cCount[c] = 0;
    this.#cCap[c] = cap;
    this.#cRow[c] = row;
    this.#cCol[c] = col;
    this.#cBlock[c] = b;
    this.#bCells[b * BLOCK_CELLS + inBlock] = c;
    return c;
  }

  #dropCell(c: number): void {
    this.#release(this.#cStart[c], this.#cCap[c]);
    this.#cCap[c] = 0;
    const inBlock = (this.#cRow[c] & BLOCK_MASK) * BLOCK_SIDE + (this.#cCol[c] & BLOCK_MASK);
    this.#bCells[this.#cBlock[c] * BLOCK_CELLS + inBlock] = -1;
    this.#freeCells.push(c);
  }

  // --- the arena

  /** Moves a full cell to a range of the next capacity class (after compacting, if that made room). */
  #growCell(c: number): void {
    const cap = capClass(this.#cCap[c] + 1);
    this.#makeRoom(cap);
    if (this.#cCount[c] < this.#cCap[c]) return; // the compaction gave it room
    const to = this.#alloc(cap), from = this.#cStart[c], n = this.#cCount[c];
    this.#a.copyWithin(to * E, from * E, (from + n) * E);
    for (let i = 0; i < n; i++) this.#pos[this.#ai[(to + i) * IE + I_SLOT]] = to + i;
    this.#release(from, this.#cCap[c]);
    this.#cStart[c] = to;
    this.#cCap[c] = cap;
  }

  /** Makes sure `#alloc(cap)` finds room: compacts when a quarter of the arena is free ranges, else grows it. */
  #makeRoom(cap: number): void {
    const room = this.#a.length / E;
    if (this.#aFree.get(cap)?.length || this.#aEnd + cap <= room) return;
    if (this.#aWaste * 4 > this.#aEnd) this.#compact();
    if (this.#aEnd + cap <= this.#a.length / E) return;
    this.#a = growF64(this.#a, E * Math.max(1024, this.#aEnd + cap, Math.ceil(room * 1.25)));
    this.#ai = new Int32Array(this.#a.buffer);
  }

  #alloc(cap: number): number {
    const free = this.#aFree.get(cap);
    if (free?.length) {
      this.#aWaste -= cap;
      return free.pop()!;
    }
    this.#makeRoom(cap);
    const p = this.#aEnd;
    this.#aEnd += cap;
    return p;
  }

  #release(start: number, cap: number): void {
    if (cap === 0) return;
    let free = this.#aFree.get(cap);
    if (!free) this.#aFree.set(cap, free = []);
    free.push(start);
    this.#aWaste += cap;
  }

  /** Rewrites the arena in block order, each cell with room for a quarter more members. */
  #compact(): void {
    let total = 0;
    for (const b of this.#blockOf.values()) {
      for (let i = 0; i < BLOCK_CELLS; i++) {
        const c = this.#bCells[b * BLOCK_CELLS + i];
        if (c >= 0) total += capClass(this.#cCount[c] + (this.#cCount[c] >> 2) + 1);
      }
    }
    const a = new Float64Array(E * Math.max(1024, Math.ceil(total * 1.25))), ai = new Int32Array(a.buffer);
    let at = 0;
    for (const b of this.#blockOf.values()) {
      for (let i = 0; i < BLOCK_CELLS; i++) {
        const c = this.#bCells[b * BLOCK_CELLS + i];
        if (c < 0) continue;
        const from = this.#cStart[c], n = this.#cCount[c];
        a.set(this.#a.subarray(from * E, (from + n) * E), at * E);
        for (let k = 0; k < n; k++) this.#pos[ai[(at + k) * IE + I_SLOT]] = at + k;
        this.#cStart[c] = at;
        this.#cCap[c] = capClass(n + (n >> 2) + 1);
        at += this.#cCap[c];
      }
    }
    this.#a = a;
    this.#ai = ai;
    this.#aEnd = at;
    this.#aFree.clear();
    this.#aWaste = 0;
  }

  /** Drops members whose shown position expired at `t` (memory only; reads filter anyway). */
  purgeExpired(t: number): void {
    const stale: number[] = [];
    for (let s = 0; s < this.#sectorName.length; s++) {
      if (this.#sCount[s] > 0 && this.#sMinUntil[s] <= t) stale.push(s);
    }
    if (stale.length === 0) return;
    const minUntil = new Map<number, number>(), tsUpdated = new Map<number, number>();
    for (const s of stale) {
      minUntil.set(s, Infinity);
      tsUpdated.set(s, 0);
    }
    for (let slot = 0; slot < this.#slotEnd; slot++) {
      if (this.#idt.ids[slot] === undefined) continue;
      const s = this.#sec[slot];
      const min = minUntil.get(s);
      if (min === undefined) continue;
      const p = this.#pos[slot], until = this.#a[p * E + UNTIL];
      if (until <= t) {
        this.#detach(slot);
        this.#freeSlot(slot); // its version goes with it
      } else {
        if (until < min) minUntil.set(s, until);
        const ts = this.tsAt(p);
        if (ts > tsUpdated.get(s)!) tsUpdated.set(s, ts);
      }
    }
    for (const s of stale) {
      this.#sMinUntil[s] = minUntil.get(s)!;
      this.#sTs[s] = tsUpdated.get(s)!;
    }
  }

  /**
   * The `need` members nearest to (lat, lon) inside `region`, unexpired at `t`, accepted by
   * `accept`, in (distance, id) order, as arena positions (`idAt` and the like read them);
   * `self` (a slot, or -1) is left out. See the module comment for the search.
   */
  search(
    lat: number,
    lon: number,
    region: Region,
    need: number,
    t: number,
    self: number,
    accept: ((profileId: string) => boolean) | null,
  ): TopK {
    const ids = this.#idt.ids;
    const arena = this.#a;
    const cStart = this.#cStart, cCount = this.#cCount, cRow = this.#cRow, cCol = this.#cCol;
    const bId = this.#bId, bCount = this.#bCount, bCells = this.#bCells, blockOf = this.#blockOf;
    const cosQ = Math.cos(lat * RAD), sinQ = Math.sin(lat * RAD);
    const arenaI = this.#ai;
    const top = new TopK(need, (p) => ids[arenaI[p * IE + I_SLOT]]!);
    // Nodes: a block as its index b >= 0, a cell c as -1 - c.
    const heap = new NodeHeap<number>();
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

    const blockLatMin = (b: number) => -90 + Math.floor(bId[b] / BLOCK_COLS) * BLOCK_DEG;
    const blockLonMin = (b: number) => -180 + (bId[b] % BLOCK_COLS) * BLOCK_DEG;
    const pushBlock = (b: number) =>
      heap.push(boxLowerBound(lat, qLon, cosQ, blockLatMin(b), blockLonMin(b), BLOCK_DEG), b);
    const visitBlock = (r: number, c: number) => {
      const b = blockOf.get(r * BLOCK_COLS + ((c % BLOCK_COLS) + BLOCK_COLS) % BLOCK_COLS);
      if (b !== undefined) pushBlock(b);
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
    const relation = (latMin: number, lonMin: number, size: number): number => {
      const latMax = latMin + size;
      if (latMax < region.latMin || latMin > region.latMax) return 0;
      let e = lonMin - region.lonMin;
      if (e < 0) e += 360;
      else if (e >= 360) e -= 360;
      if (e > regionW && e + size < 360) return 0;
      return latMin > region.latMin && latMax < region.latMax && e > 0 && e + size < regionW ? 2 : 1;
    };

    // A cell's members into the answer (`inside`: the cell lies strictly inside the region), or,
    // when `flat` is given, every one of them into it unordered.
    let flat: { a: Float64Array; m: Int32Array; n: number } | null = null;
    const scanCell = (c: number, inside: boolean) => {
      const start = cStart[c], end = start + cCount[c];
      for (let p = start; p < end; p++) {
        const e = p * E;
        if (arena[e + UNTIL] <= t) continue;
        const slot = arenaI[p * IE + I_SLOT];
        if (slot === self) continue;
        const mLat = arena[e + LAT], mLon = arena[e + LON];
        if (!inside && !region.test(mLat, mLon, slot)) continue;
        const a = haversineA(lat, lon, cosQ, sinQ, mLat, mLon);
        if (flat === null && top.full && !top.beats(a, p)) continue;
        if (accept !== null && !accept(ids[slot]!)) continue;
        if (flat === null) {
          top.push(a, p);
        } else {
          flat.a[flat.n] = a;
          flat.m[flat.n++] = p;
        }
      }
    };

    // A small region holding few members against the answer (a city's map view): every member in
    // it, sorted once, costs less than ordering its cells by distance.
    const regionBlocks = (brMax - brMin + 1) * (bcMax - bcMin + 1);
    if (regionBlocks <= FLAT_MAX_BLOCKS) {
      const blocks: number[] = [];
      let held = 0;
      const tiles = this.#tiles;
      for (let r = brMin; r <= brMax; r++) {
        const tileRow = (r >> TILE_SHIFT) * TILE_COLS, rowInTile = (r & TILE_MASK) * TILE_SIDE;
        let tileKey = -1, tile: Int32Array | undefined;
        for (let c = bcMin; c <= bcMax; c++) {
          const col = ((c % BLOCK_COLS) + BLOCK_COLS) % BLOCK_COLS;
          const key = tileRow + (col >> TILE_SHIFT);
          if (key !== tileKey) (tileKey = key, tile = tiles.get(key));
          if (tile === undefined) continue;
          const b = tile[rowInTile + (col & TILE_MASK)];
          if (b < 0) continue;
          blocks.push(b);
          held += bCount[b];
        }
      }
      if (held <= FLAT_MAX_FACTOR * need) {
        if (flatA.length < held) (flatA = new Float64Array(2 * held), flatM = new Int32Array(2 * held));
        flat = { a: flatA, m: flatM, n: 0 };
        // A region within one turn of longitude is placed by cell rows and columns: cellRow and
        // cellCol never decrease with lat and lon, so a cell beyond the edges' cells is outside
        // and one strictly between them inside (no member test).
        const byCells = region.lonMin >= -180 && region.lonMax <= 179;
        const crMin = cellRow(region.latMin), crMax = cellRow(region.latMax);
        const ccMin = byCells ? cellCol(region.lonMin) : 0, ccMax = byCells ? cellCol(region.lonMax) : 0;
        for (const b of blocks) {
          const rel = relation(blockLatMin(b), blockLonMin(b), BLOCK_DEG);
          if (rel === 0) continue;
          for (let i = 0; i < BLOCK_CELLS; i++) {
            const c = bCells[b * BLOCK_CELLS + i];
            if (c < 0) continue;
            let cellRel = rel;
            if (rel === 1) {
              if (byCells) {
                const r = cRow[c], col = cCol[c];
                if (r < crMin || r > crMax || col < ccMin || col > ccMax) continue;
                cellRel = r > crMin && r < crMax && col > ccMin && col < ccMax ? 2 : 1;
              } else {
                cellRel = relation(-90 + cRow[c] * CELL_DEG, -180 + cCol[c] * CELL_DEG, CELL_DEG);
                if (cellRel === 0) continue;
              }
            }
            scanCell(c, cellRel === 2);
          }
        }
        return TopK.sorted(flat.a, flat.m, flat.n, need, top.idOf);
      }
    }

    let k = kStart - 1;
    let ringLb = k < 0 ? 0 : ringBound(k);
    // A region with far more blocks than the index holds (a world-wide box, an empty area): take
    // the occupied blocks from the map instead of walking rings of mostly empty ones.
    if (regionBlocks > 4 * blockOf.size + 1024) {
      for (const b of blockOf.values()) {
        if (relation(blockLatMin(b), blockLonMin(b), BLOCK_DEG) > 0) pushBlock(b);
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
      if (node >= 0) {
        const inside = relation(blockLatMin(node), blockLonMin(node), BLOCK_DEG) === 2;
        for (let i = 0; i < BLOCK_CELLS; i++) {
          const c = bCells[node * BLOCK_CELLS + i];
          if (c < 0) continue;
          const cLat = -90 + cRow[c] * CELL_DEG, cLon = -180 + cCol[c] * CELL_DEG;
          if (inside || relation(cLat, cLon, CELL_DEG) > 0) {
            heap.push(boxLowerBound(lat, qLon, cosQ, cLat, cLon, CELL_DEG), -1 - c);
          }
        }
        continue;
      }
      const c = -1 - node;
      scanCell(c, relation(-90 + cRow[c] * CELL_DEG, -180 + cCol[c] * CELL_DEG, CELL_DEG) === 2);
    }
    return top.sortInPlace();
  }

  // --- snapshot columns

  /** The members as columns in block and cell order (snapshot.ts writes them as they are). */
  toColumns(): IndexColumns {
    const n = this.#idt.size;
    const cols: IndexColumns = {
      ids: new Array(n),
      lat: new Float64Array(n),
      lon: new Float64Array(n),
      ts: new Float64Array(n),
      until: new Float64Array(n),
      sector: new Int32Array(n),
      sectors: this.#sectorName.slice(),
    };
    let at = 0;
    for (const b of this.#blockOf.values()) {
      for (let i = 0; i < BLOCK_CELLS; i++) {
        const c = this.#bCells[b * BLOCK_CELLS + i];
        if (c < 0) continue;
        const from = this.#cStart[c], count = this.#cCount[c];
        for (let p = from; p < from + count; p++, at++) {
          const e = p * E, slot = this.#ai[p * IE + I_SLOT];
          cols.lat[at] = this.#a[e + LAT];
          cols.lon[at] = this.#a[e + LON];
          cols.ts[at] = this.tsAt(p);
          cols.until[at] = this.#a[e + UNTIL];
          cols.ids[at] = this.#idt.ids[slot];
          cols.sector[at] = this.#sec[slot];
        }
      }
    }
    return cols;
  }

  /**
   * An index of the columns' members unexpired at `t`, each at its version (`versions`) or else
   * at `vs`. The columns' arrays are taken over, not copied (`ids` becomes the index's own). Rows
   * in cell order (as `toColumns` gives them) fill the arena in one pass, each row's slot its row;
   * other rows are put in block and cell order first (a sort of their cell keys), so a member's
   * neighbours are its neighbours in memory too. An id in two rows (which no snapshot holds) is
   * applied member by member, the newer version winning.
   */
  static fromColumns(cols: IndexColumns, t: number, vs: string): PositionIndex {
    const first = new PositionIndex();
    if (first.#loadColumns(cols, t, vs)) return first;
    const sorted = inCellOrder(cols);
    const second = new PositionIndex();
    if (second.#loadColumns(sorted, t, vs)) return second;
    const again = new PositionIndex();
    for (let i = 0; i < sorted.ids.length; i++) {
      const id = sorted.ids[i];
      if (id === undefined || sorted.until[i] <= t) continue;
      again.apply(
        {
          p: id,
          s: sorted.sectors[sorted.sector[i]],
          lat: sorted.lat[i],
          lon: sorted.lon[i],
          ts: sorted.ts[i],
          u: sorted.until[i],
        },
        sorted.versions?.[i] ?? vs,
      );
    }
    return again;
  }

  /** The one-pass load of `fromColumns`; false (the index half built) when the rows are not in cell order. */
  #loadColumns(cols: IndexColumns, t: number, vs: string): boolean {
    const n = cols.ids.length;
    const ids = cols.ids;
    const sectorIds = cols.sectors.map((s) => this.#intern(s));
    const idt = this.#idt;
    idt.adopt(ids, n);
    this.#vers = cols.versions ?? new Array(n).fill(vs);
    this.#slotEnd = n;
    this.#growSlots(Math.max(1024, n));
    const size = Math.max(1024, n + (n >> 3));
    this.#a = new Float64Array(E * size);
    this.#ai = new Int32Array(this.#a.buffer);
    const { lat: cLat, lon: cLon, ts: cTs, until: cUntil, sector: cSector } = cols;
    const pos = this.#pos, cellOf = this.#cellOf, sec = this.#sec;
    const sCount = this.#sCount, sMinUntil = this.#sMinUntil, sTs = this.#sTs;
    let p = 0, cellKey = -1, c = -1, b = -1;
    for (let i = 0; i < n; i++) {
      const id = ids[i], until = cUntil[i];
      if (id === undefined || !(until > t)) {
        ids[i] = undefined;
        this.#vers[i] = undefined;
        this.#freeSlots.push(i);
        continue;
      }
      if (!idt.add(id, i)) return false; // the same id twice
      const lat = cLat[i], lon = cLon[i];
      const row = cellRow(lat), col = cellCol(lon);
      const key = row * CELL_COLS + col;
      if (key !== cellKey) {
        if (c >= 0) this.#cCap[c] = this.#cCount[c];
        const bid = (row >> BLOCK_SHIFT) * BLOCK_COLS + (col >> BLOCK_SHIFT);
        b = this.#blockOf.get(bid) ?? this.#newBlock(bid);
        const inBlock = (row & BLOCK_MASK) * BLOCK_SIDE + (col & BLOCK_MASK);
        if (this.#bCells[b * BLOCK_CELLS + inBlock] >= 0) return false; // not in cell order
        c = this.#newCell(b, row, col, inBlock, 0);
        this.#cStart[c] = p;
        cellKey = key;
      }
      this.#cCount[c]++;
      this.#bCount[b]++;
      const ts = cTs[i], s = sectorIds[cSector[i]];
      this.#put(p, lat, lon, until, ts, i);
      pos[i] = p;
      cellOf[i] = c;
      sec[i] = s;
      if (sCount[s]++ === 0) {
        sMinUntil[s] = Infinity;
        sTs[s] = 0;
      }
      if (until < sMinUntil[s]) sMinUntil[s] = until;
      if (ts > sTs[s]) sTs[s] = ts;
      p++;
    }
    if (c >= 0) this.#cCap[c] = this.#cCount[c];
    this.#aEnd = p;
    this.#freeSlots.reverse(); // the lowest free slot first
    return true;
  }
}
