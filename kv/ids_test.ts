import assert from "node:assert/strict";
import { idTime, isId, newId } from "./ids.ts";

Deno.test("ids - ids made in one millisecond still sort in the order they were made", () => {
  const at = Date.now();
  const ids = Array.from({ length: 1000 }, () => newId(at));
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, 1000);
  assert.ok(ids.every(isId));
  assert.equal(idTime(ids[0]), at);
});

Deno.test("ids - a later time sorts later; an earlier clock never goes back", () => {
  const a = newId(Date.now() + 10_000);
  const b = newId(Date.now());
  assert.ok(b > a, "ids keep rising even when the clock steps back");
  assert.ok(newId(Date.now() + 20_000) > b);
});
