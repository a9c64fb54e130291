import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { startKeptReads } from "../../kv/kept.ts";
import { eventBus } from "../../kv/events.ts";
import { kv, wrapKv } from "../../kv/db.ts";
import { holdClock, now } from "../../kv/clock.ts";
import { keys } from "../../kv/keys.ts";
import { LIMITS } from "../../kv/ratelimit.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type M = Awaited<ReturnType<T["member"]>>;

const send = async (t: T, from: M, to: M, bodyText: string) => {
  const r = await t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText, profilePicIds: [] },
  });
  assert.equal(r.status, 201, r.text);
  return r.data.id as string;
};

/** Whether `to` sees the newest message from `from` held as spam. */
const newestHeld = async (t: T, to: M, from: M) =>
  (await t.call("GET", `/api/messages/between/${to.profileId}/${from.profileId}`, { cookie: to.cookie })).data
    .items[0].held === true;

const LINK = "Hot pics at www.example-cams.com";

/** Two members, each from an address of its own in 10.n.0.0/24. */
const pair = async (t: T, n: number) => [
  await t.member(undefined, { address: `10.${n}.0.1` }),
  await t.member(undefined, { address: `10.${n}.0.2` }),
];

/**
 * As the server runs: reads kept by the instance (a conversation found past its first messages is
 * one of them), forgotten through the change log.
 */
async function withKeptReads(fn: (t: T) => Promise<void>) {
  const t = await testApp();
  startKeptReads();
  await eventBus().log.tail();
  try {
    await fn(t);
  } finally {
    await eventBus().stop();
    t.close();
  }
}

Deno.test("messages with kept reads - a conversation deleted from the sender's side is in its first messages again: a link is held", async () => {
  await withKeptReads(async (t) => {
    const [a, b] = await pair(t, 1);
    for (const text of ["hi", "how are you", "still there?"]) await send(t, a, b, text);
    // Past its first messages (three sent): a link goes through, and the instance keeps that it is past them.
    await send(t, a, b, `Look: ${LINK}`);
    assert.equal(await newestHeld(t, b, a), false);
    const deleted = await t.call("DELETE", `/api/messages/with/${b.profileId}`, { cookie: a.cookie });
    assert.equal(deleted.status, 200);
    // Nothing left on the sender's side: the next message is a first message again.
    await send(t, a, b, LINK);
    assert.equal(await newestHeld(t, b, a), true);
  });
});

Deno.test("messages with kept reads - a conversation with messages unsent is in its first messages again: a link is held", async () => {
  await withKeptReads(async (t) => {
    const [a, b] = await pair(t, 2);
    const ids = [];
    for (const text of ["hi", "how are you", "still there?"]) ids.push(await send(t, a, b, text));
    await send(t, a, b, `Look: ${LINK}`);
    assert.equal(await newestHeld(t, b, a), false);
    // Three unsent: one plain message and the link are left, sent before the other replied.
    for (const id of [...ids.slice(1), await send(t, a, b, "and another")]) {
      assert.equal((await t.call("DELETE", `/api/message/${id}?for=both`, { cookie: a.cookie })).status, 200);
    }
    await send(t, a, b, LINK);
    assert.equal(await newestHeld(t, b, a), true);
  });
});

Deno.test("messages with kept reads - once the other replied, a link is not held however many messages follow", async () => {
  await withKeptReads(async (t) => {
    const [a, b] = await pair(t, 3);
    await send(t, a, b, "hi");
    await send(t, b, a, "hello");
    for (let i = 0; i < 3; i++) {
      await send(t, a, b, `${LINK} ${i}`);
      assert.equal(await newestHeld(t, b, a), false);
    }
  });
});

Deno.test("messages with kept reads - a conversation deleted from the sender's side is a new one again: a member who takes only verified senders refuses it", async () => {
  await withKeptReads(async (t) => {
    const [a, b] = await pair(t, 4);
    for (const text of ["hi", "how are you", "still there?", "hello?"]) await send(t, a, b, text);
    // b takes only verified senders from now on: a conversation already going goes on.
    const on = await t.call("PUT", "/api/settings/verified-only", { cookie: b.cookie, json: { on: true } });
    assert.equal(on.status, 200);
    await send(t, a, b, "are you there?");
    assert.equal((await t.call("DELETE", `/api/messages/with/${b.profileId}`, { cookie: a.cookie })).status, 200);
    const refused = await t.call("POST", "/api/message", {
      cookie: a.cookie,
      json: { senderProfileId: a.profileId, recipientProfileId: b.profileId, bodyText: "hi again", profilePicIds: [] },
    });
    assert.equal(refused.status, 403);
    assert.equal(refused.data.error.code, "recipient_verified_only");
  });
});

Deno.test("messages with kept reads - a message in a conversation known to be going reads only its every-message count, and is still counted", async () => {
  await withKeptReads(async (t) => {
    const [a, b] = await pair(t, 5);
    // Every send in one minute of the message limit.
    holdClock();
    for (const text of ["hi", "how are you", "still there?", "hello?"]) await send(t, a, b, text);
    // The keys read one by one from here (the rate limits' counts among them).
    let read: Deno.KvKey[] = [];
    wrapKv((db) =>
      new Proxy(db, {
        get(target, prop) {
          if (prop === "get") {
            return (key: Deno.KvKey, o?: { consistency?: Deno.KvConsistencyLevel }) => {
              read.push(key);
              return target.get(key, o);
            };
          }
          const v = Reflect.get(target, prop, target);
          return typeof v === "function" ? v.bind(target) : v;
        },
      })
    );
    // The instance keeps its reads on the new handle: the next send finds the conversation past its first messages again.
    startKeptReads();
    await eventBus().log.tail();
    await send(t, a, b, "are you there?");
    read = [];
    await send(t, a, b, "one more");
    // A new conversation's daily counts decide nothing here: only the message limit's count is read.
    const counts = read.filter((k) => k[0] === keys.rateLimitCountsOf("messageByAccount")[0]);
    assert.deepEqual(counts.map((k) => k[1]), ["messageByAccount"]);
    // The message limit still counts every message: 6 sent in the minute.
    const window = Math.floor(now() / LIMITS.messageByAccount.windowMs);
    const account = (await getAccountByEmail(a.email))!.id;
    const count = await kv().get<Deno.KvU64>(keys.rateLimitCount("messageByAccount", window, account));
    assert.equal(count.value?.value, 6n);
  });
});
