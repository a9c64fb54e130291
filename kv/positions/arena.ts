/**
 * The index's storage below its members: the arena, its cells and their blocks. The arena is one
 * Float64Array of 32-byte entries (grid.ts) ordered by cell; each cell owns a contiguous range of
 * it (start, count, capacity), so a search reads a cell's members in sequence. A full cell moves
 * to a larger range (capacities 1, 2, 3, 4, 6, 8, 12, ...), its old range kept on a free list for
 * its size; once a quarter of the arena is such free ranges, the arena is compacted in block
 * order. Cells are grouped into blocks of 4 x 4 cells, found by block id and by tile of 16 x 16
 * blocks. memoryIndex.ts (`PositionIndex`) builds on it: members, slots and sectors.
 */

import {
  BLOCK_CELLS,
  BLOCK_MASK,
  BLOCK_SIDE,
  capClass,
  DT_OTHER,
  E,
  growF64,
  growI32,
  I_DT,
  I_SLOT,
  IE,
  LAT,
  LON,
  TILE_BLOCKS,
  tileOf,
  UNTIL,
} from "./grid.ts";

/** The arena, cells and blocks of a `PositionIndex` (its fields are the index's, not a public API). */
export class CellArena {
  /** The arena position of each slot (moves update it). */
  protected pos = new Int32Array(0);

  // --- the arena, by position: each cell's members in one range
  /**
   * Entry p: LAT, LON, UNTIL at `p * E + ...` of `#a`, and I_SLOT, I_DT at `p * IE + ...` of
   * `#ai`, an Int32Array over the same bytes. 32 bytes a member.
   */
  protected a = new Float64Array(0);
  protected ai = new Int32Array(0);
  /** Report times that are not expiry minus an Int32 (none in practice: expiry is report + 26 h), by slot. */
  protected readonly tsOther = new Map<number, number>();
  protected aEnd = 0;
  /** Free ranges by capacity, and their total. */
  protected readonly aFree = new Map<number, number[]>();
  protected aWaste = 0;

  // --- cells
  protected cStart = new Int32Array(0);
  protected cCount = new Int32Array(0);
  protected cCap = new Int32Array(0);
  protected cRow = new Int32Array(0);
  protected cCol = new Int32Array(0);
  protected cBlock = new Int32Array(0);
  protected cellEnd = 0;
  protected freeCells: number[] = [];

  // --- blocks of 4 x 4 cells
  protected readonly blockOf = new Map<number, number>();
  /**
   * The same blocks by tile of 16 x 16 blocks (1/4 degree): block index by block-in-tile (-1:
   * none), then the tile's block count. A map view's 60-odd blocks are a few tiles, so a flat
   * read looks up a few tiles instead of every block.
   */
  protected readonly tiles = new Map<number, Int32Array>();
  protected bId = new Int32Array(0);
  protected bCount = new Int32Array(0);
  /** Cell index by block and cell-in-block (-1: none). */
  protected bCells = new Int32Array(0);
  /** By block: bit i set when its cell-in-block i is occupied (a walk reads only those cells). */
  protected bMask = new Int32Array(0);
  protected blockEnd = 0;
  protected freeBlocks: number[] = [];

  tsAt(p: number): number {
    const dt = this.ai[p * IE + I_DT];
    return dt === DT_OTHER ? this.tsOther.get(this.ai[p * IE + I_SLOT])! : this.a[p * E + UNTIL] - dt;
  }

  /** Writes entry p's numbers. */
  protected put(p: number, lat: number, lon: number, until: number, ts: number, slot: number): void {
    const a = this.a, ai = this.ai, e = p * E, ie = p * IE;
    a[e + LAT] = lat;
    a[e + LON] = lon;
    a[e + UNTIL] = until;
    ai[ie + I_SLOT] = slot;
    const dt = until - ts;
    if (dt === (dt | 0) && dt !== DT_OTHER && until - dt === ts) {
      ai[ie + I_DT] = dt;
      if (this.tsOther.size > 0) this.tsOther.delete(slot);
    } else {
      ai[ie + I_DT] = DT_OTHER;
      this.tsOther.set(slot, ts);
    }
  }

  protected newBlock(bid: number): number {
    let b = this.freeBlocks.pop();
    if (b === undefined) {
      b = this.blockEnd++;
      if (b >= this.bId.length) {
        const n = Math.max(256, Math.ceil(this.bId.length * 1.5));
        this.bId = growI32(this.bId, n);
        this.bCount = growI32(this.bCount, n);
        this.bMask = growI32(this.bMask, n);
        this.bCells = growI32(this.bCells, n * BLOCK_CELLS, -1);
      }
    }
    this.bId[b] = bid;
    this.bCount[b] = 0;
    this.bMask[b] = 0;
    this.blockOf.set(bid, b);
    const [tile, inTile] = tileOf(bid);
    let blocks = this.tiles.get(tile);
    if (!blocks) this.tiles.set(tile, blocks = new Int32Array(TILE_BLOCKS + 1).fill(-1, 0, TILE_BLOCKS));
    blocks[inTile] = b;
    blocks[TILE_BLOCKS]++;
    return b;
  }

  protected dropBlock(b: number): void {
    const bid = this.bId[b];
    this.blockOf.delete(bid);
    const [tile, inTile] = tileOf(bid);
    const blocks = this.tiles.get(tile)!;
    blocks[inTile] = -1;
    if (--blocks[TILE_BLOCKS] === 0) this.tiles.delete(tile);
    this.freeBlocks.push(b);
  }

  /** A new cell of block `b` with a range of `cap` (0: none yet). */
  protected newCell(b: number, row: number, col: number, inBlock: number, cap: number): number {
    let c = this.freeCells.pop();
    if (c === undefined) {
      c = this.cellEnd++;
      if (c >= this.cStart.length) {
        const n = Math.max(1024, Math.ceil(this.cStart.length * 1.5));
        this.cStart = growI32(this.cStart, n);
        this.cCount = growI32(this.cCount, n);
        this.cCap = growI32(this.cCap, n);
        this.cRow = growI32(this.cRow, n);
        this.cCol = growI32(this.cCol, n);
        this.cBlock = growI32(this.cBlock, n);
      }
    }
    this.cStart[c] = cap > 0 ? this.alloc(cap) : 0;
    this.cCount[c] = 0;
    this.cCap[c] = cap;
    this.cRow[c] = row;
    this.cCol[c] = col;
    this.cBlock[c] = b;
    this.bCells[b * BLOCK_CELLS + inBlock] = c;
    this.bMask[b] |= 1 << inBlock;
    return c;
  }

  protected dropCell(c: number): void {
    this.release(this.cStart[c], this.cCap[c]);
    this.cCap[c] = 0;
    const inBlock = (this.cRow[c] & BLOCK_MASK) * BLOCK_SIDE + (this.cCol[c] & BLOCK_MASK);
    this.bCells[this.cBlock[c] * BLOCK_CELLS + inBlock] = -1;
    this.bMask[this.cBlock[c]] &= ~(1 << inBlock);
    this.freeCells.push(c);
  }

  // --- the arena

  /** Moves a full cell to a range of the next capacity class (after compacting, if that made room). */
  protected growCell(c: number): void {
    const cap = capClass(this.cCap[c] + 1);
    this.makeRoom(cap);
    if (this.cCount[c] < this.cCap[c]) return; // the compaction gave it room
    const to = this.alloc(cap), from = this.cStart[c], n = this.cCount[c];
    this.a.copyWithin(to * E, from * E, (from + n) * E);
    for (let i = 0; i < n; i++) this.pos[this.ai[(to + i) * IE + I_SLOT]] = to + i;
    this.release(from, this.cCap[c]);
    this.cStart[c] = to;
    this.cCap[c] = cap;
  }

  /** Makes sure `#alloc(cap)` finds room: compacts when a quarter of the arena is free ranges, else grows it. */
  protected makeRoom(cap: number): void {
    const room = this.a.length / E;
    if (this.aFree.get(cap)?.length || this.aEnd + cap <= room) return;
    if (this.aWaste * 4 > this.aEnd) this.compact();
    if (this.aEnd + cap <= this.a.length / E) return;
    this.a = growF64(this.a, E * Math.max(1024, this.aEnd + cap, Math.ceil(room * 1.25)));
    this.ai = new Int32Array(this.a.buffer);
  }

  protected alloc(cap: number): number {
    const free = this.aFree.get(cap);
    if (free?.length) {
      this.aWaste -= cap;
      return free.pop()!;
    }
    this.makeRoom(cap);
    const p = this.aEnd;
    this.aEnd += cap;
    return p;
  }

  protected release(start: number, cap: number): void {
    if (cap === 0) return;
    let free = this.aFree.get(cap);
    if (!free) this.aFree.set(cap, free = []);
    free.push(start);
    this.aWaste += cap;
  }

  /** Visits every cell in block order (the order of `blockOf`, then of the cells in a block). */
  protected forEachCell(visit: (c: number) => void): void {
    for (const b of this.blockOf.values()) {
      for (let i = 0; i < BLOCK_CELLS; i++) {
        const c = this.bCells[b * BLOCK_CELLS + i];
        if (c >= 0) visit(c);
      }
    }
  }

  /** Rewrites the arena in block order, each cell with room for a quarter more members. */
  protected compact(): void {
    let total = 0;
    this.forEachCell((c) => total += capClass(this.cCount[c] + (this.cCount[c] >> 2) + 1));
    const a = new Float64Array(E * Math.max(1024, Math.ceil(total * 1.25))), ai = new Int32Array(a.buffer);
    let at = 0;
    this.forEachCell((c) => {
      const from = this.cStart[c], n = this.cCount[c];
      a.set(this.a.subarray(from * E, (from + n) * E), at * E);
      for (let k = 0; k < n; k++) this.pos[ai[(at + k) * IE + I_SLOT]] = at + k;
      this.cStart[c] = at;
      this.cCap[c] = capClass(n + (n >> 2) + 1);
      at += this.cCap[c];
    });
    this.a = a;
    this.ai = ai;
    this.aEnd = at;
    this.aFree.clear();
    this.aWaste = 0;
  }
}
