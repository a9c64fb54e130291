/**
 * The in-memory index of one KV database's visible shown positions: its members by slot, their
 * versions and sectors, changes, expiry and snapshot columns (the arena below them is arena.ts).
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
 * the grid (grid.ts: 1/256 degree, about 430 m) owns a contiguous range of the arena (arena.ts:
 * start, count, capacity), so a search reads a cell's members in sequence. A member leaving a
 * cell is swapped with the cell's last; a full cell moves to a larger range (capacities 1, 2, 3,
 * 4, 6, 8, 12, ...), its old range kept on a free list for its size; once a quarter of the arena
 * is such free ranges, the arena is compacted in block order. Cells are grouped into blocks of
 * 4 x 4 cells (a map from block id to block, tiles of 16 x 16 blocks, and a bit per occupied
 * cell by block), plus per-sector counts for aggregates. A load (`fromColumns`: a snapshot, or
 * every record) fills the arena in one pass in block and cell order, each member's slot its place,
 * so members near each other are near each other in memory too.
 *
 * Search: three algorithms over the same arrays (search.ts sets a query up). A small region (a map
 * view) that holds at most a few times the answer is read whole and sorted once (regionRead.ts);
 * around a viewer where members are dense, square rings of cells or blocks are walked outwards
 * (rings.ts, decisions 0222 and 0237); any other is searched best-first, nearest blocks and cells
 * first (nearest.ts). The last two stop once the answer is closer than anything unvisited. All
 * measure nearby members with short Taylor series instead of `Math.sin` and `Math.cos`
 * (geoMath.ts), which cost a large share of a city's view (docs/decisions/0038-map-view-read-whole.md).
 */

import { isLat, isLon } from "../../domain/geo.ts";
import type { TopK } from "./heaps.ts";
import { IdTable } from "./idTable.ts";
import type { IndexColumns, LogChange, Region } from "./types.ts";
import { RAD } from "./geoMath.ts";
import { CellArena } from "./arena.ts";
import {
  BLOCK_CELLS,
  BLOCK_COLS,
  BLOCK_MASK,
  BLOCK_SHIFT,
  BLOCK_SIDE,
  CELL_COLS,
  cellCol,
  cellRow,
  E,
  growI32,
  I_SLOT,
  IE,
  inCellOrder,
  LAT,
  LON,
  newColumns,
  UNTIL,
} from "./grid.ts";
import { type IndexView, startQuery } from "./search.ts";
import { nearestFirst } from "./nearest.ts";
import { readRegionWhole } from "./regionRead.ts";
import { nearestByRings } from "./rings.ts";

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

/** The visible shown positions of one KV database, in memory. */
export class PositionIndex extends CellArena {
  // --- members by slot
  /** Ids by slot (`#idt.ids`), and slots by id. */
  readonly #idt = new IdTable();
  /** Versionstamp of the last change (or quiet own write here) by slot. */
  #vers: (string | undefined)[] = [];
  #cellOf = new Int32Array(0);
  #sec = new Int32Array(0);
  #slotEnd = 0;
  #freeSlots: number[] = [];
  /** Versions of profiles not in the index: kept when a change removes a member, dropped when it expires. */
  readonly #goneVersions = new Map<string, string>();
  /** The last versionstamp applied, so a commit's many changes share one string. */
  #lastVs = "";
  /** Changes made to this index so far (members placed or removed), and the count at each block id's last. */
  #changes = 0;
  readonly #blockChanged = new Map<number, number>();

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
    super();
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
    const p = this.pos[slot], e = p * E, a = this.a;
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

  /** How many changes (a member placed or removed) this index has had: a stamp for `changedSince`. */
  get changes(): number {
    return this.#changes;
  }

  /** Did a member arrive in or leave the block `bid` (grid.ts) after the stamp `changes`? */
  changedSince(bid: number, changes: number): boolean {
    return (this.#blockChanged.get(bid) ?? 0) > changes;
  }

  /** The slot of a visible member, or -1. */
  slotOf(profileId: string): number {
    return this.#idt.get(profileId);
  }

  /** The arena position of a member's slot (`latAt` and the like read it; valid until the index next changes). */
  placeOf(slot: number): number {
    return this.pos[slot];
  }

  /**
   * The id, shown point and report time of a member found by `search` (an arena position: valid
   * until the index next changes, so read at once).
   */
  idAt(p: number): string {
    return this.#idt.ids[this.ai[p * IE + I_SLOT]]!;
  }
  latAt(p: number): number {
    return this.a[p * E + LAT];
  }
  lonAt(p: number): number {
    return this.a[p * E + LON];
  }
  untilAt(p: number): number {
    return this.a[p * E + UNTIL];
  }
  /** The interned number of a sector key (-1: no member was ever in it); see `sectorAt`. */
  sectorId(key: string): number {
    return this.#sectorOf.get(key) ?? -1;
  }

  /** The interned number of a slot's sector. */
  sectorAt(slot: number): number {
    return this.#sec[slot];
  }

  /** The key of a slot's sector. */
  sectorKeyAt(slot: number): string {
    return this.#sectorName[this.#sec[slot]];
  }

  /** The versionstamp of the last change of a slot's member (see `versions`). */
  versionAt(slot: number): string | undefined {
    return this.#vers[slot];
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
      if (slot >= this.pos.length) this.#growSlots(Math.max(1024, Math.ceil(this.pos.length * 1.5)));
    }
    this.#idt.add(id, slot);
    return slot;
  }

  #growSlots(n: number): void {
    this.pos = growI32(this.pos, n);
    this.#cellOf = growI32(this.#cellOf, n);
    this.#sec = growI32(this.#sec, n);
  }

  #freeSlot(slot: number): void {
    this.#idt.remove(slot);
    this.#vers[slot] = undefined;
    if (this.tsOther.size > 0) this.tsOther.delete(slot);
    this.#freeSlots.push(slot);
  }

  // --- placing a slot in its cell, block and sector

  #attach(slot: number, lat: number, lon: number, ts: number, until: number, sector: number): void {
    const row = cellRow(lat), col = cellCol(lon);
    const bid = (row >> BLOCK_SHIFT) * BLOCK_COLS + (col >> BLOCK_SHIFT);
    this.#blockChanged.set(bid, ++this.#changes);
    let b = this.blockOf.get(bid);
    if (b === undefined) b = this.newBlock(bid);
    const inBlock = (row & BLOCK_MASK) * BLOCK_SIDE + (col & BLOCK_MASK);
    let c = this.bCells[b * BLOCK_CELLS + inBlock];
    if (c < 0) c = this.newCell(b, row, col, inBlock, 0);
    if (this.cCount[c] === this.cCap[c]) this.growCell(c);
    const p = this.cStart[c] + this.cCount[c]++;
    this.put(p, lat, lon, until, ts, slot);
    this.pos[slot] = p;
    this.#cellOf[slot] = c;
    this.#sec[slot] = sector;
    this.bCount[b]++;
    if (this.#sCount[sector]++ === 0) {
      this.#sMinUntil[sector] = Infinity;
      this.#sTs[sector] = 0;
    }
    if (until < this.#sMinUntil[sector]) this.#sMinUntil[sector] = until;
    if (ts > this.#sTs[sector]) this.#sTs[sector] = ts;
  }

  #detach(slot: number): void {
    const c = this.#cellOf[slot], p = this.pos[slot];
    const last = this.cStart[c] + --this.cCount[c];
    if (p !== last) {
      this.a.copyWithin(p * E, last * E, last * E + E);
      this.pos[this.ai[p * IE + I_SLOT]] = p;
    }
    const b = this.cBlock[c];
    this.#blockChanged.set(this.bId[b], ++this.#changes);
    if (this.cCount[c] === 0) this.dropCell(c);
    if (--this.bCount[b] === 0) this.dropBlock(b);
    this.#sCount[this.#sec[slot]]--;
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
      const p = this.pos[slot], until = this.a[p * E + UNTIL];
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
   * `self` (a slot, or -1) is left out. A small region is read whole (regionRead.ts), a dense
   * viewer's walked by rings (rings.ts), any other searched nearest first (nearest.ts).
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
    const q = startQuery(this.view(), lat, lon, region, need, t, self, accept);
    return readRegionWhole(q) ?? nearestByRings(q) ?? nearestFirst(q);
  }

  /** The arrays a search reads, as they stand now (valid until the index next changes). */
  view(): IndexView {
    return {
      ids: this.#idt.ids,
      arena: this.a,
      arenaI: this.ai,
      cStart: this.cStart,
      cCount: this.cCount,
      cRow: this.cRow,
      cCol: this.cCol,
      bId: this.bId,
      bCount: this.bCount,
      bCells: this.bCells,
      bMask: this.bMask,
      blockOf: this.blockOf,
      tiles: this.tiles,
    };
  }

  // --- snapshot columns

  /** The members as columns in block and cell order (snapshot.ts writes them as they are). */
  toColumns(): IndexColumns {
    const n = this.#idt.size;
    const cols = newColumns(n, this.#sectorName.slice());
    let at = 0;
    this.forEachCell((c) => {
      const from = this.cStart[c], count = this.cCount[c];
      for (let p = from; p < from + count; p++, at++) {
        const e = p * E, slot = this.ai[p * IE + I_SLOT];
        cols.lat[at] = this.a[e + LAT];
        cols.lon[at] = this.a[e + LON];
        cols.ts[at] = this.tsAt(p);
        cols.until[at] = this.a[e + UNTIL];
        cols.ids[at] = this.#idt.ids[slot];
        cols.sector[at] = this.#sec[slot];
      }
    });
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
    this.a = new Float64Array(E * size);
    this.ai = new Int32Array(this.a.buffer);
    const { lat: cLat, lon: cLon, ts: cTs, until: cUntil, sector: cSector } = cols;
    const pos = this.pos, cellOf = this.#cellOf, sec = this.#sec;
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
        if (c >= 0) this.cCap[c] = this.cCount[c];
        const bid = (row >> BLOCK_SHIFT) * BLOCK_COLS + (col >> BLOCK_SHIFT);
        b = this.blockOf.get(bid) ?? this.newBlock(bid);
        const inBlock = (row & BLOCK_MASK) * BLOCK_SIDE + (col & BLOCK_MASK);
        if (this.bCells[b * BLOCK_CELLS + inBlock] >= 0) return false; // not in cell order
        c = this.newCell(b, row, col, inBlock, 0);
        this.cStart[c] = p;
        cellKey = key;
      }
      this.cCount[c]++;
      this.bCount[b]++;
      const ts = cTs[i], s = sectorIds[cSector[i]];
      this.put(p, lat, lon, until, ts, i);
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
    if (c >= 0) this.cCap[c] = this.cCount[c];
    this.aEnd = p;
    this.#freeSlots.reverse(); // the lowest free slot first
    return true;
  }
}
