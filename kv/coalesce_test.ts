import assert from "node:assert/strict";
import { coalescedGets, READ_TOGETHER } from "./coalesce.ts";

type ReadTogether = (keys: Deno.KvKey[]) => Promise<Deno.KvEntryMaybe<unknown>[]>;

/** A handle on a new in-memory store that records the keys of each read call it makes. */
async function countedStore() {
  const db = await Deno.openKv(":memory:");
  const calls: number[] = [];
  const counted = new Proxy(db, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (prop === "getMany") {
        return (
          keys: Deno.KvKey[],
          o?: { consistency?: Deno.KvConsistencyLevel },
        ) => (calls.push(keys.length), target.getMany(keys, o));
      }
      if (prop === "get") return (key: Deno.KvKey) => (calls.push(1), target.get(key));
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
  const c = coalescedGets(counted);
  return { db, c, calls, together: (c as unknown as Record<symbol, ReadTogether>)[READ_TOGETHER] };
}

Deno.test("coalesced reads - keys read together go in the call of the gets asked beside them, never split between calls", async () => {
  const { db, c, calls, together } = await countedStore();
  try {
    for (let i = 0; i < 12; i++) await db.set(["k", i], i);
    // Three gets and a pair read together, asked in one turn: one call of five keys.
    const [a, b, d, pair] = await Promise.all([
      c.get(["k", 0]),
      c.get(["k", 1]),
      c.get(["k", 2]),
      together([["k", 3], ["k", 4]]),
    ]);
    assert.deepEqual([a, b, d].map((e) => e.value), [0, 1, 2]);
    assert.deepEqual(pair.map((e) => e.value), [3, 4]);
    assert.deepEqual(calls, [5]);
    // Nine gets and a pair: the pair does not fit beside them whole, and goes whole in a call of its own.
    calls.length = 0;
    const nine = Array.from({ length: 9 }, (_, i) => c.get(["k", i]));
    const [singles, late] = await Promise.all([Promise.all(nine), together([["k", 10], ["k", 11]])]);
    assert.deepEqual(singles.map((e) => e.value), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
    assert.deepEqual(late.map((e) => e.value), [10, 11]);
    assert.deepEqual(calls, [9, 2]);
  } finally {
    db.close();
  }
});
