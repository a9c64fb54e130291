import assert from "node:assert/strict";
import { kvTest } from "../tests/kv.ts";
import { getAll, kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { flushHealthSpends, monthOf, pendingSpends, reserveReport } from "./healthSpends.ts";

kvTest(
  "health spends - 150 counts kept the way they were before all move at the next flush (as many a commit as the store takes)",
  async () => {
    const month = monthOf(now());
    const senders = Array.from({ length: 150 }, (_, i) => `sender${String(i).padStart(3, "0")}`);
    for (const s of senders) await kv().set(keys.healthReportCount(s, month), 2);
    await flushHealthSpends();
    const left = await Array.fromAsync(kv().list({ prefix: keys.healthReportCountsAll() }));
    assert.equal(left.length, 0, "every old count moved and deleted");
    const moved = await Array.fromAsync(kv().list<Deno.KvU64>({ prefix: keys.healthMonthCounts(month) }));
    assert.equal(moved.length, 150);
    assert.ok(moved.every((e) => e.value.value === 2n));
  },
);

kvTest(
  "health spends - twelve first reports and the month's other counts in one flush: every count, and the senders' credit rows, share one versionstamp; each first report is credited once",
  async () => {
    const month = monthOf(now());
    const day = Math.floor(now() / (24 * 3_600_000));
    const before = ["old0", "old1", "old2"];
    for (const s of before) await kv().set(keys.healthMonthCount(month, s), new Deno.KvU64(1n));
    const firsts = Array.from({ length: 12 }, (_, i) => `first${String(i).padStart(2, "0")}`);
    for (const s of [...before, ...firsts]) await kv().set(keys.profile(s), { id: s, accountId: `account-${s}` });
    for (const s of firsts) assert.ok(await reserveReport(s, 2));
    await flushHealthSpends();
    assert.equal(pendingSpends(), 0);
    const counts = await Array.fromAsync(kv().list<Deno.KvU64>({ prefix: keys.healthMonthCounts(month) }));
    assert.deepEqual(counts.map((e) => [e.key[2], e.value.value]), [...before, ...firsts].sort().map((s) => [s, 1n]));
    const stamp = counts[0].versionstamp;
    assert.ok(counts.every((e) => e.versionstamp === stamp), "one versionstamp: no count tells which flush wrote it");
    const credits = await getAll<Deno.KvU64 | number>(
      firsts.flatMap((s) => [keys.gameCredits(s), keys.gameCreditsDay(s, day)]),
    );
    assert.deepEqual(
      credits.map((e) => e.value instanceof Deno.KvU64 ? e.value.value : e.value),
      firsts.flatMap(() => [1n, 1]),
    );
    assert.ok(credits.every((e) => e.versionstamp === stamp), "the credit rows too");
    // The next flush adds nothing and credits no one again.
    await flushHealthSpends();
    assert.equal((await kv().get<Deno.KvU64>(keys.gameCredits(firsts[0]))).value?.value, 1n);
  },
);
