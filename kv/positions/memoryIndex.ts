/**
 * The in-memory index of one KV database's visible shown positions, with its distance math.
 *
 * Contract: memory only, no I/O. `apply` takes log changes (a shown position, or a removal) with
 * the versionstamp they were committed at and ignores any that is not newer than the last one
 * applied for that profile, so changes may arrive twice or out of order. `search` returns the
 * nearest members of a region in (distance, id) order.
 *
 * Layout: cells of 1/256 degree (about 430 m) grouped into blocks of 4 x 4 cells, plus per-sector
 * sets for aggregates. A query is a best-first search: rings of blocks around the viewer are
 * enumerated lazily (or, for a region far larger than the index, the occupied blocks are taken
 * from the map), blocks and then cells are visited in order of their lower-bound distance, and
 * the search stops once the (page+1)*size nearest found are closer than anything unvisited, so
 * its cost follows the answer size, not the number of members in the sector.
 */

import { type Bounds, EARTH_RADIUS_M, isLat, isLon, METERS_PER_DEGREE, normalizeLon } from "../../domain/geo.ts";
import { NodeHeap, TopK } from "./heaps.ts";
import type { LogChange } from "./types.ts";

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

/** A visible member in the index: its shown position, report time, expiry, and place in a cell. */
export interface Member {
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
export interface Region {
  latMin: number;
  latMax: number;
  /** West edge, unwrapped: lonMin <= lonMax, lonMax - lonMin <= 360. */
  lonMin: number;
  lonMax: number;
  test: (m: Member) => boolean;
}

/** Haversine "a" of two points given with the cosines of their latitudes (metres: `aToMeters`). */
function haversineA(lat1: number, lon1: number, cos1: number, lat2: number, lon2: number, cos2: number): number {
  const s1 = Math.sin((lat2 - lat1) * RAD / 2);
  const s2 = Math.sin((lon2 - lon1) * RAD / 2);
  return s1 * s1 + cos1 * cos2 * s2 * s2;
}

/** The great-circle distance in metres of a haversine "a". */
export function aToMeters(a: number): number {
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

function isBlock(n: Block | Cell): n is Block {
  return "cells" in n;
}

/** The visible shown positions of one KV database, in memory. */
export class PositionIndex {
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
   * `accept`, in (distance, id) order. See the module comment for the search.
   */
  search(
    lat: number,
    lon: number,
    region: Region,
    need: number,
    t: number,
    self: Member | undefined,
    accept: ((profileId: string) => boolean) | null,
  ): TopK<Member> {
    const cosQ = Math.cos(lat * RAD);
    const top = new TopK<Member>(need);
    const heap = new NodeHeap<Block | Cell>();
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
