import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { listNotifications } from "../../kv/notifications.ts";
import { kv } from "../../kv/db.ts";
import { now, shiftClock } from "../../kv/clock.ts";
import { keys } from "../../kv/keys.ts";
import { newId } from "../../kv/ids.ts";
import { hitsOf, LIMITS } from "../../kv/ratelimit.ts";
import { createAccount, getAccountByEmail, setRoles } from "../../kv/accounts.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type M = Awaited<ReturnType<T["member"]>>;

const send = (t: T, from: M, to: M | null, bodyText: string, profilePicIds: string[] = []) =>
  t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: { senderProfileId: from.profileId, recipientProfileId: to?.profileId, bodyText, profilePicIds, tsCreated: 0 },
  });

Deno.test("messages - a private message reaches the recipient, with a notification, and is read once seen", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const sent = await send(t, a, b, "  Hello there  ");
    assert.equal(sent.status, 201);
    assert.equal(sent.data.bodyText, "Hello there", "trimmed");
    assert.equal(sent.data.tsRecipientRead, undefined);
    const inbox = await t.call("GET", `/api/messages/most-recent-with/${b.profileId}`, { cookie: b.cookie });
    assert.deepEqual(inbox.data.items.map((m: { bodyText: string }) => m.bodyText), ["Hello there"]);
    assert.ok(inbox.data.people[a.profileId].profileName);
    assert.equal((await listNotifications(b.profileId))[0].url, `/profile/${a.profileId}#chat`);
    const between = await t.call("GET", `/api/messages/between/${b.profileId}/${a.profileId}`, { cookie: b.cookie });
    assert.equal(between.data.items.length, 1);
    assert.equal((await t.call("PUT", `/api/messages/read/${a.profileId}`, { cookie: b.cookie })).data.marked, 1);
    const seen = await t.call("GET", `/api/messages/between/${a.profileId}/${b.profileId}`, { cookie: a.cookie });
    assert.equal(typeof seen.data.items[0].tsRecipientRead, "number", "the sender sees it was read");
    assert.equal((await t.call("PUT", `/api/messages/read/${a.profileId}`, { cookie: b.cookie })).data.marked, 0);
  } finally {
    t.close();
  }
});

Deno.test("messages - conversations list the latest per partner, newest first; pages of 20 both ways", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    for (let i = 0; i < 25; i++) assert.equal((await send(t, a, b, `ab ${i}`)).status, 201);
    await send(t, c, a, "from c");
    const list = await t.call("GET", `/api/messages/most-recent-with/${a.profileId}`, { cookie: a.cookie });
    assert.deepEqual(list.data.items.map((m: { bodyText: string }) => m.bodyText), ["from c", "ab 24"]);
    const first = await t.call("GET", `/api/messages/between/${a.profileId}/${b.profileId}`, { cookie: a.cookie });
    assert.equal(first.data.items.length, 20);
    assert.equal(first.data.hasMore, true);
    assert.equal(first.data.items[0].bodyText, "ab 24");
    const oldest = first.data.items.at(-1).id;
    const older = await t.call("GET", `/api/messages/between/${a.profileId}/${b.profileId}?beforeMessageId=${oldest}`, {
      cookie: a.cookie,
    });
    assert.deepEqual(older.data.items.map((m: { bodyText: string }) => m.bodyText), [
      "ab 4",
      "ab 3",
      "ab 2",
      "ab 1",
      "ab 0",
    ]);
    assert.equal(older.data.hasMore, false);
    const newest = first.data.items[0].id;
    await send(t, b, a, "reply");
    const since = await t.call("GET", `/api/messages/between/${a.profileId}/${b.profileId}?sinceMessageId=${newest}`, {
      cookie: a.cookie,
    });
    assert.deepEqual(since.data.items.map((m: { bodyText: string }) => m.bodyText), ["reply"]);
  } finally {
    t.close();
  }
});

Deno.test("messages - nobody reads or writes a conversation that is not theirs", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), eve = await t.member();
    await send(t, a, b, "private");
    assert.equal(
      (await t.call("GET", `/api/messages/between/${a.profileId}/${b.profileId}`, { cookie: eve.cookie })).status,
      403,
    );
    assert.equal(
      (await t.call("GET", `/api/messages/most-recent-with/${a.profileId}`, { cookie: eve.cookie })).status,
      403,
    );
    assert.equal((await t.call("GET", `/api/messages/between/${a.profileId}/${b.profileId}`)).status, 401);
    const forged = await t.call("POST", "/api/message", {
      cookie: eve.cookie,
      json: { senderProfileId: a.profileId, recipientProfileId: b.profileId, bodyText: "forged", profilePicIds: [] },
    });
    assert.equal(forged.status, 403);
    const list = await t.call("GET", `/api/messages/between/${b.profileId}/${a.profileId}`, { cookie: b.cookie });
    assert.deepEqual(list.data.items.map((m: { bodyText: string }) => m.bodyText), ["private"]);
  } finally {
    t.close();
  }
});

Deno.test("messages - bad input is a clear 400 and stores nothing", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    for (
      const [json, why] of [
        [
          { senderProfileId: a.profileId, recipientProfileId: b.profileId, bodyText: "   ", profilePicIds: [] },
          "empty",
        ],
        [{ senderProfileId: a.profileId, recipientProfileId: b.profileId, bodyText: "x".repeat(4001) }, "too long"],
        [{ senderProfileId: a.profileId, recipientProfileId: "nope", bodyText: "x" }, "bad id"],
        [{ senderProfileId: a.profileId, recipientProfileId: a.profileId, bodyText: "x" }, "to myself"],
        [{ recipientProfileId: b.profileId, bodyText: "x" }, "no sender"],
      ] as const
    ) {
      assert.equal((await t.call("POST", "/api/message", { cookie: a.cookie, json })).status, 400, why);
    }
    const max = await send(t, a, b, "y".repeat(4000));
    assert.equal(max.status, 201);
    let stored = 0;
    for await (const _ of kv().list({ prefix: ["messages"] })) stored++;
    assert.equal(stored, 1);
    assert.equal((await t.call("GET", "/api/messages/by-sector/91:0", { cookie: a.cookie })).status, 400);
    assert.equal((await t.call("GET", "/api/messages/by-sector/abc", { cookie: a.cookie })).status, 400);
  } finally {
    t.close();
  }
});

Deno.test("messages - blocked members cannot message each other and vanish from the lists", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    await send(t, a, b, "before");
    const block = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: {
        likerProfileId: a.profileId,
        likedProfileId: b.profileId,
        likeType: "UNDETERMINED",
        blocked: true,
        tsCreated: 0,
      },
    });
    assert.equal(block.status, 200);
    assert.equal((await send(t, b, a, "after")).status, 404);
    assert.equal((await send(t, a, b, "after")).status, 404);
    assert.deepEqual(
      (await t.call("GET", `/api/messages/most-recent-with/${b.profileId}`, { cookie: b.cookie })).data.items,
      [],
    );
    assert.equal(
      (await t.call("GET", `/api/messages/between/${b.profileId}/${a.profileId}`, { cookie: b.cookie })).status,
      404,
    );
  } finally {
    t.close();
  }
});

Deno.test("messages - Map Chat posts to the sender's shown sector and lists newest first, growing pages", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    t.alignClock(10 * 60_000);
    assert.equal((await send(t, a, null, "no position yet")).status, 409);
    await reportPosition(a.profileId, { lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await send(t, a, null, `hello ${i}`)).status);
    assert.deepEqual(statuses, [...Array(10).fill(201), 429, 429], "10 broadcasts in 10 minutes, then 429");
    const page0 = await t.call("GET", "/api/messages/by-sector/33:-113", { cookie: b.cookie });
    assert.equal(page0.status, 200);
    assert.equal(page0.data.items.length, 10);
    assert.equal(page0.data.items[0].bodyText, "hello 9");
    assert.equal(page0.data.items[0].recipientProfileId, undefined);
    assert.equal(page0.data.items[0].sector, "33:-113");
    assert.equal(JSON.stringify(page0.data).includes("33.45"), false, "no reported position in the answer");
    assert.deepEqual((await t.call("GET", "/api/messages/by-sector/40:-75", { cookie: b.cookie })).data.items, []);
  } finally {
    t.close();
  }
});

Deno.test("messages - standard members start at most 30 new conversations a day; Pro members have no limit", async () => {
  const t = await testApp();
  try {
    t.alignClock(24 * 60 * 60_000);
    const a = await t.member("standard@example.com");
    const others: string[] = [];
    for (let i = 0; i < 32; i++) others.push((await createAccount({ email: `r${i}@example.com` }))!.defaultProfileId);
    const to = (id: string, cookie = a.cookie, sender = a.profileId) =>
      t.call("POST", "/api/message", {
        cookie,
        json: { senderProfileId: sender, recipientProfileId: id, bodyText: "hi", profilePicIds: [] },
      });
    for (let i = 0; i < 30; i++) assert.equal((await to(others[i])).status, 201, `conversation ${i}`);
    const over = await to(others[30]);
    assert.equal(over.status, 429);
    assert.equal(over.data.error.code, "daily_limit");
    assert.equal((await to(others[0])).status, 201, "an existing conversation goes on");
    await setRoles((await getAccountByEmail("standard@example.com"))!.id, ["USER", "PRO"]);
    assert.equal((await to(others[31])).status, 201, "Pro: no limit");
  } finally {
    t.close();
  }
});

Deno.test("messages - a member who hides leaves Map Chat for others (not for themselves) and comes back on showing again", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const place = (m: M, hide: boolean) =>
      t.call("PUT", `/api/profile-position/${m.profileId}`, {
        cookie: m.cookie,
        json: { use: "OVERRIDE", overrideLat: 33.45, overrideLon: -112.07, hide },
      });
    assert.equal((await place(a, false)).status, 200);
    assert.equal((await place(b, false)).status, 200);
    assert.equal((await send(t, a, null, "from a")).status, 201);
    assert.equal((await send(t, b, null, "from b")).status, 201);
    const seen = async (
      viewer: M,
    ) => ((await t.call("GET", "/api/messages/by-sector/33:-113", { cookie: viewer.cookie })).data as {
      items: { bodyText: string }[];
      people: Record<string, unknown>;
    });
    assert.deepEqual((await seen(b)).items.map((m) => m.bodyText), ["from b", "from a"]);

    assert.equal((await place(a, true)).status, 200);
    const hidden = await seen(b);
    assert.deepEqual(hidden.items.map((m) => m.bodyText), ["from b"], "others no longer see a's post");
    assert.equal(hidden.people[a.profileId], undefined, "nor a's name");
    assert.deepEqual((await seen(a)).items.map((m) => m.bodyText), ["from b", "from a"], "a still sees their own");

    assert.equal((await place(a, false)).status, 200);
    assert.deepEqual(
      (await seen(b)).items.map((m) => m.bodyText),
      ["from b", "from a"],
      "showing again brings it back",
    );
  } finally {
    t.close();
  }
});

Deno.test("messages - Map Chat leaves out posts of members whose position lapsed (26 h without a report) until they report again", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    await reportPosition(a.profileId, { lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false });
    assert.equal((await send(t, a, null, "from a")).status, 201);
    shiftClock(27 * 3_600_000);
    const b = await t.member();
    await reportPosition(b.profileId, { lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false });
    const items = async () =>
      (await t.call("GET", "/api/messages/by-sector/33:-113", { cookie: b.cookie })).data.items as unknown[];
    // (A member who hid and stayed away 26 h has no hide flag left: their posts must stay away too.)
    assert.deepEqual(await items(), []);
    await reportPosition(a.profileId, { lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false });
    assert.equal((await items()).length, 1);
  } finally {
    t.close();
  }
});

Deno.test("messages - a send retried with its idempotency key is stored once and answers the first copy", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    await reportPosition(a.profileId, { lat: 52.37, lon: 4.9, use: "OVERRIDE", hide: false });
    const json = (to: M | null, bodyText: string) => ({
      senderProfileId: a.profileId,
      recipientProfileId: to?.profileId,
      bodyText,
      profilePicIds: [],
      tsCreated: 0,
    });
    const key = "k".repeat(8) + crypto.randomUUID().replaceAll("-", "");
    const sends = await Promise.all([1, 2, 3].map(() =>
      t.call("POST", "/api/message", {
        cookie: a.cookie,
        json: json(b, "sent once"),
        headers: { "idempotency-key": key },
      })
    ));
    assert.deepEqual(sends.map((r) => r.status), [201, 201, 201]);
    assert.equal(new Set(sends.map((r) => r.data.id)).size, 1, "every retry answers the same message");
    const between = await t.call("GET", `/api/messages/between/${b.profileId}/${a.profileId}`, { cookie: b.cookie });
    assert.deepEqual(between.data.items.map((m: { bodyText: string }) => m.bodyText), ["sent once"]);
    // Another key is another message; the same key from another member is theirs alone.
    const other = await t.call("POST", "/api/message", {
      cookie: a.cookie,
      json: json(b, "second"),
      headers: { "idempotency-key": key.replace("k", "m") },
    });
    assert.notEqual(other.data.id, sends[0].data.id);
    const fromB = await t.call("POST", "/api/message", {
      cookie: b.cookie,
      json: { ...json(a, "from b"), senderProfileId: b.profileId },
      headers: { "idempotency-key": key },
    });
    assert.equal(fromB.status, 201);
    assert.equal(fromB.data.bodyText, "from b");
    // Map Chat posts too.
    const posts = await Promise.all([1, 2].map(() =>
      t.call("POST", "/api/message", {
        cookie: a.cookie,
        json: json(null, "hello area"),
        headers: { "idempotency-key": key.replace("k", "b") },
      })
    ));
    assert.deepEqual(posts.map((r) => r.status), [201, 201]);
    assert.equal(posts[0].data.id, posts[1].data.id);
    // A malformed key is refused before anything is stored.
    const bad = await t.call("POST", "/api/message", {
      cookie: a.cookie,
      json: json(b, "bad key"),
      headers: { "idempotency-key": "short" },
    });
    assert.equal(bad.status, 400);
    const after = await t.call("GET", `/api/messages/between/${b.profileId}/${a.profileId}`, { cookie: b.cookie });
    assert.deepEqual(after.data.items.map((m: { bodyText: string }) => m.bodyText), ["from b", "second", "sent once"]);
  } finally {
    t.close();
  }
});

Deno.test("messages - the per-minute limit is exact: two sends at its last place at once store one; a refused send is not counted", async () => {
  const t = await testApp();
  try {
    t.alignClock(LIMITS.messageByAccount.windowMs); // one window for the whole test
    const a = await t.member(), b = await t.member();
    assert.equal((await send(t, a, b, "first")).status, 201);
    const accountId = (await kv().get<{ accountId: string }>(keys.profile(a.profileId))).value!.accountId;
    assert.equal(await hitsOf("messageByAccount", accountId), 1, "counted in the message's own commit");
    // A message to nobody: refused, and nothing counted.
    const nobody = await t.call("POST", "/api/message", {
      cookie: a.cookie,
      json: { senderProfileId: a.profileId, recipientProfileId: newId(), bodyText: "hello?", profilePicIds: [] },
    });
    assert.equal(nobody.status, 404);
    assert.equal(await hitsOf("messageByAccount", accountId), 1);
    // One place left under the limit, two sends at once: one is stored, the other refused.
    const window = Math.floor(now() / LIMITS.messageByAccount.windowMs);
    const max = BigInt(LIMITS.messageByAccount.max);
    await kv().set(keys.rateLimitCount("messageByAccount", window, accountId), new Deno.KvU64(max - 1n));
    const both = await Promise.all([send(t, a, b, "one"), send(t, a, b, "two")]);
    assert.deepEqual(both.map((r) => r.status).sort(), [201, 429]);
    assert.equal(await hitsOf("messageByAccount", accountId), Number(max));
    const seen = await t.call("GET", `/api/messages/between/${b.profileId}/${a.profileId}`, { cookie: b.cookie });
    assert.equal(seen.data.items.length, 2, "the first and one of the two");
  } finally {
    t.close();
  }
});
