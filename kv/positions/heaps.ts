/**
 * The two heaps of the index's best-first search.
 *
 * Contract: plain data structures, no I/O and no geometry. `TopK` keeps the best `cap` items by
 * (key, id) and sorts them ascending; `NodeHeap` pops nodes in order of their lower bound.
 */

/**
 * Max-heap of the best `cap` members found so far, ordered by (haversine a, id); `sortInPlace`
 * then turns it into the ascending answer (heapsort: much cheaper than Array#sort with a comparator).
 */
export class TopK<M extends { readonly id: string }> {
  readonly a: number[] = [];
  readonly m: M[] = [];
  constructor(readonly cap: number) {}

  get full(): boolean {
    return this.a.length >= this.cap;
  }

  /** True when (a, id) would enter a full heap. */
  beats(a: number, id: string): boolean {
    const w = this.a[0];
    return a < w || (a === w && id < this.m[0].id);
  }

  #above(i: number, j: number): boolean {
    const ai = this.a[i], aj = this.a[j];
    return ai > aj || (ai === aj && this.m[i].id > this.m[j].id);
  }

  #swap(i: number, j: number): void {
    const a = this.a[i];
    this.a[i] = this.a[j];
    this.a[j] = a;
    const m = this.m[i];
    this.m[i] = this.m[j];
    this.m[j] = m;
  }

  #siftDown(i: number, n: number): void {
    for (;;) {
      const l = 2 * i + 1, r = l + 1;
      let top = i;
      if (l < n && this.#above(l, top)) top = l;
      if (r < n && this.#above(r, top)) top = r;
      if (top === i) return;
      this.#swap(i, top);
      i = top;
    }
  }

  push(a: number, m: M): void {
    if (this.a.length < this.cap) {
      this.a.push(a);
      this.m.push(m);
      let i = this.a.length - 1;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!this.#above(i, p)) break;
        this.#swap(i, p);
        i = p;
      }
      return;
    }
    this.a[0] = a;
    this.m[0] = m;
    this.#siftDown(0, this.a.length);
  }

  /** Sorts ascending by (a, id) in place; the heap order is gone afterwards. */
  sortInPlace(): this {
    for (let n = this.a.length - 1; n > 0; n--) {
      this.#swap(0, n);
      this.#siftDown(0, n);
    }
    return this;
  }
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
