/**
 * The nearest search where members are dense: square rings around the viewer walked outwards,
 * each ring's cells read unless their lower bound is past the answer's farthest, until the answer
 * is full and nearer than anything outside the rings walked. Rings of cells where the viewer's
 * block holds at least 1/CELL_RINGS_FROM of the answer (a city: the answer lies within a few
 * cells), in one loop over a table of each ring's blocks and their cells' bits (`byCellRings`,
 * decision 0296); else, or where they would not fill the answer, rings of blocks (a town: it lies
 * a block or more away), in one loop that reads only each block's occupied cells (`byBlockRings`). No heap of cells: a cell's lower bound is the
 * larger of its row's and its column's gap to the viewer, each computed once a query, and blocks
 * are found through the few tiles around the viewer. Where the first rings hold too few members to
 * fill the answer, it gives way to the best-first search (nearest.ts) before reading further. An
 * answer of more than MAX_CELL_NEED walks rings of blocks nearest first into a `TopK`.
 */

import { METERS_PER_DEGREE } from "../../domain/geo.ts";
import { TopK } from "./heaps.ts";
import { aToMeters, haversineA, LB_SAFETY, lonGapMeters } from "./geoMath.ts";
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
  E,
  I_SLOT,
  IE,
  LAT,
  LON,
  TILE_COLS,
  TILE_MASK,
  TILE_SHIFT,
  TILE_SIDE,
  UNTIL,
} from "./grid.ts";
import type { Query } from "./search.ts";

/** Rings of blocks walked at most (ring k: the blocks k rows or columns from the viewer's). */
export const MAX_BLOCK_RINGS = 6;
/** Rings of cells walked at most. */
export const MAX_CELL_RINGS = 12;
/**
 * Rings of cells are walked when the viewer's block holds at least the answer / CELL_RINGS_FROM
 * members (else rings of blocks by their bits), and the answer is at most MAX_CELL_NEED.
 */
const CELL_RINGS_FROM = 16, MAX_CELL_NEED = 256;
/** Cell offsets from the viewer's cell that the gaps cover, either way. */
const REACH = Math.max(MAX_BLOCK_RINGS + 2, MAX_CELL_RINGS + 2) * BLOCK_SIDE;
/** Ring blocks' place, as (row offset + MAX_BLOCK_RINGS) * RING_W + column offset + MAX_BLOCK_RINGS. */
const RING_W = 2 * MAX_BLOCK_RINGS + 1;

// Per query, reused (searches run one at a time): the gaps (metres) to cell rows and columns by
// offset from the viewer's + REACH (the rings of cells write each before they read it; the rings
// of blocks fill them with NaN first, then compute each when first read); a ring's blocks nearest
// first.
const rowGap = new Float64Array(2 * REACH + 1);
const colGap = new Float64Array(2 * REACH + 1);
const ringBlocks = new Int32Array(8 * MAX_BLOCK_RINGS);
const ringAt = new Int32Array(8 * MAX_BLOCK_RINGS);
const ringLb = new Float64Array(8 * MAX_BLOCK_RINGS);

/**
 * The blocks near the viewer's cell that its rings of cells reach, by block offset from the
 * viewer's block (row offset + NEAR_MID) * NEAR_SIDE + column offset + NEAR_MID (-2: not looked up
 * yet), and their occupied cells' bits (arena.ts `bMask`; 0: no block).
 */
const NEAR_MID = -(-MAX_CELL_RINGS >> BLOCK_SHIFT), NEAR_SIDE = 2 * NEAR_MID + 1;
const nearBlocks = new Int32Array(NEAR_SIDE * NEAR_SIDE);
const nearMasks = new Int32Array(NEAR_SIDE * NEAR_SIDE);

/**
 * Rings 0..max as offsets (row, column) from the middle, ring by ring, each ring from its middle
 * to its corners (nearest first, about); ring k ends at end[k].
 */
function ringTable(max: number): { dr: Int8Array; dc: Int8Array; end: Int32Array } {
  const size = (2 * max + 1) ** 2, dr = new Int8Array(size), dc = new Int8Array(size), end = new Int32Array(max + 1);
  let i = 0;
  const at = (r: number, c: number) => (dr[i] = r, dc[i++] = c);
  at(0, 0);
  end[0] = i;
  for (let k = 1; k <= max; k++) {
    at(-k, 0), at(k, 0), at(0, -k), at(0, k);
    for (let d = 1; d < k; d++) {
      at(-k, -d), at(-k, d), at(k, -d), at(k, d);
      at(-d, -k), at(d, -k), at(-d, k), at(d, k);
    }
    at(-k, -k), at(-k, k), at(k, -k), at(k, k);
    end[k] = i;
  }
  return { dr, dc, end };
}
/**
 * Rings of cells up to this one are read in the offsets' order (`ringTable`), a block's cells at
 * one distance together; further rings a block at a time. Where members are dense the answer fills
 * in the first rings, and reading a ring's cells nearest first there leaves more of its corners
 * unread; where they are sparse most of a ring's cells are empty, and a block's bits pass them all
 * at once.
 */
const ORDERED_RINGS = 2;
/**
 * Rings 0..MAX_CELL_RINGS of cells as the blocks they cross: for the viewer's cell at row vr and
 * column vc of its block and ring k, from entry START[((vr * BLOCK_SIDE + vc) * (MAX_CELL_RINGS + 1)
 * + k)] to the next, each block's offset from the viewer's (`nearBlocks`' place, its row and
 * column) and the bits of the ring's cells in it (see ORDERED_RINGS), in the order of their first
 * cell in the ring. A ring is read through its blocks' bits, so an empty cell costs a bit, not a
 * look-up of its block's cells.
 */
function ringBlockTable(): { start: Int32Array; near: Int8Array; dbr: Int8Array; dbc: Int8Array; bits: Int32Array } {
  const near: number[] = [], dbr: number[] = [], dbc: number[] = [], bits: number[] = [], start: number[] = [];
  const cellRings = ringTable(MAX_CELL_RINGS);
  for (let vr = 0; vr < BLOCK_SIDE; vr++) {
    for (let vc = 0; vc < BLOCK_SIDE; vc++) {
      for (let k = 0; k <= MAX_CELL_RINGS; k++) {
        start.push(near.length);
        // By block (and, in the first rings, squared offset): the cells' bits, and where the first
        // of them comes in the ring (`ringTable`: from its middles to its corners).
        const byBlock = new Map<number, { first: number; bits: number; r: number; c: number }>();
        for (let i = k === 0 ? 0 : cellRings.end[k - 1]; i < cellRings.end[k]; i++) {
          const dr = cellRings.dr[i], dc = cellRings.dc[i];
          const r = vr + dr, c = vc + dc, br = r >> BLOCK_SHIFT, bc = c >> BLOCK_SHIFT;
          const at = (br + NEAR_MID) * NEAR_SIDE + bc + NEAR_MID;
          const key = (k <= ORDERED_RINGS ? dr * dr + dc * dc : 0) * NEAR_SIDE * NEAR_SIDE + at;
          const e = byBlock.get(key) ?? { first: i, bits: 0, r: br, c: bc };
          e.bits |= 1 << ((r & BLOCK_MASK) * BLOCK_SIDE + (c & BLOCK_MASK));
          byBlock.set(key, e);
        }
        for (const [key, e] of [...byBlock].sort((x, y) => x[1].first - y[1].first)) {
          const at = key % (NEAR_SIDE * NEAR_SIDE);
          near.push(at), dbr.push(e.r), dbc.push(e.c), bits.push(e.bits);
        }
      }
    }
  }
  start.push(near.length);
  return {
    start: Int32Array.from(start),
    near: Int8Array.from(near),
    dbr: Int8Array.from(dbr),
    dbc: Int8Array.from(dbc),
    bits: Int32Array.from(bits),
  };
}
const { start: RB_START, near: RB_NEAR, dbr: RB_DBR, dbc: RB_DBC, bits: RB_BITS } = ringBlockTable();
/** The blocks of rings 0..MAX_BLOCK_RINGS around the viewer's. */
const { dr: BRING_DR, dc: BRING_DC, end: BRING_END } = ringTable(MAX_BLOCK_RINGS);

/** The rings of cells' answer so far: arena positions ascending by (a, id). */
const hA = new Float64Array(MAX_CELL_NEED), hM = new Int32Array(MAX_CELL_NEED);
/** The ids and arena of the search under way, for ties. */
let tieIds: (string | undefined)[] = [], tieArenaI: Int32Array = new Int32Array(0);
const tieId = (p: number) => tieIds[tieArenaI[p * IE + I_SLOT]]!;
/** The answer of n members, as a TopK. */
function answerOf(n: number, need: number, idOf: (m: number) => string): TopK {
  const a = new Array<number>(n), m = new Array<number>(n);
  for (let i = 0; i < n; i++) (a[i] = hA[i], m[i] = hM[i]);
  return new TopK(need, idOf, a, m);
}

/**
 * The gap (metres, shrunk by LB_SAFETY) from the viewer at `lat` in cell row r0 (whose south edge
 * is `rowLatMin`) to the cell row `d` rows away: Infinity past a pole.
 */
function rowGapOf(d: number, r0: number, lat: number, rowLatMin: number): number {
  const r = r0 + d;
  if (r < 0 || r >= CELL_ROWS) return Infinity;
  return (d > 0 ? rowLatMin + d * CELL_DEG - lat : lat - (rowLatMin + (d + 1) * CELL_DEG)) * METERS_PER_DEGREE *
    LB_SAFETY;
}
/** The gap (metres, shrunk by LB_SAFETY) from the viewer at `qLon` to the cell column `d` columns away. */
function colGapOf(d: number, cosQ: number, qLon: number, colLonMin: number): number {
  return lonGapMeters(cosQ, d > 0 ? colLonMin + d * CELL_DEG - qLon : qLon - (colLonMin + (d + 1) * CELL_DEG)) *
    LB_SAFETY;
}

/** The tiles near the viewer's (3 x 3 around it; undefined until looked up, null: none). */
const tileNear: (Int32Array | null | undefined)[] = new Array(9);
/**
 * The block at block row `br` and (unwrapped) column `bcu`, or -1, through the tiles around the
 * viewer's tile (tr0, tc0), each looked up once a query.
 */
function blockNear(tiles: Map<number, Int32Array>, br: number, bcu: number, tr0: number, tc0: number): number {
  if (br < 0 || br >= BLOCK_ROWS) return -1;
  const near = ((br >> TILE_SHIFT) - tr0 + 1) * 3 + (bcu >> TILE_SHIFT) - tc0 + 1;
  let tile = tileNear[near];
  if (tile === undefined) {
    const bc = bcu < 0 ? bcu + BLOCK_COLS : bcu >= BLOCK_COLS ? bcu - BLOCK_COLS : bcu;
    tile = tiles.get((br >> TILE_SHIFT) * TILE_COLS + (bc >> TILE_SHIFT)) ?? null;
    tileNear[near] = tile;
  }
  return tile === null ? -1 : tile[(br & TILE_MASK) * TILE_SIDE + (bcu & TILE_MASK)];
}

/**
 * Rings of cells around the viewer's cell (r0, c0), each read through the blocks it crosses
 * (`ringBlockTable`) with no call per cell or member: each ring's gaps computed as it ends, the
 * blocks looked up once each, the answer kept in order in typed arrays (members come nearly in
 * order, ring by ring). Its answer in (distance, id) order, or null when the rings would not hold it.
 */
function byCellRings(q: Query, r0: number, c0: number, tr0: number, tc0: number): TopK | null {
  const { lat, lon, cosQ, sinQ, qLon, need, t, self, accept, region, relation } = q;
  const { arena, arenaI, cStart, cCount, bCells, bMask, ids, tiles } = q.view;
  const rowLatMin = -90 + r0 * CELL_DEG, colLonMin = -180 + c0 * CELL_DEG;
  const allInside = relation(
    -90 + (r0 - MAX_CELL_RINGS) * CELL_DEG,
    -180 + (c0 - MAX_CELL_RINGS) * CELL_DEG,
    (2 * MAX_CELL_RINGS + 1) * CELL_DEG,
  ) === 2;
  const br0 = r0 >> BLOCK_SHIFT, bc0 = c0 >> BLOCK_SHIFT, vr = r0 & BLOCK_MASK, vc = c0 & BLOCK_MASK;
  const rings = (vr * BLOCK_SIDE + vc) * (MAX_CELL_RINGS + 1);
  nearBlocks.fill(-2);
  tieIds = ids;
  tieArenaI = arenaI;
  rowGap[REACH] = colGap[REACH] = 0;
  let n = 0, worstM = Infinity;
  for (let ring = 0; ring <= MAX_CELL_RINGS; ring++) {
    for (let x = RB_START[rings + ring], xEnd = RB_START[rings + ring + 1]; x < xEnd; x++) {
      const nb = RB_NEAR[x];
      let b = nearBlocks[nb];
      if (b === -2) {
        b = nearBlocks[nb] = blockNear(tiles, br0 + RB_DBR[x], bc0 + RB_DBC[x], tr0, tc0);
        nearMasks[nb] = b < 0 ? 0 : bMask[b];
      }
      let bits = nearMasks[nb] & RB_BITS[x];
      if (bits === 0) continue;
      let relB = 2;
      if (!allInside) {
        relB = relation(-90 + (br0 + RB_DBR[x]) * BLOCK_DEG, -180 + (bc0 + RB_DBC[x]) * BLOCK_DEG, BLOCK_DEG);
        if (relB === 0) continue;
      }
      const rowOff = (RB_DBR[x] << BLOCK_SHIFT) - vr, colOff = (RB_DBC[x] << BLOCK_SHIFT) - vc;
      for (; bits !== 0; bits &= bits - 1) {
        const bit = 31 - Math.clz32(bits & -bits);
        const dr = rowOff + (bit >> BLOCK_SHIFT), dc = colOff + (bit & BLOCK_MASK);
        if (n === need) {
          const rg = rowGap[REACH + dr], cg = colGap[REACH + dc];
          if ((rg > cg ? rg : cg) > worstM) continue;
        }
        let inside = relB === 2;
        if (!inside) {
          const rel = relation(rowLatMin + dr * CELL_DEG, colLonMin + dc * CELL_DEG, CELL_DEG);
          if (rel === 0) continue;
          inside = rel === 2;
        }
        // The cell's members, read as scanCell (search.ts) reads them, written out here: a call per
        // member (scanCell's closure, or one function both would share) measured slower in both searches.
        const c = bCells[b * BLOCK_CELLS + bit];
        const end = cStart[c] + cCount[c];
        for (let p = cStart[c]; p < end; p++) {
          const e = p * E;
          if (arena[e + UNTIL] <= t) continue;
          const slot = arenaI[p * IE + I_SLOT];
          if (slot === self) continue;
          const mLat = arena[e + LAT], mLon = arena[e + LON];
          if (!inside && !region.test(mLat, mLon, slot)) continue;
          const a = haversineA(lat, lon, cosQ, sinQ, mLat, mLon);
          const w = n - 1;
          if (n === need && (a > hA[w] || (a === hA[w] && !(ids[slot]! < tieId(hM[w]))))) continue;
          if (accept !== null && !accept(ids[slot]!)) continue;
          // Into its place in the answer (the worst dropped when it is full).
          let j = n < need ? n++ : w;
          for (; j > 0 && (hA[j - 1] > a || (hA[j - 1] === a && tieId(hM[j - 1]) > ids[slot]!)); j--) {
            hA[j] = hA[j - 1];
            hM[j] = hM[j - 1];
          }
          hA[j] = a;
          hM[j] = p;
          if (n === need) worstM = aToMeters(hA[n - 1]);
        }
      }
    }
    // Ring `ring` is read: the gaps one ring further bound everything outside it.
    const k = ring + 1;
    rowGap[REACH + k] = rowGapOf(k, r0, lat, rowLatMin);
    rowGap[REACH - k] = rowGapOf(-k, r0, lat, rowLatMin);
    colGap[REACH + k] = colGapOf(k, cosQ, qLon, colLonMin);
    colGap[REACH - k] = colGapOf(-k, cosQ, qLon, colLonMin);
    if (ring === 0) continue;
    if (n === need) {
      const outR = Math.min(rowGap[REACH + k], rowGap[REACH - k]);
      const outC = Math.min(colGap[REACH + k], colGap[REACH - k]);
      if ((outR < outC ? outR : outC) > worstM) return answerOf(n, need, q.top.idOf);
    } else if (n * ((MAX_CELL_RINGS + 0.5) / (ring + 0.5)) ** 2 < need) return null; // too sparse
  }
  return null;
}

/**
 * Rings of blocks around the viewer's block in one loop, each block's occupied cells only (its
 * bits), each cell unless its lower bound is past the answer's farthest; the answer kept in order
 * in typed arrays as in `byCellRings`. Its answer in (distance, id) order, or null when the rings
 * would not hold it.
 */
function byBlockRings(q: Query, r0: number, c0: number, tr0: number, tc0: number): TopK | null {
  const { lat, lon, cosQ, sinQ, qLon, need, t, self, accept, region, relation } = q;
  const { arena, arenaI, cStart, cCount, bCells, bMask, ids, tiles } = q.view;
  const rowLatMin = -90 + r0 * CELL_DEG, colLonMin = -180 + c0 * CELL_DEG;
  const br0 = r0 >> BLOCK_SHIFT, bc0 = c0 >> BLOCK_SHIFT;
  const allInside = relation(
    -90 + (br0 - MAX_BLOCK_RINGS) * BLOCK_DEG,
    -180 + (bc0 - MAX_BLOCK_RINGS) * BLOCK_DEG,
    RING_W * BLOCK_DEG,
  ) === 2;
  tieIds = ids;
  tieArenaI = arenaI;
  // The cell rows' and columns' gaps of block ring k's rows and columns, from its first cell's offset.
  const rowN = (k: number) => ((br0 + k) << BLOCK_SHIFT) - r0, rowS = (k: number) => ((br0 - k) << BLOCK_SHIFT) - r0;
  const colE = (k: number) => ((bc0 + k) << BLOCK_SHIFT) - c0, colW = (k: number) => ((bc0 - k) << BLOCK_SHIFT) - c0;
  const ringGaps = (k: number) => {
    for (let j = 0; j < BLOCK_SIDE; j++) {
      const n = rowN(k) + j, s = rowS(k) + j, e = colE(k) + j, w = colW(k) + j;
      rowGap[REACH + n] = n === 0 ? 0 : rowGapOf(n, r0, lat, rowLatMin);
      rowGap[REACH + s] = s === 0 ? 0 : rowGapOf(s, r0, lat, rowLatMin);
      colGap[REACH + e] = e === 0 ? 0 : colGapOf(e, cosQ, qLon, colLonMin);
      colGap[REACH + w] = w === 0 ? 0 : colGapOf(w, cosQ, qLon, colLonMin);
    }
  };
  /** The nearest possible distance of anything outside block rings 0..k (their next ring's gaps computed). */
  const outside = (k: number) => {
    const rN = rowGap[REACH + rowN(k + 1)], rS = rowGap[REACH + rowS(k + 1) + BLOCK_MASK];
    const cE = colGap[REACH + colE(k + 1)], cW = colGap[REACH + colW(k + 1) + BLOCK_MASK];
    const r = rN < rS ? rN : rS, c = cE < cW ? cE : cW;
    return r < c ? r : c;
  };
  ringGaps(0);
  // As in `byCellRings`: the answer so far in hA and hM, its farthest distance once it is full.
  let n = 0, worstM = Infinity, ring = 0;
  ringGaps(1);
  for (let i = 0; i < BRING_DR.length; i++) {
    if (i === BRING_END[ring]) {
      // Ring `ring` is read: the gaps one ring further bound everything outside it.
      if (n === need && outside(ring) > worstM) return answerOf(n, need, q.top.idOf);
      if (ring > 0 && n < need && n * ((MAX_BLOCK_RINGS + 0.5) / (ring + 0.5)) ** 2 < need) return null; // too sparse
      ring++;
      ringGaps(ring + 1);
    }
    const dbr = BRING_DR[i], dbc = BRING_DC[i];
    const rowOff = rowN(dbr), colOff = colE(dbc);
    if (n === need) {
      const rg = rowGap[REACH + (dbr > 0 ? rowOff : dbr < 0 ? rowOff + BLOCK_MASK : 0)];
      const cg = colGap[REACH + (dbc > 0 ? colOff : dbc < 0 ? colOff + BLOCK_MASK : 0)];
      if ((rg > cg ? rg : cg) > worstM) continue;
    }
    const b = blockNear(tiles, br0 + dbr, bc0 + dbc, tr0, tc0);
    if (b < 0) continue;
    let relB = 2;
    if (!allInside) {
      relB = relation(-90 + (br0 + dbr) * BLOCK_DEG, -180 + (bc0 + dbc) * BLOCK_DEG, BLOCK_DEG);
      if (relB === 0) continue;
    }
    for (let mask = bMask[b]; mask !== 0; mask &= mask - 1) {
      const bit = 31 - Math.clz32(mask & -mask);
      const dr = rowOff + (bit >> BLOCK_SHIFT), dc = colOff + (bit & BLOCK_MASK);
      if (n === need) {
        const rg = rowGap[REACH + dr], cg = colGap[REACH + dc];
        if ((rg > cg ? rg : cg) > worstM) continue;
      }
      let inside = relB === 2;
      if (!inside) {
        const rel = relation(rowLatMin + dr * CELL_DEG, colLonMin + dc * CELL_DEG, CELL_DEG);
        if (rel === 0) continue;
        inside = rel === 2;
      }
      // The cell's members, as `byCellRings` reads them, written out here as well: one function
      // a cell that both would call (its state beside the module's) measured about a sixth slower
      // on every peer point (tried while the walks ranked by chord, decision 0237).
      const c = bCells[b * BLOCK_CELLS + bit];
      const end = cStart[c] + cCount[c];
      for (let p = cStart[c]; p < end; p++) {
        const e = p * E;
        if (arena[e + UNTIL] <= t) continue;
        const slot = arenaI[p * IE + I_SLOT];
        if (slot === self) continue;
        const mLat = arena[e + LAT], mLon = arena[e + LON];
        if (!inside && !region.test(mLat, mLon, slot)) continue;
        const a = haversineA(lat, lon, cosQ, sinQ, mLat, mLon);
        const w = n - 1;
        if (n === need && (a > hA[w] || (a === hA[w] && !(ids[slot]! < tieId(hM[w]))))) continue;
        if (accept !== null && !accept(ids[slot]!)) continue;
        // Into its place in the answer (the worst dropped when it is full).
        let j = n < need ? n++ : w;
        for (; j > 0 && (hA[j - 1] > a || (hA[j - 1] === a && tieId(hM[j - 1]) > ids[slot]!)); j--) {
          hA[j] = hA[j - 1];
          hM[j] = hM[j - 1];
        }
        hA[j] = a;
        hM[j] = p;
        if (n === need) worstM = aToMeters(hA[n - 1]);
      }
    }
  }
  if (n === need && outside(MAX_BLOCK_RINGS) > worstM) return answerOf(n, need, q.top.idOf);
  return null;
}

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
  tileNear.fill(undefined);
  const b0 = blockNear(tiles, br0, bc0, tr0, tc0);
  if (need <= MAX_CELL_NEED) {
    if (b0 >= 0 && bCount[b0] * CELL_RINGS_FROM >= need) {
      const found = byCellRings(q, r0, c0, tr0, tc0);
      if (found !== null) return found;
    }
    // The rings of blocks by their cells' bits reach as far as those into a TopK below would,
    // and give way where they would.
    return byBlockRings(q, r0, c0, tr0, tc0);
  }

  const rowLatMin = -90 + r0 * CELL_DEG, colLonMin = -180 + c0 * CELL_DEG;
  rowGap.fill(NaN);
  colGap.fill(NaN);
  rowGap[REACH] = colGap[REACH] = 0;
  /** The gap to the cell row `d` rows from the viewer's (computed once a query). */
  const rowGapAt = (d: number): number => {
    let g = rowGap[REACH + d];
    if (g !== g) rowGap[REACH + d] = g = rowGapOf(d, r0, lat, rowLatMin);
    return g;
  };
  /** The gap to the cell column `d` columns from the viewer's (computed once a query). */
  const colGapAt = (d: number): number => {
    let g = colGap[REACH + d];
    if (g !== g) colGap[REACH + d] = g = colGapOf(d, cosQ, qLon, colLonMin);
    return g;
  };
  const blockAt = (br: number, bcu: number): number => blockNear(tiles, br, bcu, tr0, tc0);
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
