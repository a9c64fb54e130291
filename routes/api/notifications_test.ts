import assert from "node:assert/strict";
import { createECDH, randomBytes } from "node:crypto";
import ece from "http_ece";
import { Buffer } from "node:buffer";
import { testApp } from "../../tests/api.ts";
import { listNotifications, notify } from "../../kv/notifications.ts";
import { putPicLike, putProfileLike } from "../../kv/likes.ts";
import { listPushSubscriptions } from "../../kv/push.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { shiftClock } from "../../kv/clock.ts";
import { getProfile } from "../../kv/profiles.ts";
import { picRecord } from "../../tests/fixtures/pictures.ts";
import type { JobRecord } from "../../kv/jobs.ts";

const b64url = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

Deno.test("notifications - a member lists and deletes only their own", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const b = await t.member();
    const n = await notify(a.profileId, { bodyText: "Someone liked your profile", url: "/likes/profilelikedyou" });
    const list = await t.call("GET", `/api/notifications/${a.profileId}`, { cookie: a.cookie });
    assert.equal(list.status, 200);
    assert.deepEqual(list.data.map((x: { bodyText: string }) => x.bodyText), ["Someone liked your profile"]);
    assert.equal(list.data[0].url, "/likes/profilelikedyou");
    assert.equal((await t.call("GET", `/api/notifications/${a.profileId}`, { cookie: b.cookie })).status, 403);
    assert.equal((await t.call("GET", `/api/notifications/${a.profileId}`)).status, 401);
    assert.equal((await t.call("DELETE", `/api/notification/${n.id}`, { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/notification/${n.id}`, { cookie: a.cookie })).status, 200);
    assert.deepEqual((await t.call("GET", `/api/notifications/${a.profileId}`, { cookie: a.cookie })).data, []);
  } finally {
    t.close();
  }
});

Deno.test("notifications - push devices: only known push services, listed in settings, removed by their owner", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const b = await t.member();
    const keys = {
      auth_base64: b64url(randomBytes(16)),
      p256dh_base64: b64url(createECDH("prime256v1").generateKeys()),
    };
    for (
      const endpoint of [
        "http://fcm.googleapis.com/fcm/send/x",
        "https://evil.example/push",
        "https://fcm.googleapis.com:8443/x",
        "nope",
      ]
    ) {
      const r = await t.call("POST", "/api/push-subscriptions", {
        cookie: a.cookie,
        json: { deviceName: "Phone", endpoint, expirationTime: 0, ...keys },
      });
      assert.equal(r.status, 400, endpoint);
    }
    const ok = await t.call("POST", "/api/push-subscriptions", {
      cookie: a.cookie,
      json: {
        deviceName: "Chrome on Android",
        endpoint: "https://fcm.googleapis.com/fcm/send/abc",
        expirationTime: null,
        ...keys,
      },
    });
    assert.equal(ok.status, 201);
    const settings = await t.call("GET", "/api/settings", { cookie: a.cookie });
    assert.equal(settings.data.pushSubscriptions.length, 1);
    assert.equal(settings.data.pushSubscriptions[0].deviceName, "Chrome on Android");
    assert.equal(settings.data.pushSubscriptions[0].auth_base64, undefined, "device keys stay on the server");
    assert.match(settings.data.applicationServerKey, /^[A-Za-z0-9_-]{80,}$/);
    assert.equal((await t.call("DELETE", `/api/push-subscriptions/${ok.data.id}`, { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/push-subscriptions/${ok.data.id}`, { cookie: a.cookie })).status, 200);
    assert.equal((await t.call("GET", "/api/settings", { cookie: a.cookie })).data.pushSubscriptions.length, 0);
  } finally {
    t.close();
  }
});

Deno.test("notifications - push is delivered encrypted to the device; a 410 removes the device", async () => {
  const received: Uint8Array[] = [];
  let answer = 201;
  const receiver = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, async (req) => {
    received.push(new Uint8Array(await req.arrayBuffer()));
    return new Response(null, { status: answer });
  });
  const origin = `http://127.0.0.1:${receiver.addr.port}`;
  Deno.env.set("PUSH_EXTRA_ORIGINS", origin);
  const t = await testApp();
  try {
    const a = await t.member("pushed@example.com");
    const device = createECDH("prime256v1");
    const p256dh = device.generateKeys();
    const auth = randomBytes(16);
    const r = await t.call("POST", "/api/push-subscriptions", {
      cookie: a.cookie,
      json: {
        deviceName: "Test",
        endpoint: `${origin}/push/1`,
        expirationTime: 0,
        auth_base64: b64url(auth),
        p256dh_base64: b64url(p256dh),
      },
    });
    assert.equal(r.status, 201);
    await notify(a.profileId, { bodyText: "Someone liked your profile", url: "/likes/profilelikedyou" });
    await runDueJobs(handlers);
    assert.equal(received.length, 1);
    const plain = ece.decrypt(Buffer.from(received[0]), { version: "aes128gcm", privateKey: device, authSecret: auth });
    const payload = JSON.parse(new TextDecoder().decode(plain));
    assert.deepEqual(payload, {
      title: "Lambda",
      body: "Someone liked your profile",
      url: "/likes/profilelikedyou",
      tag: payload.tag,
      icon: "/static/icons/icon-192.png",
    });
    assert.match(payload.tag, /^[0-9a-f]{28}$/, "tagged with the notification's id: a later push replaces it");

    answer = 410;
    await notify(a.profileId, { bodyText: "Another" });
    await runDueJobs(handlers);
    assert.equal(received.length, 2);
    const account = await getAccountByEmail("pushed@example.com");
    assert.deepEqual(await listPushSubscriptions(account!.id), [], "the gone device was removed");
  } finally {
    Deno.env.delete("PUSH_EXTRA_ORIGINS");
    t.close();
    await receiver.shutdown();
  }
});

Deno.test("notifications - a new like tells the liked member discreetly, once", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const like = (likeType: string) =>
      t.call("PUT", "/api/profile-like", {
        cookie: a.cookie,
        json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType, tsCreated: 0 },
      });
    assert.equal((await like("LIKE")).status, 200);
    assert.equal((await like("LIKE")).status, 200);
    const list = await t.call("GET", `/api/notifications/${b.profileId}`, { cookie: b.cookie });
    assert.deepEqual(list.data.map((n: { bodyText: string }) => n.bodyText), ["Someone liked your profile."]);
    assert.equal(list.data[0].url, "/likes/profilelikedyou");
    assert.equal((await like("DISLIKE")).status, 200);
    assert.equal((await t.call("GET", `/api/notifications/${b.profileId}`, { cookie: b.cookie })).data.length, 1);
    assert.deepEqual((await t.call("GET", `/api/notifications/${a.profileId}`, { cookie: a.cookie })).data, []);
  } finally {
    t.close();
  }
});

type T = Awaited<ReturnType<typeof testApp>>;
type M = Awaited<ReturnType<T["member"]>>;

const DAY = 24 * 3_600_000;

const send = (t: T, from: M, to: M, bodyText: string) =>
  t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText, profilePicIds: [] },
  });

const notes = async (t: T, m: M) =>
  (await t.call("GET", `/api/notifications/${m.profileId}`, { cookie: m.cookie })).data as {
    id: string;
    bodyText: string;
    url?: string;
    count?: number;
  }[];

/** Gives a member a phone to push to (a known push service: nothing is sent in these tests). */
async function addPhone(t: Awaited<ReturnType<typeof testApp>>, m: { cookie: string }): Promise<void> {
  const r = await t.call("POST", "/api/push-subscriptions", {
    cookie: m.cookie,
    json: {
      deviceName: "Phone",
      endpoint: `https://fcm.googleapis.com/fcm/send/${crypto.randomUUID()}`,
      expirationTime: 0,
      auth_base64: b64url(randomBytes(16)),
      p256dh_base64: b64url(createECDH("prime256v1").generateKeys()),
    },
  });
  assert.equal(r.status, 201);
}

/** The push jobs waiting for a member's devices. */
async function pushJobs(profileId: string): Promise<number> {
  let n = 0;
  for await (const e of kv().list<JobRecord>({ prefix: ["jobs"] })) {
    if (e.value.job.type === "push" && e.value.job.profileId === profileId) n++;
  }
  return n;
}

Deno.test("notifications - 25 messages are one notification counting 25 with one push job; reading the conversation resets it", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    await addPhone(t, b);
    for (let i = 0; i < 25; i++) assert.equal((await send(t, a, b, `Secret words ${i}`)).status, 201);
    let list = await notes(t, b);
    assert.equal(list.length, 1, "one notification for the conversation");
    assert.equal(list[0].count, 25);
    assert.equal(list[0].bodyText, "You have 25 new messages.");
    assert.equal(list[0].url, `/profile/${a.profileId}#chat`);
    assert.doesNotMatch(JSON.stringify(list), /Secret words|tsPushed|kind/, "discreet, and nothing internal");
    assert.equal(await pushJobs(b.profileId), 1, "one push, not 25");

    // Another conversation has its own notification.
    assert.equal((await send(t, c, b, "Hi")).status, 201);
    list = await notes(t, b);
    assert.equal(list.length, 2);
    assert.deepEqual(list.map((n) => n.bodyText), ["You have a new message.", "You have 25 new messages."]);
    assert.equal(await pushJobs(b.profileId), 2);

    // Reading a's conversation removes its notification; c's stays.
    const read = await t.call("PUT", `/api/messages/read/${a.profileId}`, { cookie: b.cookie });
    assert.equal(read.status, 200);
    assert.equal(read.data.marked, 25, "all 25 marked read (several atomics on a remote store)");
    list = await notes(t, b);
    assert.deepEqual(list.map((n) => n.url), [`/profile/${c.profileId}#chat`]);
    // The next message starts a new one, with its own push.
    assert.equal((await send(t, a, b, "Again")).status, 201);
    list = await notes(t, b);
    assert.equal(list.length, 2);
    assert.equal(list[0].url, `/profile/${a.profileId}#chat`, "newest first");
    assert.equal(list[0].count, 1);
    assert.equal(list[0].bodyText, "You have a new message.");
    assert.equal(await pushJobs(b.profileId), 3);
    assert.deepEqual(await notes(t, a), [], "the sender is not notified");

    // A member with no device to push to is notified in the app, with no push job that would find none.
    assert.equal((await send(t, b, a, "Hi back")).status, 201);
    assert.deepEqual((await notes(t, a)).map((n) => n.bodyText), ["You have a new message."]);
    assert.equal(await pushJobs(a.profileId), 0, "no push job for a member with no device");
  } finally {
    t.close();
  }
});

Deno.test("notifications - an unread conversation pushes again only 15 minutes after its last push; deleting its notification resets it", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    await addPhone(t, b);
    await send(t, a, b, "one");
    shiftClock(14 * 60_000);
    await send(t, a, b, "two");
    assert.equal(await pushJobs(b.profileId), 1, "14 minutes later: no second push");
    shiftClock(60_000);
    await send(t, a, b, "three");
    assert.equal(await pushJobs(b.profileId), 2, "15 minutes after the last push: one more");
    await send(t, a, b, "four");
    assert.equal(await pushJobs(b.profileId), 2);
    const [n] = await notes(t, b);
    assert.equal(n.count, 4);

    assert.equal((await t.call("DELETE", `/api/notification/${n.id}`, { cookie: b.cookie })).status, 200);
    assert.deepEqual(await notes(t, b), []);
    await send(t, a, b, "five");
    const [again] = await notes(t, b);
    assert.equal(again.count, 1, "deleting reset the count");
    assert.equal(await pushJobs(b.profileId), 3, "and a new notification pushes");
  } finally {
    t.close();
  }
});

Deno.test("notifications - two messages at once make one notification that counts both", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const sent = await Promise.all([send(t, a, b, "one"), send(t, a, b, "two"), send(t, a, b, "three")]);
    assert.deepEqual(sent.map((r) => r.status), [201, 201, 201], "no message fails for its notification");
    const list = await notes(t, b);
    assert.equal(list.length, 1);
    assert.equal(list[0].count, 3);
  } finally {
    t.close();
  }
});

Deno.test("notifications - unlike and like again in a day tells once; the next day a like tells again", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    await addPhone(t, b);
    const like = (likeType: string) =>
      t.call("PUT", "/api/profile-like", {
        cookie: a.cookie,
        json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType, tsCreated: 0 },
      });
    // A member with no device to push to is told in the app, with no push job that would find none.
    await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: c.profileId, likeType: "LIKE" },
    });
    assert.deepEqual((await notes(t, c)).map((n) => n.bodyText), ["Someone liked your profile."]);
    assert.equal(await pushJobs(c.profileId), 0);
    for (const type of ["LIKE", "UNDETERMINED", "LIKE", "UNDETERMINED", "LIKE"]) {
      assert.equal((await like(type)).status, 200);
    }
    const list = await notes(t, b);
    assert.deepEqual(list.map((n) => n.bodyText), ["Someone liked your profile."]);
    assert.equal(await pushJobs(b.profileId), 1);
    // Deleting it does not let the liker tell again the same day.
    await t.call("DELETE", `/api/notification/${list[0].id}`, { cookie: b.cookie });
    await like("UNDETERMINED");
    await like("LIKE");
    assert.deepEqual(await notes(t, b), []);

    // A day later (sessions have gone idle by then: the store's calls stand in for the API's).
    shiftClock(DAY + 1000);
    await putProfileLike(a.profileId, b.profileId, "UNDETERMINED");
    await putProfileLike(a.profileId, b.profileId, "LIKE");
    await putProfileLike(a.profileId, b.profileId, "UNDETERMINED");
    await putProfileLike(a.profileId, b.profileId, "LIKE");
    assert.deepEqual(
      (await listNotifications(b.profileId)).map((n) => n.bodyText),
      ["Someone liked your profile."],
      "a new day, a new one",
    );
    assert.equal(await pushJobs(b.profileId), 2);
  } finally {
    t.close();
  }
});

Deno.test("notifications - a member's picture likes tell once a day per liker, however many pictures", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    const p = (await getProfile(b.profileId))!;
    const pics = [0, 1, 2].map(() => picRecord({ profileId: p.id }));
    for (const x of pics) await kv().set(keys.pic(x.id), x);
    await kv().set(keys.profile(p.id), { ...p, profilePicIds: pics.map((x) => x.id) });
    const like = (m: M, picId: string, likeType = "LIKE") =>
      t.call("PUT", "/api/profile-pic-like", {
        cookie: m.cookie,
        json: { likerProfileId: m.profileId, profilePicId: picId, profilePicProfileId: b.profileId, likeType },
      });
    // Three pictures at once, then unlike and like one again.
    const r = await Promise.all(pics.map((x) => like(a, x.id)));
    assert.deepEqual(r.map((x) => x.status), [200, 200, 200]);
    await like(a, pics[0].id, "UNDETERMINED");
    await like(a, pics[0].id);
    assert.deepEqual((await notes(t, b)).map((n) => n.bodyText), ["Someone liked your picture."]);
    // Another liker is another notification.
    await like(c, pics[1].id);
    assert.equal((await notes(t, b)).length, 2);
    shiftClock(DAY + 1000);
    await putPicLike(a.profileId, b.profileId, pics[1].id, "DISLIKE");
    await putPicLike(a.profileId, b.profileId, pics[1].id, "LIKE");
    await putPicLike(a.profileId, b.profileId, pics[2].id, "UNDETERMINED");
    await putPicLike(a.profileId, b.profileId, pics[2].id, "LIKE");
    assert.equal((await listNotifications(b.profileId)).length, 3, "the next day, one new one");
  } finally {
    t.close();
  }
});
