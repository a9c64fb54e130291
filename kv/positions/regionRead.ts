/**
 * The by-bounds search: a small region that holds few members against the answer (a city's map
 * view) is read whole and sorted once, which costs less there than ordering its cells by
 * distance. Its blocks are found through tiles of 16 x 16 blocks (a view's 60-odd blocks are a
 * few tiles), and within one turn of longitude its edge cells are placed by their row and column.
 */

import { TopK } from "./heaps.ts";
import {
  BLOCK_CELLS,
  BLOCK_COLS,
  BLOCK_DEG,
  CELL_DEG,
  cellCol,
  cellRow,
  TILE_COLS,
  TILE_MASK,
  TILE_SHIFT,
  TILE_SIDE,
} from "./grid.ts";
import type { Query } from "./search.ts";

/** A region of at most this many blocks holding at most this factor times the answer is read whole. */
const FLAT_MAX_BLOCKS = 1024, FLAT_MAX_FACTOR = 3;

// The members of the latest flat read, reused (searches run one at a time).
let flatA = new Float64Array(1024), flatM = new Int32Array(1024);

/**
 * The answer of query `q` read whole, in (distance, id) order, or null when its region is too
 * large or holds too many members against the answer for that (nearest.ts answers then).
 */
export function readRegionWhole(q: Query): TopK | null {
  if (q.regionBlocks > FLAT_MAX_BLOCKS) return null;
  const { region, need, brMin, brMax, bcMin, bcMax, relation, blockLatMin, blockLonMin, scanCell } = q;
  const { bCount, bCells, cRow, cCol, tiles } = q.view;
  const blocks: number[] = [];
  let held = 0;
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
  if (held > FLAT_MAX_FACTOR * need) return null;
  if (flatA.length < held) (flatA = new Float64Array(2 * held), flatM = new Int32Array(2 * held));
  const flat = { a: flatA, m: flatM, n: 0 };
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
      scanCell(c, cellRel === 2, flat);
    }
  }
  return TopK.sorted(flat.a, flat.m, flat.n, need, q.top.idOf);
}
