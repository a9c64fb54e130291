import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { streamText } from "../../tests/sse.ts";
import { eventBus } from "../../kv/events.ts";
import { markSeen } from "../../kv/presence.ts";
import { TYPING_SERVER_GAP_MS } from "../../domain/typing.ts";
import { holdClock, resetClock, shiftClock } from "../../kv/clock.ts";
import { blockIndexOps } from "../../kv/blocks.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { until } from "../../tests/wait.ts";
import type { MemberEvent } from "../../domain/shapes/events.ts";

Deno.test("presence - online while a page is open, then last seen; hiding one's own hides everyone's from them", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const ask = async (who: typeof a, ids: string[]) =>
      (await t.call("GET", `/api/presence?ids=${ids.join(",")}`, { cookie: who.cookie })).data;
    assert.deepEqual(await ask(b, [a.profileId]), { [a.profileId]: { online: false, lastSeen: null } });
    // A's page opens the live stream.
    const events = await streamText(
      await t.app.request("http://localhost/api/events", { headers: { cookie: a.cookie } }),
    );
    assert.ok(await events.until("event: ready"), "the stream is ready");
    await events.close();
    // The stream marks A seen as it opens, in the background: stored before the clock moves, so
    // that no mark stamped after the move makes A online again.
    await until(async () => (await kv().get(keys.presence(a.profileId))).value, "the stream's mark stored");
    await markSeen(a.profileId);
    const seen = (await kv().get<number>(keys.presence(a.profileId))).value!;
    // B is told A's last seen to the five minutes, then the hour, then the day: never the exact time.
    const fives = Math.floor(seen / 300_000) * 300_000;
    assert.deepEqual((await ask(b, [a.profileId]))[a.profileId], { online: true, lastSeen: fives });
    shiftClock(5 * 60_000);
    assert.deepEqual((await ask(b, [a.profileId]))[a.profileId], { online: false, lastSeen: fives });
    shiftClock(3 * 3_600_000);
    const hour = Math.floor(seen / 3_600_000) * 3_600_000;
    assert.deepEqual((await ask(b, [a.profileId]))[a.profileId], { online: false, lastSeen: hour });
    // A's own is as stored.
    assert.deepEqual((await ask(a, [a.profileId]))[a.profileId], { online: false, lastSeen: seen });
    // Seen three days before (written so, as sessions would not live through three days of the clock).
    const earlier = seen - 3 * 86_400_000, day = Math.floor(earlier / 86_400_000) * 86_400_000;
    await kv().set(keys.presence(a.profileId), earlier);
    assert.deepEqual((await ask(b, [a.profileId]))[a.profileId], { online: false, lastSeen: day });
    // A hides: nobody sees A's, and A sees nobody's.
    assert.deepEqual((await t.call("PUT", "/api/presence", { cookie: a.cookie, json: { hidden: true } })).data, {
      hidden: true,
    });
    assert.deepEqual(await ask(b, [a.profileId]), { [a.profileId]: null });
    assert.deepEqual(await ask(a, [b.profileId]), { [b.profileId]: null });
    assert.equal((await t.call("GET", "/api/presence?ids=", { cookie: b.cookie })).status, 400);
    assert.equal((await t.call("GET", `/api/presence?ids=${"x,".repeat(60)}x`, { cookie: b.cookie })).status, 400);
  } finally {
    t.close();
  }
});

Deno.test("presence - typing is told to the other member live, at most once per least gap; never to or from a block", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    const bus = eventBus();
    await bus.start();
    const got: MemberEvent[] = [];
    const stop = bus.subscribe(b.profileId, (e) => got.push(e));
    // The server's clock held still across the three calls, however slow the machine.
    holdClock();
    for (let i = 0; i < 3; i++) {
      assert.equal((await t.call("POST", `/api/typing/${b.profileId}`, { cookie: a.cookie })).status, 204);
    }
    await bus.tail();
    assert.deepEqual(got, [{ type: "typing", from: a.profileId }], "one event for three tellings within the gap");
    shiftClock(TYPING_SERVER_GAP_MS - 1);
    assert.equal((await t.call("POST", `/api/typing/${b.profileId}`, { cookie: a.cookie })).status, 204);
    await bus.tail();
    assert.equal(got.length, 1, "not told again just before the least gap has passed");
    shiftClock(1);
    assert.equal((await t.call("POST", `/api/typing/${b.profileId}`, { cookie: a.cookie })).status, 204);
    await bus.tail();
    assert.equal(got.length, 2, "told again once the least gap has passed (a new round right after a message)");
    stop();
    assert.equal(
      (await t.call("POST", `/api/typing/${a.profileId}`, { cookie: a.cookie })).status,
      404,
      "not to oneself",
    );
    const op = kv().atomic();
    blockIndexOps(op, c.profileId, b.profileId, true, Date.now());
    await op.commit();
    assert.equal((await t.call("POST", `/api/typing/${b.profileId}`, { cookie: c.cookie })).status, 404);
    assert.equal((await t.call("POST", `/api/typing/${b.profileId}`)).status, 401);
  } finally {
    resetClock();
    t.close();
  }
});
