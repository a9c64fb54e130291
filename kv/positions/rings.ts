/**
 * The nearest search where members are dense: square rings of blocks around the viewer's block,
 * walked outwards, each occupied block's cells read unless their lower bound is past the answer's
 * farthest, until the answer is full and nearer than anything outside the rings walked. No heap:
 * a cell's lower bound is the larger of its row's and its column's gap to the viewer, each
 * computed once a query. Where the first rings hold too few members to fill the answer within
 * `MAX_RINGS`, it gives way to the best-first search (nearest.ts) before reading further.
 */

import { METERS_PER_DEGREE } from "../../domain/geo.ts";
import type { TopK } from "./heaps.ts";
import { aToMeters, LB_SAFETY, lonGapMeters } from "./geoMath.ts";
import {
  BLOCK_CELLS,
  BLOCK_COLS,
  BLOCK_DEG,
  BLOCK_ROWS,
  BLOCK_SHIFT,
  BLOCK_SIDE,
  CELL_DEG,
  cellCol,
  cellRow,
} from "./grid.ts";
import type { Query } from "./search.ts";

/** Rings of blocks walked at most (ring k: the blocks k rows or columns from the viewer's). */
export const MAX_RINGS = 3;
/** Cell offsets from the viewer's cell that the walk's gaps cover, either way. */
const REACH = (MAX_RINGS + 2) * BLOCK_SIDE;

// Per query, reused (searches run one at a time): the gaps (metres) to cell rows and columns by
// offset from the viewer's + REACH, NaN until computed; the blocks of a ring and their bounds.
const rowGap = new Float64Array(2 * REACH + 1);
const colGap = new Float64Array(2 * REACH + 1);
const ringBlocks = new Int32Array(8 * MAX_RINGS);
const ringAt = new Int32Array(8 * MAX_RINGS);
const ringLb = new Float64Array(8 * MAX_RINGS);

/**
 * The answer of query `q` in (distance, id) order, or null (the answer left empty) when the rings
 * would not hold it: then the best-first search answers.
 */
export function nearestByRings(q: Query): TopK | null {
  const { lat, cosQ, qLon, top, need, relation, scanCell } = q;
  const { bCells, blockOf } = q.view;
  const r0 = cellRow(lat), c0 = cellCol(qLon);
  if (relation(-90 + r0 * CELL_DEG, -180 + c0 * CELL_DEG, CELL_DEG) === 0) return null;
  const br0 = r0 >> BLOCK_SHIFT, bc0 = c0 >> BLOCK_SHIFT;
  const rowLatMin = -90 + r0 * CELL_DEG, colLonMin = -180 + c0 * CELL_DEG;
  rowGap.fill(NaN);
  colGap.fill(NaN);
  rowGap[REACH] = colGap[REACH] = 0;
  /** The gap to the cell row `d` rows from the viewer's (Infinity past a pole), shrunk by LB_SAFETY. */
  const rowGapAt = (d: number): number => {
    let g = rowGap[REACH + d];
    if (g !== g) {
      const r = r0 + d;
      g = r < 0 || r >= BLOCK_ROWS * BLOCK_SIDE
        ? Infinity
        : (d > 0 ? rowLatMin + d * CELL_DEG - lat : lat - (rowLatMin + (d + 1) * CELL_DEG)) * METERS_PER_DEGREE *
          LB_SAFETY;
      rowGap[REACH + d] = g;
    }
    return g;
  };
  const colGapAt = (d: number): number => {
    let g = colGap[REACH + d];
    if (g !== g) {
      g = lonGapMeters(cosQ, d > 0 ? colLonMin + d * CELL_DEG - qLon : qLon - (colLonMin + (d + 1) * CELL_DEG)) *
        LB_SAFETY;
      colGap[REACH + d] = g;
    }
    return g;
  };
  // The offsets of a block's nearest row and column to the viewer's cell, by block offset.
  const nearRow = (dbr: number) =>
    dbr > 0 ? ((br0 + dbr) << BLOCK_SHIFT) - r0 : dbr < 0 ? ((br0 + dbr + 1) << BLOCK_SHIFT) - 1 - r0 : 0;
  const nearCol = (dbc: number) =>
    dbc > 0 ? ((bc0 + dbc) << BLOCK_SHIFT) - c0 : dbc < 0 ? ((bc0 + dbc + 1) << BLOCK_SHIFT) - 1 - c0 : 0;
  // Every block walked lies inside the region when the square of rings 0..MAX_RINGS does.
  const allInside = relation(
    -90 + (br0 - MAX_RINGS) * BLOCK_DEG,
    -180 + (bc0 - MAX_RINGS) * BLOCK_DEG,
    (2 * MAX_RINGS + 1) * BLOCK_DEG,
  ) === 2;
  let worstA = -1, worstM = Infinity;
  const worst = () => {
    if (top.a[0] !== worstA) {
      worstA = top.a[0];
      worstM = aToMeters(worstA);
    }
    return worstM;
  };
  /** Reads the block b at block offset (dbr, dbc), cell by cell. */
  const readBlock = (b: number, dbr: number, dbc: number) => {
    const rowOff = ((br0 + dbr) << BLOCK_SHIFT) - r0, colOff = ((bc0 + dbc) << BLOCK_SHIFT) - c0;
    let rel = 2;
    if (!allInside) {
      rel = relation(-90 + (br0 + dbr) * BLOCK_DEG, -180 + (bc0 + dbc) * BLOCK_DEG, BLOCK_DEG);
      if (rel === 0) return;
    }
    for (let i = 0; i < BLOCK_CELLS; i++) {
      const c = bCells[b * BLOCK_CELLS + i];
      if (c < 0) continue;
      const dr = rowOff + (i >> BLOCK_SHIFT), dc = colOff + (i & (BLOCK_SIDE - 1));
      if (top.full) {
        const rg = rowGapAt(dr), cg = colGapAt(dc);
        if ((rg > cg ? rg : cg) > worst()) continue;
      }
      let cellRel = rel;
      if (rel === 1) {
        cellRel = relation(rowLatMin + dr * CELL_DEG, colLonMin + dc * CELL_DEG, CELL_DEG);
        if (cellRel === 0) continue;
      }
      scanCell(c, cellRel === 2, null);
    }
  };
  const blockAt = (dbr: number, dbc: number): number => {
    const br = br0 + dbr;
    if (br < 0 || br >= BLOCK_ROWS) return -1;
    const bc = bc0 + dbc;
    return blockOf.get(br * BLOCK_COLS + (bc < 0 ? bc + BLOCK_COLS : bc >= BLOCK_COLS ? bc - BLOCK_COLS : bc)) ?? -1;
  };

  const b0 = blockAt(0, 0);
  if (b0 >= 0) readBlock(b0, 0, 0);
  for (let k = 1;; k++) {
    // The ring's occupied blocks, nearest first (an insertion sort of at most 8k).
    let n = 0;
    const add = (dbr: number, dbc: number) => {
      const rg = rowGapAt(nearRow(dbr)), cg = colGapAt(nearCol(dbc));
      const lb = rg > cg ? rg : cg;
      if (top.full && lb > worst()) return;
      const b = blockAt(dbr, dbc);
      if (b < 0) return;
      let j = n++;
      while (j > 0 && ringLb[j - 1] > lb) {
        ringLb[j] = ringLb[j - 1];
        ringBlocks[j] = ringBlocks[j - 1];
        ringAt[j] = ringAt[j - 1];
        j--;
      }
      ringLb[j] = lb;
      ringBlocks[j] = b;
      ringAt[j] = (dbr + MAX_RINGS) * (2 * MAX_RINGS + 1) + dbc + MAX_RINGS;
    };
    for (let d = -k; d <= k; d++) {
      add(-k, d);
      add(k, d);
    }
    for (let d = 1 - k; d < k; d++) {
      add(d, -k);
      add(d, k);
    }
    for (let j = 0; j < n; j++) {
      if (top.full && ringLb[j] > worst()) break;
      const at = ringAt[j];
      readBlock(ringBlocks[j], Math.floor(at / (2 * MAX_RINGS + 1)) - MAX_RINGS, at % (2 * MAX_RINGS + 1) - MAX_RINGS);
    }
    // Anything outside rings 0..k is at least the nearest of the four sides' next rows and columns away.
    const outside = Math.min(
      rowGapAt(nearRow(k + 1)),
      rowGapAt(nearRow(-k - 1)),
      colGapAt(nearCol(k + 1)),
      colGapAt(nearCol(-k - 1)),
    );
    if (top.full) {
      if (outside > worst()) return top.sortInPlace();
    } else if (top.a.length * ((MAX_RINGS + 0.5) / (k + 0.5)) ** 2 < need) {
      break; // at this density the rings would not fill the answer
    }
    if (k === MAX_RINGS) break;
  }
  top.clear();
  return null;
}
