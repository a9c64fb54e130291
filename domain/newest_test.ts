import assert from "node:assert/strict";
import { setNewest } from "./newest.ts";

Deno.test("setNewest keeps the newest entries: a key set again becomes the newest, the oldest goes first", () => {
  const m = new Map<string, number>();
  for (const [k, v] of [["a", 1], ["b", 2], ["c", 3]] as const) setNewest(m, k, v, 3);
  setNewest(m, "a", 4, 3);
  assert.deepEqual([...m], [["b", 2], ["c", 3], ["a", 4]]);
  setNewest(m, "d", 5, 3);
  assert.deepEqual([...m], [["c", 3], ["a", 4], ["d", 5]]);
});
