import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { kv } from "../../kv/db.ts";
import { shiftClock } from "../../kv/clock.ts";
import { keys } from "../../kv/keys.ts";
import { listNotifications } from "../../kv/notifications.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type M = Awaited<ReturnType<T["member"]>>;

const send = async (t: T, from: M, to: M, bodyText: string, profilePicIds: string[] = []) => {
  const r = await t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText, profilePicIds },
  });
  assert.equal(r.status, 201, r.text);
  return r.data.id as string;
};
const texts = async (t: T, me: M, other: M) =>
  (await t.call("GET", `/api/messages/between/${me.profileId}/${other.profileId}`, { cookie: me.cookie })).data.items
    .map((m: { bodyText: string }) => m.bodyText);
const conversations = async (t: T, me: M) =>
  (await t.call("GET", `/api/messages/most-recent-with/${me.profileId}`, { cookie: me.cookie })).data.items
    .map((m: { bodyText: string }) => m.bodyText);

Deno.test("messages - delete for me: it leaves my side only; my list points at the message before it", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    await send(t, a, b, "one");
    const two = await send(t, a, b, "two");
    const del = await t.call("DELETE", `/api/message/${two}?for=me`, { cookie: a.cookie });
    assert.deepEqual([del.status, del.data], [200, { deleted: "me" }]);
    assert.deepEqual(await texts(t, a, b), ["one"]);
    assert.deepEqual(await conversations(t, a), ["one"], "my list shows the message before it");
    assert.deepEqual(await texts(t, b, a), ["two", "one"], "the other side keeps it");
    assert.equal(
      typeof (await kv().get<{ tsSenderDeleted?: number }>(keys.message(two))).value?.tsSenderDeleted,
      "number",
    );
    // Deleted on both sides one by one: the record goes.
    assert.equal((await t.call("DELETE", `/api/message/${two}`, { cookie: b.cookie })).status, 200);
    assert.equal((await kv().get(keys.message(two))).value, null);
    // Twice, or by someone else: 404.
    assert.equal((await t.call("DELETE", `/api/message/${two}?for=me`, { cookie: a.cookie })).status, 404);
    const c = await t.member();
    const one = (await t.call("GET", `/api/messages/between/${b.profileId}/${a.profileId}`, { cookie: b.cookie })).data
      .items[0].id;
    assert.equal((await t.call("DELETE", `/api/message/${one}`, { cookie: c.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/message/${one}?for=nobody`, { cookie: a.cookie })).status, 400);
    assert.equal((await t.call("DELETE", `/api/message/not-an-id`, { cookie: a.cookie })).status, 400);
    assert.equal((await t.call("DELETE", `/api/message/${one}`)).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("messages - unsend: its sender deletes it for both within 10 minutes, not after; the recipient cannot", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    await send(t, a, b, "hello");
    const oops = await send(t, a, b, "wrong chat!");
    assert.equal((await t.call("DELETE", `/api/message/${oops}?for=both`, { cookie: b.cookie })).status, 403);
    const del = await t.call("DELETE", `/api/message/${oops}?for=both`, { cookie: a.cookie });
    assert.deepEqual([del.status, del.data], [200, { deleted: "both" }]);
    assert.deepEqual(await texts(t, a, b), ["hello"]);
    assert.deepEqual(await texts(t, b, a), ["hello"]);
    assert.deepEqual(await conversations(t, b), ["hello"]);
    assert.equal((await kv().get(keys.message(oops))).value, null);
    const late = await send(t, a, b, "too late to take back");
    shiftClock(10 * 60_000 + 1000);
    const refused = await t.call("DELETE", `/api/message/${late}?for=both`, { cookie: a.cookie });
    assert.deepEqual([refused.status, refused.data.error.code], [409, "too_late"]);
    assert.deepEqual(await texts(t, b, a), ["too late to take back", "hello"]);
  } finally {
    t.close();
  }
});

Deno.test("messages - unsend a private picture: its grant ends with it", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const picId = "01a20d4312173ea0f79744886914";
    await kv().set(keys.profile(a.profileId), {
      ...(await kv().get<Record<string, unknown>>(keys.profile(a.profileId))).value,
      profilePicIds: [],
      profilePicIdsPrivate: [picId],
    });
    const id = await send(t, a, b, "", [picId]);
    assert.notEqual((await kv().get(keys.picGrant(picId, b.profileId))).versionstamp, null);
    assert.equal((await t.call("DELETE", `/api/message/${id}?for=both`, { cookie: a.cookie })).status, 200);
    assert.equal((await kv().get(keys.picGrant(picId, b.profileId))).versionstamp, null);
  } finally {
    t.close();
  }
});

Deno.test("messages - delete a conversation from my list; it comes back when the other writes again", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    for (let i = 0; i < 45; i++) await send(t, i % 2 ? a : b, i % 2 ? b : a, `m${i}`);
    await send(t, c, a, "from c");
    const notices = async () => (await listNotifications(a.profileId)).map((n) => n.url);
    assert.ok((await notices()).includes(`/profile/${b.profileId}#chat`));
    const del = await t.call("DELETE", `/api/messages/with/${b.profileId}`, { cookie: a.cookie });
    assert.deepEqual([del.status, del.data], [200, { deleted: 45 }]);
    assert.ok(!(await notices()).includes(`/profile/${b.profileId}#chat`), "its notification goes with it");
    assert.ok((await notices()).includes(`/profile/${c.profileId}#chat`), "others stay");
    assert.deepEqual(await conversations(t, a), ["from c"]);
    assert.deepEqual(await texts(t, a, b), []);
    assert.equal((await texts(t, b, a)).length, 20, "the other side keeps every message");
    await send(t, b, a, "are you there?");
    assert.deepEqual(await conversations(t, a), ["are you there?", "from c"]);
    assert.deepEqual(await texts(t, a, b), ["are you there?"]);
    assert.equal((await t.call("DELETE", `/api/messages/with/x`, { cookie: a.cookie })).status, 400);
  } finally {
    t.close();
  }
});
