import assert from "node:assert/strict";
import { countedKv, criticalPath, tripsOf } from "./roundTrips.ts";

Deno.test("round trips - calls started together count once, calls one after another each count", async () => {
  const db = countedKv(await Deno.openKv(":memory:"), 2);
  try {
    await db.set(["a"], 1);
    const { trips } = await tripsOf(async () => {
      await Promise.all([db.get(["a"]), db.get(["b"]), db.getMany([["a"], ["b"]])]);
      const e = await db.get<number>(["a"]);
      await db.atomic().check(e).set(["a"], 2).commit();
    });
    assert.equal(trips.calls, 5);
    assert.equal(trips.sequential, 3);
    assert.deepEqual(trips.names.slice(3), ["get", "commit"]);
  } finally {
    db.close();
  }
});

Deno.test("round trips - a list pays one trip a batch it fetches", async () => {
  const db = countedKv(await Deno.openKv(":memory:"), 1);
  try {
    for (let i = 0; i < 25; i++) await db.set(["x", i], i);
    const { trips } = await tripsOf(async () => {
      for await (const _ of db.list({ prefix: ["x"] }, { batchSize: 10 })) { /* all 25 */ }
    });
    // Batches of 10, 10 and 5: three fetches, one after another.
    assert.equal(trips.sequential, 3);
    const small = await tripsOf(async () => {
      for await (const _ of db.list({ prefix: ["x"] }, { limit: 3 })) { /* 3 */ }
    });
    assert.equal(small.trips.sequential, 1);
  } finally {
    db.close();
  }
});

Deno.test("round trips - the critical path is the longest chain of calls each begun after the last ended", () => {
  assert.equal(criticalPath([]), 0);
  assert.equal(criticalPath([{ start: 0, end: 5 }, { start: 1, end: 6 }]), 1);
  assert.equal(
    criticalPath([{ start: 0, end: 5 }, { start: 5, end: 9 }, { start: 2, end: 3 }, { start: 3, end: 4 }]),
    3,
  );
});
