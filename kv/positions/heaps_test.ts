import assert from "node:assert/strict";
import { mulberry32 as rng } from "../random.ts";
import { TopK } from "./heaps.ts";

/** (a, m) pairs sorted by (a, id), the first `cap`, as the reference. */
function reference(a: number[], m: number[], cap: number, idOf: (m: number) => string): string[] {
  return a.map((x, i) => [x, m[i]] as const)
    .sort((x, y) => x[0] - y[0] || (idOf(x[1]) < idOf(y[1]) ? -1 : idOf(x[1]) > idOf(y[1]) ? 1 : 0))
    .slice(0, cap)
    .map(([x, y]) => `${x}:${y}`);
}

Deno.test("TopK.sorted - orders by (a, id) for spread, bunched, crowded and tied members, and past 65,536 members", () => {
  const rand = rng(11);
  const idOf = (m: number) => `id${(m * 7919) % 100_003}`;
  const shapes: [string, number, () => number][] = [
    ["spread", 900, () => rand() * 1e-6],
    ["squared", 1200, () => rand() ** 2 * 1e-6],
    // Most members a few metres away, one far off: most share one scaled key.
    ["bunched", 700, () => (rand() < 0.002 ? 1e-4 : 1e-12 * rand())],
    // A crowd of thousands within a metre of each other and one member far off: the insertion
    // pass gives way to a comparison sort instead of turning quadratic.
    ["crowd", 20_000, () => (rand() < 0.0001 ? 1e-4 : 1e-14 + 1e-16 * rand())],
    // Shown points shared by many members: exact ties, ordered by id.
    ["tied", 800, () => Math.floor(rand() * 20) * 1e-8],
    ["large", 70_000, () => Math.floor(rand() * 5000) * 1e-9],
    // Short answers (nearest 30), sorted by insertion alone: spread, and tied by id.
    ["short", 31, () => rand() * 1e-6],
    ["short tied", 48, () => Math.floor(rand() * 4) * 1e-8],
    ["two", 2, () => 1e-8],
  ];
  for (const [name, n, draw] of shapes) {
    const a = Array.from({ length: n }, draw), m = Array.from({ length: n }, (_, i) => i);
    for (const cap of [1, 30, n - 1, n]) {
      const top = TopK.sorted(Float64Array.from(a), Int32Array.from(m), n, cap, idOf);
      assert.deepEqual(top.a.map((x, i) => `${x}:${top.m[i]}`), reference(a, m, cap, idOf), `${name}, cap ${cap}`);
    }
  }
});
