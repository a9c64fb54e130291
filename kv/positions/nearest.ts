/**
 * The nearest search, best-first: rings of blocks around the viewer are enumerated lazily (or,
 * for a region far larger than the index, the occupied blocks are taken from the map), blocks and
 * then cells are visited in order of their lower-bound distance, and the search stops once the
 * `need` nearest found are closer than anything unvisited, so its cost follows the answer size,
 * not the number of members in the region.
 */

import { METERS_PER_DEGREE } from "../../domain/geo.ts";
import { NodeHeap, type TopK } from "./heaps.ts";
import { aToMeters, boxLowerBound, LB_SAFETY, lonGapMeters } from "./geoMath.ts";
import { BLOCK_CELLS, BLOCK_COLS, BLOCK_DEG, CELL_DEG } from "./grid.ts";
import type { Query } from "./search.ts";

/** The answer of query `q` in (distance, id) order, found nearest first. */
export function nearestFirst(q: Query): TopK {
  const { lat, cosQ, qLon, top, brMin, brMax, bcMin, bcMax, relation, blockLatMin, blockLonMin, scanCell } = q;
  const { cRow, cCol, bCells, blockOf, bId } = q.view;
  // Nodes: a block as its index b >= 0, a cell c as -1 - c.
  const heap = new NodeHeap<number>();
  const br0 = q.rowOf(lat);
  // The viewer's block column, shifted by whole turns to where it is closest to the region.
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

  // Walking rings costs a map lookup per block position, taking the occupied blocks from the map a
  // bound and a heap push per occupied block: rings are walked while their cost stays below the
  // map's, then the occupied blocks not yet walked are taken from the map at once (a world-wide
  // box, an empty area). So a dense city costs a few rings, not a pass over all its blocks.
  const mapCost = 4 * blockOf.size + 1024;
  let walked = 0;
  const ringSize = (k: number) => (k === 0 ? 1 : 8 * k);
  /** Pushes every occupied block of the region outside rings 0..k; no ring is walked after. */
  const takeTheRest = (k: number) => {
    for (const b of blockOf.values()) {
      if (relation(blockLatMin(b), blockLonMin(b), BLOCK_DEG) === 0) continue;
      const id = bId[b];
      const r = Math.floor(id / BLOCK_COLS);
      // The block's column where the region has it (the region spans fewer than BLOCK_COLS).
      const c = bcMin + ((id % BLOCK_COLS) - bcMin % BLOCK_COLS + BLOCK_COLS) % BLOCK_COLS;
      if (k >= 0 && Math.abs(r - br0) <= k && Math.abs(c - bc0) <= k) continue; // walked already
      pushBlock(b);
    }
  };

  let k = kStart - 1;
  let ringLb = k < 0 ? 0 : ringBound(k);
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
      if (walked + ringSize(k + 1) > mapCost && q.regionBlocks > mapCost) {
        takeTheRest(k);
        ringLb = Infinity;
        continue;
      }
      k++;
      enumerateRing(k);
      walked += ringSize(k);
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
    scanCell(c, relation(-90 + cRow[c] * CELL_DEG, -180 + cCol[c] * CELL_DEG, CELL_DEG) === 2, null);
  }
  return top.sortInPlace();
}
