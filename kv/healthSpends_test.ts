import assert from "node:assert/strict";
import { kvTest } from "../tests/kv.ts";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { flushHealthSpends, monthOf } from "./healthSpends.ts";

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
