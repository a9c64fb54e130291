/**
 * The nearest search where members are dense: square rings around the viewer walked outwards,
 * each ring's cells read unless their lower bound is past the answer's farthest, until the answer
 * is full and nearer than anything outside the rings walked. Rings of cells where the viewer's
 * block holds at least the answer (a crowded city: the answer lies within a few cells), else rings
 * of blocks, nearest block first (a town: it lies a block or more away). No heap: a cell's lower
 * bound is the larger of its row's and its column's gap to the viewer, each computed once a query,
 * and blocks are found through the few tiles around the viewer. Where the first rings hold too few
 * members to fill the answer, it gives way to the best-first search (nearest.ts) before reading
 * further.
 */

import { METERS_PER_DEGREE } from "../../domain/geo.ts";
import type { TopK } from "./heaps.ts";
import { aToMeters, LB_SAFETY, lonGapMeters } from "./geoMath.ts";
import {
  BLOCK_CELLS,
  BLOCK_COLS,
  BLOCK_DEG,
  BLOCK_MASK,
  BLOCK_ROWS,
  BLOCK_SHIFT,
  BLOCK_SIDE,
  CELL_DEG,
  CELL_ROWS,
  cellCol,
  cellRow,
  TILE_COLS,
  TILE_MASK,
  TILE_SHIFT,
  TILE_SIDE,
} from "./grid.ts";
import type { Query } from "./search.ts";

/** Rings of blocks walked at most (ring k: the blocks k rows or columns from the viewer's). */
export const MAX_BLOCK_RINGS = 6;
/** Rings of cells walked at most (within the blocks of MAX_BLOCK_RINGS). */
export const MAX_CELL_RINGS = 6;
/** Cell offsets from the viewer's cell that the gaps cover, either way. */
const REACH = (MAX_BLOCK_RINGS + 2) * BLOCK_SIDE;
/** Ring blocks' place, as (row offset + MAX_BLOCK_RINGS) * RING_W + column offset + MAX_BLOCK_RINGS. */
const RING_W = 2 * MAX_BLOCK_RINGS + 1;

// Per query, reused (searches run one at a time): the gaps (metres) to cell rows and columns by
// offset from the viewer's + REACH, NaN until computed; the 3 x 3 tiles around the viewer's
// (undefined until looked up, null: none); a ring's blocks nearest first.
const rowGap = new Float64Array(2 * REACH + 1);
const colGap = new Float64Array(2 * REACH + 1);
const tileNear: (Int32Array | null | undefined)[] = new Array(9);
const ringBlocks = new Int32Array(8 * MAX_BLOCK_RINGS);
const ringAt = new Int32Array(8 * MAX_BLOCK_RINGS);
const ringLb = new Float64Array(8 * MAX_BLOCK_RINGS);

/**
 * The answer of query `q` in (distance, id) order, or null (the answer left empty) when the rings
 * would not hold it: then the best-first search answers.
 */
export function nearestByRings(q: Query): TopK | null {
  const { lat, cosQ, qLon, top, need, relation, scanCell } = q;
  const { bCells, bCount, tiles } = q.view;
  const r0 = cellRow(lat), c0 = cellCol(qLon);
  if (relation(-90 + r0 * CELL_DEG, -180 + c0 * CELL_DEG, CELL_DEG) === 0) return null;
  const br0 = r0 >> BLOCK_SHIFT, bc0 = c0 >> BLOCK_SHIFT;
  const tr0 = br0 >> TILE_SHIFT, tc0 = bc0 >> TILE_SHIFT;
  const rowLatMin = -90 + r0 * CELL_DEG, colLonMin = -180 + c0 * CELL_DEG;
  rowGap.fill(NaN);
  colGap.fill(NaN);
  rowGap[REACH] = colGap[REACH] = 0;
  tileNear.fill(undefined);

  /** The gap to the cell row `d` rows from the viewer's (Infinity past a pole), shrunk by LB_SAFETY. */
  const rowGapAt = (d: number): number => {
    let g = rowGap[REACH + d];
    if (g !== g) {
      const r = r0 + d;
      g = r < 0 || r >= CELL_ROWS
        ? Infinity
        : (d > 0 ? rowLatMin + d * CELL_DEG - lat : lat - (rowLatMin + (d + 1) * CELL_DEG)) * METERS_PER_DEGREE *
          LB_SAFETY;
      rowGap[REACH + d] = g;
    }
    return g;
  };
  /** The gap to the cell column `d` columns from the viewer's, shrunk by LB_SAFETY. */
  const colGapAt = (d: number): number => {
    let g = colGap[REACH + d];
    if (g !== g) {
      g = lonGapMeters(cosQ, d > 0 ? colLonMin + d * CELL_DEG - qLon : qLon - (colLonMin + (d + 1) * CELL_DEG)) *
        LB_SAFETY;
      colGap[REACH + d] = g;
    }
    return g;
  };
  /** The block at block row `br` and (unwrapped) column `bcu`, or -1, through the tiles near the viewer's. */
  const blockAt = (br: number, bcu: number): number => {
    if (br < 0 || br >= BLOCK_ROWS) return -1;
    const near = ((br >> TILE_SHIFT) - tr0 + 1) * 3 + (bcu >> TILE_SHIFT) - tc0 + 1;
    let tile = tileNear[near];
    if (tile === undefined) {
      const bc = bcu < 0 ? bcu + BLOCK_COLS : bcu >= BLOCK_COLS ? bcu - BLOCK_COLS : bcu;
      tile = tiles.get((br >> TILE_SHIFT) * TILE_COLS + (bc >> TILE_SHIFT)) ?? null;
      tileNear[near] = tile;
    }
    return tile === null ? -1 : tile[(br & TILE_MASK) * TILE_SIDE + (bcu & TILE_MASK)];
  };
  // Every block walked lies inside the region when the square of its rings 0..MAX_BLOCK_RINGS does.
  const allInside = relation(
    -90 + (br0 - MAX_BLOCK_RINGS) * BLOCK_DEG,
    -180 + (bc0 - MAX_BLOCK_RINGS) * BLOCK_DEG,
    RING_W * BLOCK_DEG,
  ) === 2;
  let worstA = -1, worstM = Infinity;
  /** The answer's farthest distance (metres), once it is full. */
  const worst = () => {
    if (top.a[0] !== worstA) {
      worstA = top.a[0];
      worstM = aToMeters(worstA);
    }
    return worstM;
  };
  /** Reads cell c at offset (dr, dc) from the viewer's; `rel` is its block's relation to the region. */
  const readCell = (c: number, dr: number, dc: number, rel: number) => {
    if (rel === 0) return;
    if (rel === 1) {
      rel = relation(rowLatMin + dr * CELL_DEG, colLonMin + dc * CELL_DEG, CELL_DEG);
      if (rel === 0) return;
    }
    scanCell(c, rel === 2, null);
  };
  /** Anything outside rings 0..k of cells (`unit` 1) or blocks (`unit` BLOCK_SIDE) is at least this far. */
  const outside = (k: number, unit: number) => {
    const dr = unit === 1 ? k + 1 : ((br0 + k + 1) << BLOCK_SHIFT) - r0;
    const ds = unit === 1 ? -k - 1 : ((br0 - k) << BLOCK_SHIFT) - 1 - r0;
    const dc = unit === 1 ? k + 1 : ((bc0 + k + 1) << BLOCK_SHIFT) - c0;
    const dw = unit === 1 ? -k - 1 : ((bc0 - k) << BLOCK_SHIFT) - 1 - c0;
    return Math.min(rowGapAt(dr), rowGapAt(ds), colGapAt(dc), colGapAt(dw));
  };
  /** Whether rings 0..k, holding the answer so far, would not fill it by the last ring at this density. */
  const tooSparse = (k: number, last: number) => top.a.length * ((last + 0.5) / (k + 0.5)) ** 2 < need;

  const b0 = blockAt(br0, bc0);
  if (b0 >= 0 && bCount[b0] >= need) {
    // Rings of cells, each from its middle to its corners (nearest first, about).
    const visit = (dr: number, dc: number) => {
      const rg = rowGapAt(dr), cg = colGapAt(dc);
      if (top.full && (rg > cg ? rg : cg) > worst()) return;
      const r = r0 + dr, cu = c0 + dc;
      const b = blockAt(r >> BLOCK_SHIFT, cu >> BLOCK_SHIFT);
      if (b < 0) return;
      const c = bCells[b * BLOCK_CELLS + (r & BLOCK_MASK) * BLOCK_SIDE + (cu & BLOCK_MASK)];
      if (c >= 0) {
        readCell(
          c,
          dr,
          dc,
          allInside
            ? 2
            : relation(-90 + (r >> BLOCK_SHIFT) * BLOCK_DEG, -180 + (cu >> BLOCK_SHIFT) * BLOCK_DEG, BLOCK_DEG),
        );
      }
    };
    visit(0, 0);
    for (let k = 1; k <= MAX_CELL_RINGS; k++) {
      visit(-k, 0), visit(k, 0), visit(0, -k), visit(0, k);
      for (let d = 1; d < k; d++) {
        visit(-k, -d), visit(-k, d), visit(k, -d), visit(k, d);
        visit(-d, -k), visit(d, -k), visit(-d, k), visit(d, k);
      }
      visit(-k, -k), visit(-k, k), visit(k, -k), visit(k, k);
      if (top.full ? outside(k, 1) > worst() : false) return top.sortInPlace();
      if (!top.full && tooSparse(k, MAX_CELL_RINGS)) break;
    }
    top.clear();
    return null;
  }

  // Rings of blocks, each ring's blocks nearest first, each block's cells in order.
  const readBlock = (b: number, dbr: number, dbc: number) => {
    let rel = 2;
    if (!allInside) {
      rel = relation(-90 + (br0 + dbr) * BLOCK_DEG, -180 + (bc0 + dbc) * BLOCK_DEG, BLOCK_DEG);
      if (rel === 0) return;
    }
    const rowOff = ((br0 + dbr) << BLOCK_SHIFT) - r0, colOff = ((bc0 + dbc) << BLOCK_SHIFT) - c0;
    for (let i = 0; i < BLOCK_CELLS; i++) {
      const c = bCells[b * BLOCK_CELLS + i];
      if (c < 0) continue;
      const dr = rowOff + (i >> BLOCK_SHIFT), dc = colOff + (i & BLOCK_MASK);
      if (top.full) {
        const rg = rowGapAt(dr), cg = colGapAt(dc);
        if ((rg > cg ? rg : cg) > worst()) continue;
      }
      readCell(c, dr, dc, rel);
    }
  };
  // The offsets of a block's nearest cell row and column to the viewer's cell, by block offset.
  const nearRow = (dbr: number) =>
    dbr > 0 ? ((br0 + dbr) << BLOCK_SHIFT) - r0 : dbr < 0 ? ((br0 + dbr + 1) << BLOCK_SHIFT) - 1 - r0 : 0;
  const nearCol = (dbc: number) =>
    dbc > 0 ? ((bc0 + dbc) << BLOCK_SHIFT) - c0 : dbc < 0 ? ((bc0 + dbc + 1) << BLOCK_SHIFT) - 1 - c0 : 0;
  let n = 0;
  /** Adds the block at offset (dbr, dbc) to the ring's, in order of its lower bound. */
  const add = (dbr: number, dbc: number) => {
    const rg = rowGapAt(nearRow(dbr)), cg = colGapAt(nearCol(dbc));
    const lb = rg > cg ? rg : cg;
    if (top.full && lb > worst()) return;
    const b = blockAt(br0 + dbr, bc0 + dbc);
    if (b < 0) return;
    let j = n++;
    for (; j > 0 && ringLb[j - 1] > lb; j--) {
      ringLb[j] = ringLb[j - 1];
      ringBlocks[j] = ringBlocks[j - 1];
      ringAt[j] = ringAt[j - 1];
    }
    ringLb[j] = lb;
    ringBlocks[j] = b;
    ringAt[j] = (dbr + MAX_BLOCK_RINGS) * RING_W + dbc + MAX_BLOCK_RINGS;
  };
  if (b0 >= 0) readBlock(b0, 0, 0);
  for (let k = 1; k <= MAX_BLOCK_RINGS; k++) {
    n = 0;
    for (let d = -k; d <= k; d++) add(-k, d), add(k, d);
    for (let d = 1 - k; d < k; d++) add(d, -k), add(d, k);
    for (let j = 0; j < n; j++) {
      if (top.full && ringLb[j] > worst()) break;
      const at = ringAt[j];
      readBlock(ringBlocks[j], Math.floor(at / RING_W) - MAX_BLOCK_RINGS, at % RING_W - MAX_BLOCK_RINGS);
    }
    if (top.full ? outside(k, BLOCK_SIDE) > worst() : false) return top.sortInPlace();
    if (!top.full && tooSparse(k, MAX_BLOCK_RINGS)) break;
  }
  top.clear();
  return null;
}
