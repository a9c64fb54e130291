/**
 * What the index's two searches share (nearest.ts, regionRead.ts): the index's arrays as they
 * stand (`IndexView`), and a query's setup: the region's span of blocks, where a block or cell
 * lies against the region, and the read of a cell's members into the answer.
 */

import { normalizeLon } from "../../domain/geo.ts";
import { TopK } from "./heaps.ts";
import { haversineA, RAD } from "./geoMath.ts";
import { BLOCK_COLS, BLOCK_DEG, BLOCK_ROWS, E, I_SLOT, IE, LAT, LON, UNTIL } from "./grid.ts";
import type { Region } from "./types.ts";

/** The index's arrays, read by a search (memoryIndex.ts owns them; valid until the index next changes). */
export interface IndexView {
  /** Ids by slot. */
  ids: (string | undefined)[];
  /** The arena (LAT, LON, UNTIL by entry) and the same bytes as Int32 (I_SLOT, I_DT). */
  arena: Float64Array;
  arenaI: Int32Array;
  /** By cell: the start of its range, its member count, its row and column. */
  cStart: Int32Array;
  cCount: Int32Array;
  cRow: Int32Array;
  cCol: Int32Array;
  /** By block: its block id, its member count, its cells by cell-in-block (-1: none), their bits. */
  bId: Int32Array;
  bCount: Int32Array;
  bCells: Int32Array;
  bMask: Int32Array;
  /** Block index by block id, and by tile (memoryIndex.ts `#tiles`). */
  blockOf: Map<number, number>;
  tiles: Map<number, Int32Array>;
}

/** Members read unordered: haversine a and arena position, the first `n` in use. */
export interface FlatList {
  a: Float64Array;
  m: Int32Array;
  n: number;
}

/** A query against one view of the index, with what both searches derive from it. */
export interface Query {
  view: IndexView;
  lat: number;
  lon: number;
  region: Region;
  need: number;
  cosQ: number;
  sinQ: number;
  /** The time members' expiry is compared with, the viewer's slot (-1: none), the caller's filter. */
  t: number;
  self: number;
  accept: ((profileId: string) => boolean) | null;
  /** The viewer's longitude in [-180, 180). */
  qLon: number;
  /** The answer so far. */
  top: TopK;
  /** The region's rows and (unwrapped) columns of blocks, and how many blocks that is. */
  brMin: number;
  brMax: number;
  bcMin: number;
  bcMax: number;
  regionBlocks: number;
  rowOf: (x: number) => number;
  blockLatMin: (b: number) => number;
  blockLonMin: (b: number) => number;
  /**
   * Where a block or cell lies in the region: 0 outside, 1 across its edge, 2 strictly inside
   * (then its members need no per-member test: sector and box edges are never strictly inside).
   */
  relation: (latMin: number, lonMin: number, size: number) => number;
  /**
   * A cell's members into the answer (`inside`: the cell lies strictly inside the region), or,
   * when `flat` is given, every one of them into it unordered.
   */
  scanCell: (c: number, inside: boolean, flat: FlatList | null) => void;
}

/** Sets up a query: see `PositionIndex.search` for the arguments. */
export function startQuery(
  view: IndexView,
  lat: number,
  lon: number,
  region: Region,
  need: number,
  t: number,
  self: number,
  accept: ((profileId: string) => boolean) | null,
): Query {
  const { ids, arena, arenaI, cStart, cCount, bId } = view;
  const cosQ = Math.cos(lat * RAD), sinQ = Math.sin(lat * RAD);
  const top = new TopK(need, (p) => ids[arenaI[p * IE + I_SLOT]]!);
  const rowOf = (x: number) => Math.max(0, Math.min(BLOCK_ROWS - 1, Math.floor((x + 90) / BLOCK_DEG)));
  const brMin = rowOf(region.latMin), brMax = rowOf(region.latMax);
  const bcMin = Math.floor((region.lonMin + 180) / BLOCK_DEG);
  const bcMax = Math.min(bcMin + BLOCK_COLS - 1, Math.floor((region.lonMax + 180) / BLOCK_DEG));
  const qLon = normalizeLon(lon);

  const blockLatMin = (b: number) => -90 + Math.floor(bId[b] / BLOCK_COLS) * BLOCK_DEG;
  const blockLonMin = (b: number) => -180 + (bId[b] % BLOCK_COLS) * BLOCK_DEG;
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

  const scanCell = (c: number, inside: boolean, flat: FlatList | null) => {
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

  return {
    view,
    lat,
    lon,
    region,
    need,
    cosQ,
    sinQ,
    t,
    self,
    accept,
    qLon,
    top,
    brMin,
    brMax,
    bcMin,
    bcMax,
    regionBlocks: (brMax - brMin + 1) * (bcMax - bcMin + 1),
    rowOf,
    blockLatMin,
    blockLonMin,
    relation,
    scanCell,
  };
}
