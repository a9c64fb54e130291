/**
 * The grid the index files members by, and the layout of an arena entry. A cell is 1/256 degree
 * (about 430 m) of latitude and longitude, rows from the south pole and columns from -180; a
 * block is 4 x 4 cells; a tile is 16 x 16 blocks (1/4 degree). An arena entry is 32 bytes: shown
 * lat and lon and expiry as doubles, and over the fourth double two Int32, the slot and the
 * expiry minus the report time.
 */

import { normalizeLon } from "../../domain/geo.ts";
import type { IndexColumns } from "./types.ts";

export const CELLS_PER_DEG = 256;
export const CELL_ROWS = 180 * CELLS_PER_DEG;
export const CELL_COLS = 360 * CELLS_PER_DEG;
export const BLOCK_SHIFT = 2;
export const BLOCK_SIDE = 1 << BLOCK_SHIFT;
export const BLOCK_MASK = BLOCK_SIDE - 1;
export const BLOCK_CELLS = BLOCK_SIDE * BLOCK_SIDE;
export const BLOCK_DEG = BLOCK_SIDE / CELLS_PER_DEG;
export const BLOCK_ROWS = 180 * CELLS_PER_DEG / BLOCK_SIDE;
export const BLOCK_COLS = 360 * CELLS_PER_DEG / BLOCK_SIDE;
export const TILE_SHIFT = 4;
export const TILE_SIDE = 1 << TILE_SHIFT;
export const TILE_MASK = TILE_SIDE - 1;
export const TILE_BLOCKS = TILE_SIDE * TILE_SIDE;
export const TILE_COLS = BLOCK_COLS / TILE_SIDE;
export const CELL_DEG = 1 / CELLS_PER_DEG;
/** An arena entry: its numbers, and how many. */
export const LAT = 0, LON = 1, UNTIL = 2, E = 4;
/** The entry's fourth number as two Int32: its slot, and its expiry minus its report time. */
export const I_SLOT = 6, I_DT = 7, IE = 2 * E;
/** An I_DT that stands for "the report time is in `#tsOther`" (not an exact Int32 difference). */
export const DT_OTHER = -0x80000000;

/** The smallest arena capacity class (1, 2, 3, 4, 6, 8, 12, 16, ...) of at least `n`. */
export function capClass(n: number): number {
  if (n <= 2) return Math.max(1, n);
  const p = 2 ** Math.floor(Math.log2(n));
  return n === p ? p : n <= p + p / 2 ? p + p / 2 : 2 * p;
}

export function growF64(a: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  return b;
}

export function growI32(a: Int32Array, n: number, fill = 0): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a.subarray(0, Math.min(a.length, n)));
  if (fill !== 0 && n > a.length) b.fill(fill, a.length);
  return b;
}

/** The cell row and column of a point (rows from the south pole, columns from -180). */
export function cellRow(lat: number): number {
  return Math.min(CELL_ROWS - 1, Math.floor((lat + 90) * CELLS_PER_DEG));
}
export function cellCol(lon: number): number {
  return Math.floor((normalizeLon(lon) + 180) * CELLS_PER_DEG) % CELL_COLS;
}

/** The tile of a block id and the block's place in it. */
export function tileOf(bid: number): [number, number] {
  const row = Math.floor(bid / BLOCK_COLS), col = bid % BLOCK_COLS;
  return [(row >> TILE_SHIFT) * TILE_COLS + (col >> TILE_SHIFT), (row & TILE_MASK) * TILE_SIDE + (col & TILE_MASK)];
}

/** The block-major cell key of a point: block id * 16 + cell in block (below 2^32). */
export function cellKeyOf(lat: number, lon: number): number {
  const row = cellRow(lat), col = cellCol(lon);
  return ((row >> BLOCK_SHIFT) * BLOCK_COLS + (col >> BLOCK_SHIFT)) * BLOCK_CELLS +
    (row & BLOCK_MASK) * BLOCK_SIDE + (col & BLOCK_MASK);
}

/** Columns of `n` rows for the caller to fill, sector numbers into `sectors`. */
export function newColumns(n: number, sectors: string[]): IndexColumns {
  return {
    ids: new Array(n),
    lat: new Float64Array(n),
    lon: new Float64Array(n),
    ts: new Float64Array(n),
    until: new Float64Array(n),
    sector: new Int32Array(n),
    sectors,
  };
}

/** The rows in block and cell order (stable): a native sort of the distinct cell keys, then a counting sort. */
export function inCellOrder(cols: IndexColumns): IndexColumns {
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
  const out = newColumns(n, cols.sectors);
  if (cols.versions) out.versions = new Array(n);
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
