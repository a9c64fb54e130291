import assert from "node:assert/strict";
import { kvTest } from "../tests/kv.ts";
import { closeKv, kv, openKv } from "./db.ts";
import { now, resetClock, shiftClock } from "./clock.ts";
import { keys } from "./keys.ts";
import { hit, hitLimit, hitsOf, LIMITS } from "./ratelimit.ts";

const HOUR = 3_600_000;

/** Moves the clock just past the start of a window, so a test's hits never straddle two. */
function alignClock(windowMs: number) {
  shiftClock(windowMs - (now() % windowMs) + 1000);
}

async function countOf(scope: string, windowMs: number, who: string): Promise<number> {
  const key = keys.rateLimitCount(scope, Math.floor(now() / windowMs), who);
  return Number((await kv().get<Deno.KvU64>(key)).value?.value ?? 0n);
}

kvTest("ratelimit - 200 concurrent hits under a limit of 1000: none refused, all counted", async () => {
  alignClock(HOUR);
  const limit = { max: 1000, windowMs: HOUR };
  const allowed = await Promise.all(Array.from({ length: 200 }, () => hitLimit("busy", limit, "acct")));
  assert.equal(allowed.filter((ok) => !ok).length, 0, "no hit refused for being busy");
  assert.equal(await countOf("busy", HOUR, "acct"), 200, "every hit counted, exactly");
});

Deno.test("ratelimit - concurrent hits on a KV file: none refused, all counted", async () => {
  const dir = await Deno.makeTempDir();
  await openKv(`${dir}/rl.kv`);
  try {
    alignClock(HOUR);
    const limit = { max: 1000, windowMs: HOUR };
    const allowed = await Promise.all(Array.from({ length: 200 }, () => hitLimit("busy", limit, "acct")));
    assert.equal(allowed.filter((ok) => !ok).length, 0);
    assert.equal(await countOf("busy", HOUR, "acct"), 200);
  } finally {
    resetClock();
    closeKv();
    await Deno.remove(dir, { recursive: true });
  }
});

kvTest("ratelimit - 20 concurrent uploads of one account (limit 60 an hour) are all allowed", async () => {
  alignClock(LIMITS.uploadByAccount.windowMs);
  const allowed = await Promise.all(Array.from({ length: 20 }, () => hit("uploadByAccount", "acct")));
  assert.deepEqual(allowed, Array(20).fill(true));
  assert.equal(await hitsOf("uploadByAccount", "acct"), 20);
});

kvTest("ratelimit - over the limit is refused, also in a concurrent burst, and never one too many", async () => {
  alignClock(HOUR);
  const limit = { max: 50, windowMs: HOUR };
  for (let i = 0; i < 50; i++) assert.equal(await hitLimit("edge", limit, "a"), true, `hit ${i + 1} is within`);
  assert.equal(await hitLimit("edge", limit, "a"), false, "the 51st is refused");
  assert.equal(await hitLimit("edge", limit, "a"), false, "and so is the next");
  const burst = await Promise.all(Array.from({ length: 100 }, () => hitLimit("edge", limit, "b")));
  const allowed = burst.filter(Boolean).length;
  assert.ok(allowed <= 50, `a burst of 100 allows at most the limit (allowed ${allowed})`);
  assert.equal(await countOf("edge", HOUR, "b"), 100, "refused hits are counted too");
  assert.equal(await hitLimit("edge", limit, "c"), true, "another caller has its own count");
});

kvTest("ratelimit - the window resets, and the counts of ended windows are swept", async () => {
  alignClock(HOUR);
  const limit = { max: 3, windowMs: HOUR };
  for (let i = 0; i < 3; i++) await hitLimit("reset", limit, "a");
  assert.equal(await hitLimit("reset", limit, "a"), false);
  shiftClock(HOUR);
  assert.equal(await hitLimit("reset", limit, "a"), true, "a new window starts at zero");
  shiftClock(2 * HOUR);
  await hitLimit("reset", limit, "b");
  const left = [];
  for await (const e of kv().list({ prefix: keys.rateLimitCountsOf("reset") })) left.push(e.key);
  assert.equal(left.length, 1, "only the current window's count is left");
  assert.equal(left[0].at(-1), "b");
});
