import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { shiftClock } from "../../kv/clock.ts";
import { getProfile } from "../../kv/profiles.ts";
import { eventBus } from "../../kv/events.ts";
import { picRecord } from "../../tests/fixtures/pictures.ts";
import type { MemberEvent } from "../../domain/shapes/events.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type M = Awaited<ReturnType<T["member"]>>;

/** Gives `m` one public and one private picture (records only: this reads no bytes). */
async function pictures(m: M): Promise<{ pub: string; priv: string }> {
  const p = (await getProfile(m.profileId))!;
  const [pub, priv] = [picRecord({ profileId: p.id }), picRecord({ profileId: p.id })];
  await kv().atomic().set(keys.pic(pub.id), pub).set(keys.pic(priv.id), priv)
    .set(keys.profile(p.id), { ...p, profilePicIds: [pub.id], profilePicIdsPrivate: [priv.id] }).commit();
  return { pub: pub.id, priv: priv.id };
}

const send = (t: T, a: M, b: M, profilePicIds: string[], viewOnce?: boolean) =>
  t.call("POST", "/api/message", {
    cookie: a.cookie,
    json: { senderProfileId: a.profileId, recipientProfileId: b.profileId, bodyText: "", profilePicIds, viewOnce },
  });

Deno.test("messages - a view-once private picture opens once for its recipient, a minute long; the sender sees it opened", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const { pub, priv } = await pictures(a);
    const facts = (who: M) => t.call("GET", `/api/profile/pic/${priv}`, { cookie: who.cookie });
    assert.equal((await send(t, a, b, [pub], true)).status, 400, "view once is for private pictures");
    const sent = await send(t, a, b, [priv], true);
    assert.equal(sent.status, 201, sent.text);
    assert.equal(sent.data.viewOnce, true);
    assert.equal((await facts(b)).status, 404, "not visible before it is opened");

    const bus = eventBus();
    await bus.start();
    const told: MemberEvent[] = [];
    const stop = bus.subscribe(a.profileId, (e) => told.push(e));
    const open = await t.call("POST", `/api/message/${sent.data.id}/open`, { cookie: b.cookie });
    assert.equal(open.status, 200, open.text);
    assert.deepEqual(open.data.picIds, [priv]);
    assert.equal((await facts(b)).status, 200, "visible right after opening");
    assert.equal((await t.call("POST", `/api/message/${sent.data.id}/open`, { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("POST", `/api/message/${sent.data.id}/open`, { cookie: a.cookie })).status, 404);
    await bus.tail();
    stop();
    assert.ok(told.some((e) => e.type === "opened" && e.id === sent.data.id), "the sender's pages hear it");
    const mine = await t.call("GET", `/api/messages/between/${a.profileId}/${b.profileId}`, { cookie: a.cookie });
    assert.equal(typeof mine.data.items[0].tsOpened, "number", "the sender sees it opened");
    shiftClock(61_000);
    assert.equal((await facts(b)).status, 404, "gone a minute later");
    // An ordinary message with the same private picture grants it for good.
    assert.equal((await send(t, a, b, [priv])).status, 201);
    assert.equal((await facts(b)).status, 200);
  } finally {
    t.close();
  }
});
