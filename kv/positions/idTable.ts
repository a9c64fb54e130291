/**
 * The position index's ids: the id of each slot, and a hash table from id to slot.
 *
 * Contract: plain data, no I/O. `ids[slot]` is the slot's id (undefined: a free slot); `get`
 * finds a slot by id. The table is open addressing with linear probing over an Int32Array (slot
 * + 1 per bucket, at most half full) and removal by backward shift (no tombstones); each slot
 * keeps its id's hash, so growing never hashes a string again. Why not a `Map`: filling one with
 * a million fresh strings took 0.7 to 0.8 s here (the engine hashing each new string), against
 * about 0.1 s for this table, which is also smaller (about 12 bytes an id against about 30).
 */

/** FNV-1a over the id's UTF-16 code units, then murmur3's finaliser. */
function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/** Ids by slot, and slots by id. */
export class IdTable {
  /** Ids by slot (undefined: a free slot). */
  ids: (string | undefined)[] = [];
  #hashOf = new Int32Array(0);
  #table = new Int32Array(16);
  #mask = 15;
  #size = 0;

  /** How many ids the table holds. */
  get size(): number {
    return this.#size;
  }

  /** The slot of `id`, or -1. */
  get(id: string): number {
    const h = idHash(id), t = this.#table, mask = this.#mask, hashOf = this.#hashOf, ids = this.ids;
    for (let b = h & mask;; b = (b + 1) & mask) {
      const e = t[b];
      if (e === 0) return -1;
      if (hashOf[e - 1] === h && ids[e - 1] === id) return e - 1;
    }
  }

  /** Takes `ids` over as the ids by slot, with room for `n` ids; the table starts empty (then `add`). */
  adopt(ids: (string | undefined)[], n: number): void {
    this.ids = ids;
    this.#hashOf = new Int32Array(Math.max(16, ids.length));
    let size = 16;
    while (size < 2 * n) size *= 2;
    this.#table = new Int32Array(size);
    this.#mask = size - 1;
    this.#size = 0;
  }

  /** Puts `id` at `slot` (a free slot); false, changing nothing, when `id` has a slot already. */
  add(id: string, slot: number): boolean {
    const h = idHash(id);
    const mask = this.#mask, t = this.#table;
    let b = h & mask;
    for (let e = t[b]; e !== 0; b = (b + 1) & mask, e = t[b]) {
      if (this.#hashOf[e - 1] === h && this.ids[e - 1] === id) return false;
    }
    if (slot >= this.#hashOf.length) {
      const more = new Int32Array(Math.max(1024, slot + 1, Math.ceil(this.#hashOf.length * 1.5)));
      more.set(this.#hashOf);
      this.#hashOf = more;
    }
    this.ids[slot] = id;
    this.#hashOf[slot] = h;
    t[b] = slot + 1;
    if (++this.#size * 2 > t.length) this.#rehash(t.length * 2);
    return true;
  }

  /** Frees `slot` (which holds an id). */
  remove(slot: number): void {
    const t = this.#table, mask = this.#mask;
    let i = this.#hashOf[slot] & mask;
    while (t[i] !== slot + 1) i = (i + 1) & mask;
    // Backward shift: move up every later entry of the run whose home is not in (i, j].
    for (let j = (i + 1) & mask; t[j] !== 0; j = (j + 1) & mask) {
      const home = this.#hashOf[t[j] - 1] & mask;
      if (i <= j ? home <= i || home > j : home <= i && home > j) {
        t[i] = t[j];
        i = j;
      }
    }
    t[i] = 0;
    this.ids[slot] = undefined;
    this.#size--;
  }

  #rehash(n: number): void {
    const old = this.#table, t = new Int32Array(n), mask = n - 1;
    for (let i = 0; i < old.length; i++) {
      const e = old[i];
      if (e === 0) continue;
      let b = this.#hashOf[e - 1] & mask;
      while (t[b] !== 0) b = (b + 1) & mask;
      t[b] = e;
    }
    this.#table = t;
    this.#mask = mask;
  }
}
