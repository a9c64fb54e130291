import assert from "node:assert/strict";
import { kvTest } from "../kv.ts";
import { kv } from "../../kv/db.ts";
import { bringUpToDate, countWrites, kvChanges, kvSnapshot } from "./kit.ts";

kvTest("security kit - a snapshot brought up to date from the keys written is the whole store's snapshot", async () => {
  await kv().set(["a"], 1);
  await kv().set(["b"], 2);
  const writes = countWrites(kv());
  const before = await kvSnapshot();
  // Every kind of write: a set, a delete, sums, a key ending with its commit's versionstamp, and
  // an atomic whose check fails (it writes nothing); a rate-limit count is not in a snapshot.
  await kv().set(["c"], 3);
  await kv().delete(["a"]);
  await kv().atomic().set(["log", kv().commitVersionstamp()], "x").sum(["n"], 1n).set(["b"], 4).commit();
  await kv().atomic().check({ key: ["b"], versionstamp: null }).set(["d"], 5).commit();
  await kv().set(["rate_limit_counts", "x"], 1);
  const touched = writes.touched();
  assert.ok(touched !== null && touched.length === 5, JSON.stringify(touched));
  const updated = new Map(before);
  const changes = await bringUpToDate(updated, touched);
  assert.deepEqual(updated, await kvSnapshot());
  // What it says changed is what changed: the same words as the two snapshots compared.
  assert.deepEqual(changes.toSorted(), kvChanges(before, updated).toSorted());
  assert.equal(changes.length, 5, changes.join("; "));
  // Asked again, nothing more was written.
  assert.deepEqual(writes.touched(), []);
});

kvTest("security kit - writes whose keys are not known bring the whole store listed", async () => {
  const writes = countWrites(kv());
  const before = await kvSnapshot();
  await kv().atomic().mutate({ type: "set", key: ["m"], value: 1 }).commit();
  assert.equal(writes.count, 1);
  assert.equal(writes.touched(), null);
  const updated = new Map(before);
  assert.deepEqual(await bringUpToDate(updated, null), kvChanges(before, await kvSnapshot()));
  assert.deepEqual(updated, await kvSnapshot());
  assert.deepEqual(writes.touched(), []);
});
