import assert from "node:assert/strict";
import { closeKv, kv, openKv } from "./db.ts";
import { resetClock, shiftClock } from "./clock.ts";
import { FEED_LEASE_MS, liveFeedCounts, releaseFeed, renewFeedLeases, reserveFeed } from "./feeds.ts";

const caps = { perMember: 10, perAddress: 100 };

Deno.test("feeds - a member's feeds past the cap replace the oldest; an address at its cap is refused; no raw address stored", async () => {
  await openKv(":memory:");
  try {
    const first = [];
    for (let i = 0; i < 10; i++) first.push((await reserveFeed("m1", "198.51.100.7", caps))!);
    assert.ok(first.every((r) => r.replaced.length === 0));
    const eleventh = (await reserveFeed("m1", "198.51.100.7", caps))!;
    assert.deepEqual(eleventh.replaced, [first[0].lease.id], "the oldest goes");
    assert.deepEqual(await liveFeedCounts("m1", "198.51.100.7"), { member: 10, address: 10 });

    const small = { perMember: 10, perAddress: 12 };
    assert.ok(await reserveFeed("m2", "198.51.100.7", small));
    assert.ok(await reserveFeed("m2", "198.51.100.7", small));
    assert.equal(await reserveFeed("m3", "198.51.100.7", small), null, "the address is full");
    assert.ok(await reserveFeed("m3", "203.0.113.1", small), "another address is not");
    await releaseFeed(eleventh.lease);
    assert.ok(await reserveFeed("m3", "198.51.100.7", small), "a released place is free");

    for await (const e of kv().list({ prefix: [] })) {
      assert.doesNotMatch(
        Deno.inspect([e.key, e.value], { depth: 10 }),
        /198\.51\.100\.7|203\.0\.113\.1/,
        "addresses are hashed",
      );
    }
  } finally {
    closeKv();
  }
});

Deno.test("feeds - leases of an instance that died run out; renewed ones hold", async () => {
  await openKv(":memory:");
  try {
    const dead = [];
    for (let i = 0; i < 10; i++) dead.push((await reserveFeed("m1", "10.0.0.1", caps))!.lease);
    const alive = (await reserveFeed("m2", "10.0.0.1", caps))!.lease;
    shiftClock(FEED_LEASE_MS / 2);
    await renewFeedLeases([alive]);
    shiftClock(FEED_LEASE_MS / 2 + 1);
    assert.deepEqual(await liveFeedCounts("m1", "10.0.0.1"), { member: 0, address: 1 }, "only the renewed one holds");
    const next = (await reserveFeed("m1", "10.0.0.1", caps))!;
    assert.deepEqual(next.replaced, [], "nothing left to replace");
  } finally {
    resetClock();
    closeKv();
  }
});
