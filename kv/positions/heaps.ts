/**
 * The two heaps of the index's best-first search.
 *
 * Contract: plain data structures, no I/O and no geometry. `TopK` keeps the best `cap` items by
 * (key, id) and sorts them ascending; `NodeHeap` pops nodes in order of their lower bound.
 */

/**
 * The best `cap` members found so far by (haversine a, id), a max-heap once full; `sortInPlace`
 * then turns them into the ascending answer. Members are numbers (the index's arena positions);
 * `idOf` gives a member's id, read only for ties. Until it is full the heap only appends (a
 * best-first search finds members in nearly ascending order, each of which would climb to the
 * root); it is heapified once, when it fills.
 */
export class TopK {
  constructor(
    readonly cap: number,
    readonly idOf: (m: number) => string,
    readonly a: number[] = [],
    readonly m: number[] = [],
  ) {}

  get full(): boolean {
    return this.a.length >= this.cap;
  }

  /** Empties it (a search that gave way to another). */
  clear(): void {
    this.a.length = this.m.length = 0;
  }

  /** True when (a, the id of `m`) would enter a full heap. */
  beats(a: number, m: number): boolean {
    const w = this.a[0];
    return a < w || (a === w && this.idOf(m) < this.idOf(this.m[0]));
  }

  #above(i: number, j: number): boolean {
    const ai = this.a[i], aj = this.a[j];
    return ai > aj || (ai === aj && this.idOf(this.m[i]) > this.idOf(this.m[j]));
  }

  #siftDown(i: number, n: number): void {
    const a = this.a, m = this.m;
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let top = i;
      if (l < n && this.#above(l, top)) top = l;
      if (r < n && this.#above(r, top)) top = r;
      if (top === i) return;
      const x = a[i], y = m[i];
      a[i] = a[top];
      m[i] = m[top];
      a[top] = x;
      m[top] = y;
      i = top;
    }
  }

  /** Adds a member; when full, it replaces the worst (callers check `beats` first). */
  push(a: number, m: number): void {
    const n = this.a.length;
    if (n < this.cap) {
      this.a.push(a);
      this.m.push(m);
      if (n + 1 === this.cap) {
        for (let i = ((n + 1) >> 1) - 1; i >= 0; i--) this.#siftDown(i, n + 1);
      }
      return;
    }
    this.a[0] = a;
    this.m[0] = m;
    this.#siftDown(0, n);
  }

  /**
   * Sorts ascending by (a, id) in place (the heap order is gone afterwards). See `sortMembers`.
   */
  sortInPlace(): this {
    const n = this.a.length;
    if (n < this.cap) {
      sortMembers(this.a, this.m, n, this.a, this.m, this.idOf);
      return this;
    }
    // Full, so a heap: the worst to the end, one at a time (a heapsort's second half).
    const a = this.a, m = this.m;
    for (let end = n - 1; end > 0; end--) {
      const x = a[0], y = m[0];
      a[0] = a[end];
      m[0] = m[end];
      a[end] = x;
      m[end] = y;
      this.#siftDown(0, end);
    }
    return this;
  }

  /** The first `cap` of `n` members given as (a, m) pairs (any order), sorted by (a, id). */
  static sorted(
    a: ArrayLike<number>,
    m: ArrayLike<number>,
    n: number,
    cap: number,
    idOf: (m: number) => string,
  ): TopK {
    const top = new TopK(cap, idOf, new Array<number>(n), new Array<number>(n));
    sortMembers(a, m, n, top.a, top.m, idOf);
    if (n > cap) top.a.length = top.m.length = cap;
    return top;
  }
}

// The keys of the latest sort, reused (searches run one at a time).
let sortKeys = new Uint32Array(1024);

/** Below this many members a sort key keeps at least 16 bits for the member's `a`. */
const SORT_MAX_N = 1 << 16;
/** Up to this many members are sorted by insertion alone (at most about n²/2 moves). */
const SMALL_SORT_N = 48;
/** The insertion pass gives way to a comparison sort past this many moves a member. */
const INSERTION_MAX_MOVES = 8;

/**
 * Writes the `n` members (a, m) into `outA`, `outM` ascending by (a, id) (they may be the same
 * arrays): a native sort of Uint32 keys, each the member's `a` scaled to the keys' upper bits
 * (over the range of the `a`s given, so it keeps their order, ties aside) with its place in the
 * lower bits, then one insertion pass with the exact order for the few that share a scaled `a`
 * (or, when too many do, a comparison sort). A Uint32Array sorts about three times as fast as a
 * Float64Array of the same length.
 */
function sortMembers(
  a: ArrayLike<number>,
  m: ArrayLike<number>,
  n: number,
  outA: number[],
  outM: number[],
  idOf: (m: number) => string,
): void {
  if (n <= SMALL_SORT_N) {
    // A short answer (nearest 30): an insertion sort in place costs less than the keys' arrays
    // and a native sort's call.
    if (a !== outA) { for (let i = 0; i < n; i++) outA[i] = a[i]; }
    if (m !== outM) { for (let i = 0; i < n; i++) outM[i] = m[i]; }
    for (let i = 1; i < n; i++) settleBack(outA, outM, i, idOf);
    return;
  }
  const fromA = a === outA ? Float64Array.from(outA) : a, fromM = m === outM ? Int32Array.from(outM) : m;
  if (n > SORT_MAX_N) {
    for (let i = 0; i < n; i++) (outA[i] = fromA[i], outM[i] = fromM[i]);
    sortExactly(outA, outM, n, idOf);
    return;
  }
  const bits = 32 - Math.clz32(n - 1);
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = fromA[i];
    if (x < lo) lo = x;
    if (x > hi) hi = x;
  }
  // Scaled into [0, 2^(32 - bits)), never past it: the scale is kept a little under the top.
  const scale = hi > lo ? (2 ** (32 - bits) - 1) / (hi - lo) * (1 - 2 ** -40) : 0;
  if (sortKeys.length < n) sortKeys = new Uint32Array(2 * n);
  const keys = sortKeys.subarray(0, n), mult = 2 ** bits;
  for (let i = 0; i < n; i++) keys[i] = Math.floor((fromA[i] - lo) * scale) * mult + i;
  keys.sort();
  const mask = mult - 1;
  for (let i = 0; i < n; i++) {
    const from = keys[i] & mask;
    outA[i] = fromA[from];
    outM[i] = fromM[from];
  }
  // Each member moved back past those before it; a crowd sharing one scaled `a` would make this
  // quadratic, so past a bound the whole answer is sorted again by comparison.
  let moves = 0;
  for (let i = 1; i < n; i++) {
    if ((moves += i - settleBack(outA, outM, i, idOf)) > INSERTION_MAX_MOVES * n) {
      sortExactly(outA, outM, n, idOf);
      return;
    }
  }
}

/**
 * Moves the member at `i` back past those before it that come after it (by `a`, then id), the
 * step of an insertion sort; returns where it landed.
 */
function settleBack(a: number[], m: number[], i: number, idOf: (m: number) => string): number {
  const x = a[i], y = m[i];
  let j = i;
  while (j > 0 && (a[j - 1] > x || (a[j - 1] === x && idOf(m[j - 1]) > idOf(y)))) {
    a[j] = a[j - 1];
    m[j] = m[j - 1];
    j--;
  }
  a[j] = x;
  m[j] = y;
  return j;
}

/** The first `n` members of (a, m) sorted in place by (a, id), by comparison. */
function sortExactly(a: number[], m: number[], n: number, idOf: (m: number) => string): void {
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => {
    if (a[x] !== a[y]) return a[x] - a[y];
    const ix = idOf(m[x]), iy = idOf(m[y]);
    return ix < iy ? -1 : ix > iy ? 1 : 0;
  });
  const byA = order.map((i) => a[i]), byM = order.map((i) => m[i]);
  for (let i = 0; i < n; i++) (a[i] = byA[i], m[i] = byM[i]);
}

/** Min-heap of blocks and cells by lower-bound distance. */
export class NodeHeap<N> {
  readonly lb: number[] = [];
  readonly node: N[] = [];

  get size(): number {
    return this.lb.length;
  }

  push(lb: number, node: N): void {
    const l = this.lb, n = this.node;
    let i = l.length;
    l.push(lb);
    n.push(node);
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (l[p] <= lb) break;
      l[i] = l[p];
      n[i] = n[p];
      i = p;
    }
    l[i] = lb;
    n[i] = node;
  }

  pop(): N {
    const l = this.lb, n = this.node;
    const top = n[0];
    const lastLb = l.pop()!;
    const lastNode = n.pop()!;
    const size = l.length;
    if (size > 0) {
      let i = 0;
      for (;;) {
        const c = 2 * i + 1;
        if (c >= size) break;
        const d = c + 1 < size && l[c + 1] < l[c] ? c + 1 : c;
        if (l[d] >= lastLb) break;
        l[i] = l[d];
        n[i] = n[d];
        i = d;
      }
      l[i] = lastLb;
      n[i] = lastNode;
    }
    return top;
  }
}
