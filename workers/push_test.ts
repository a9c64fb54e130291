import assert from "node:assert/strict";
import { testApp } from "../tests/api.ts";
import { startPushService, type TestSubscription } from "../tests/pushService.ts";
import { runDueJobs } from "./jobs.ts";
import { handlers } from "./run.ts";
import { PUSH_TTL_S, retryAfterMs } from "./push.ts";
import { kv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { resetClock, shiftClock } from "../kv/clock.ts";
import { notify } from "../kv/notifications.ts";
import { PUSH_DEVICE_MAX_FAILURES, vapidKeys } from "../kv/push.ts";
import { localMinutes } from "../domain/quietHours.ts";
import type { JobRecord } from "../kv/jobs.ts";
import { config } from "../config/config.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type M = Awaited<ReturnType<T["member"]>>;

/** A push service on loopback, allowed by PUSH_EXTRA_ORIGINS, and an app beside it. */
async function world() {
  const service = startPushService();
  Deno.env.set("PUSH_EXTRA_ORIGINS", service.origin);
  const t = await testApp();
  return {
    t,
    service,
    async close() {
      resetClock();
      Deno.env.delete("PUSH_EXTRA_ORIGINS");
      t.close();
      await service.close();
      assert.deepEqual(service.problems, [], "every request followed the protocol");
    },
  };
}

async function subscribe(t: T, m: M, sub: TestSubscription, cookie = m.cookie) {
  const r = await t.call("POST", "/api/push-subscriptions", {
    cookie,
    json: { deviceName: "Test phone", expirationTime: 0, ...sub },
  });
  assert.equal(r.status, 201, r.text);
  return r.data.id as string;
}

const likeProfile = (t: T, from: M, to: M) =>
  t.call("PUT", "/api/profile-like", {
    cookie: from.cookie,
    json: { likerProfileId: from.profileId, likedProfileId: to.profileId, likeType: "LIKE" },
  });

const send = (t: T, from: M, to: M, bodyText: string) =>
  t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: {
      senderProfileId: from.profileId,
      recipientProfileId: to.profileId,
      bodyText,
      profilePicIds: [],
      tsCreated: 0,
    },
  });

const devices = async (t: T, m: M) =>
  ((await t.call("GET", "/api/settings", { cookie: m.cookie })).data.pushSubscriptions as { id: string }[])
    .map((d) => d.id);

/** The push jobs waiting (retries included). */
async function pushJobs(): Promise<JobRecord[]> {
  const out: JobRecord[] = [];
  for await (const e of kv().list<JobRecord>({ prefix: ["jobs"] })) {
    if (e.value?.job?.type === "push") out.push(e.value);
  }
  return out;
}

Deno.test("push - a like reaches the device through the push service: VAPID, TTL, Urgency, payload in the member's language", async () => {
  const w = await world();
  try {
    const { t, service } = w;
    const liked = await t.member(), liker = await t.member();
    assert.equal(
      (await t.call("PUT", "/api/settings/language", { cookie: liked.cookie, json: { language: "es" } })).status,
      200,
    );
    const sub = await service.subscribe();
    await subscribe(t, liked, sub);
    assert.equal((await likeProfile(t, liker, liked)).status, 200);
    await runDueJobs(handlers);

    const [d] = service.to(sub.endpoint);
    assert.ok(d, "delivered");
    assert.equal(d.status, 201);
    assert.equal(d.contentEncoding, "aes128gcm");
    assert.equal(d.ttl, PUSH_TTL_S);
    assert.equal(d.urgency, "normal");
    assert.equal(d.claims.aud, service.origin, "the token is for this push service's origin");
    assert.equal(d.claims.sub, config.vapidSubject);
    assert.ok(d.claims.exp! * 1000 > Date.now(), "not expired");
    assert.equal(
      d.vapidKey,
      (await vapidKeys()).publicKey,
      "signed with the app's VAPID key, the one pages subscribe with",
    );
    assert.deepEqual(
      { ...d.payload, tag: undefined },
      {
        title: "Lambda",
        body: "A alguien le gustó tu perfil.",
        url: "/likes/profilelikedyou",
        icon: "/static/icons/icon-192.png",
        tag: undefined,
      },
    );
    assert.ok(!JSON.stringify(d.payload).includes(liker.profileId), "names no one");
    assert.match(d.payload.tag, /^[0-9a-z]{20,40}$/);
  } finally {
    await w.close();
  }
});

Deno.test("push - a message pushes with high urgency and one tag per conversation; a discreet device and a member at risk see a neutral note", async () => {
  const w = await world();
  try {
    const { t, service } = w;
    const [a, b] = [await t.member(), await t.member()];
    const phone = await service.subscribe(), discreetPhone = await service.subscribe();
    await subscribe(t, b, phone);
    // A device in discreet mode (its cookie) subscribes: its notifications say nothing.
    await subscribe(t, b, discreetPhone, `${b.cookie}; discreet=1`);
    assert.equal((await send(t, a, b, "Hello, are you near the park?")).status, 201);
    await runDueJobs(handlers);
    const [plain] = service.to(phone.endpoint), [neutral] = service.to(discreetPhone.endpoint);
    assert.equal(plain.urgency, "high");
    assert.equal(plain.payload.title, "Lambda");
    assert.equal(plain.payload.body, "You have a new message.");
    assert.equal(plain.payload.url, `/profile/${a.profileId}#chat`);
    assert.deepEqual(
      [neutral.payload.title, neutral.payload.body, neutral.payload.icon],
      ["Notes", "You have a new note.", "/static/icons/neutral-192.png"],
    );
    for (const d of [plain, neutral]) {
      assert.ok(!JSON.stringify(d.payload).includes("park"), "never quotes the message");
    }

    // Where being gay is a crime, every device of the member gets the neutral note.
    const c = await t.member();
    const cPhone = await service.subscribe();
    await subscribe(t, c, cPhone);
    const moved = await t.call("PUT", `/api/profile-position/${c.profileId}`, {
      cookie: c.cookie,
      json: { overrideLat: -1.2864, overrideLon: 36.8172, use: "OVERRIDE", hide: false },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal((await send(t, a, c, "Hi")).status, 201);
    await runDueJobs(handlers);
    assert.deepEqual([service.to(cPhone.endpoint)[0].payload.title, service.to(cPhone.endpoint)[0].payload.body], [
      "Notes",
      "You have a new note.",
    ]);

    // A later message of the conversation, pushed again (15 minutes on, still unread), has the same tag.
    shiftClock(16 * 60_000);
    assert.equal((await send(t, a, b, "Still there?")).status, 201);
    await runDueJobs(handlers);
    const again = service.to(phone.endpoint);
    assert.equal(again.length, 2);
    assert.equal(again[1].payload.tag, again[0].payload.tag, "replaces the first on the device, not stacked");
    assert.equal(again[1].payload.body, "You have 2 new messages.");
  } finally {
    await w.close();
  }
});

Deno.test("push - 404 and 410 remove the device; Settings no longer lists it", async () => {
  const w = await world();
  try {
    const { t, service } = w;
    const m = await t.member();
    const gone = await service.subscribe(), unknown = await service.subscribe(), fine = await service.subscribe();
    const [goneId, unknownId, fineId] = [
      await subscribe(t, m, gone),
      await subscribe(t, m, unknown),
      await subscribe(t, m, fine),
    ];
    service.answer(gone.endpoint, { status: 410 });
    service.answer(unknown.endpoint, { status: 404 });
    await notify(m.profileId, { bodyText: "Someone liked your picture.", url: "/likes" });
    await runDueJobs(handlers);
    assert.equal(service.to(fine.endpoint).length, 1);
    const left = await devices(t, m);
    assert.deepEqual(left, [fineId]);
    assert.ok(!left.includes(goneId) && !left.includes(unknownId));
    assert.deepEqual(await pushJobs(), [], "nothing retried");
  } finally {
    await w.close();
  }
});

Deno.test("push - 429 and 5xx: only that device is tried again, after Retry-After; one that keeps failing is dropped", async () => {
  const w = await world();
  try {
    const { t, service } = w;
    const m = await t.member();
    const busy = await service.subscribe(), fine = await service.subscribe(), broken = await service.subscribe();
    const busyId = await subscribe(t, m, busy);
    const fineId = await subscribe(t, m, fine);
    const brokenId = await subscribe(t, m, broken);
    service.answer(busy.endpoint, { status: 429, headers: { "retry-after": "120" } });
    const failing = Array.from({ length: PUSH_DEVICE_MAX_FAILURES }, () => ({ status: 503 }));
    service.answer(broken.endpoint, ...failing);

    await notify(m.profileId, { bodyText: "Someone liked your picture.", url: "/likes" });
    await runDueJobs(handlers);
    assert.deepEqual(
      [service.to(busy.endpoint).length, service.to(fine.endpoint).length, service.to(broken.endpoint).length],
      [1, 1, 1],
    );
    const retries = await pushJobs();
    assert.equal(retries.length, 2, "one retry for each failing device");
    const busyRetry = retries.find((r) => r.job.type === "push" && r.job.subscriptionId === busyId)!;
    const brokenRetry = retries.find((r) => r.job.type === "push" && r.job.subscriptionId === brokenId)!;
    const wait = busyRetry.runAt - busyRetry.tsCreated;
    assert.ok(wait >= 119_000 && wait <= 121_000, `waits what Retry-After asked: ${wait} ms`);
    assert.ok(brokenRetry.runAt - brokenRetry.tsCreated <= 2_000, "no Retry-After: a short backoff");

    // Not due yet: nothing is sent before the service said.
    await runDueJobs(handlers);
    assert.equal(service.to(busy.endpoint).length, 1);

    // Two minutes on: the busy device gets it, the one that got it already is not sent it twice.
    shiftClock(121_000);
    await runDueJobs(handlers);
    assert.equal(service.to(busy.endpoint).length, 2);
    assert.equal(service.to(busy.endpoint)[1].status, 201);
    assert.equal(service.to(fine.endpoint).length, 1, "no duplicate on the device that took it");

    // The broken device fails each retry until it is dropped.
    for (let i = 0; i < 10 && (await pushJobs()).length; i++) {
      shiftClock(11 * 60_000);
      await runDueJobs(handlers);
    }
    assert.equal(service.to(broken.endpoint).length, PUSH_DEVICE_MAX_FAILURES, "tried a set number of times");
    assert.deepEqual(await pushJobs(), []);
    const left = await devices(t, m);
    assert.deepEqual(left.sort(), [busyId, fineId].sort(), "the member sees it gone in Settings");
    const stored = await kv().get<{ failures?: number }>(keys.pushSubscription(
      (await kv().get<{ accountId: string }>(keys.profile(m.profileId))).value!.accountId,
      busyId,
    ));
    assert.equal(stored.value?.failures, undefined, "a delivery that went through ends the busy device's run");
  } finally {
    await w.close();
  }
});

Deno.test("push - Retry-After is read as seconds or a date, bounded", () => {
  const at = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(retryAfterMs("30", at), 30_000);
  assert.equal(retryAfterMs("Thu, 01 Jan 2026 00:05:00 GMT", at), 300_000);
  assert.equal(retryAfterMs("0", at), 1_000);
  assert.equal(retryAfterMs("999999", at), 3_600_000);
  assert.equal(retryAfterMs("soon", at), null);
  assert.equal(retryAfterMs(null, at), null);
});

Deno.test("push - quiet: not for the conversation in view, not in do-not-disturb hours, once a minute per conversation", async () => {
  const w = await world();
  try {
    const { t, service } = w;
    const [a, b, c] = [await t.member(), await t.member(), await t.member()];
    const phone = await service.subscribe();
    await subscribe(t, b, phone);
    const count = () => service.to(phone.endpoint).length;

    // b has the conversation with a open in view: a's message pushes nothing; c's does.
    const looking = await t.call("POST", "/api/presence/looking", { cookie: b.cookie, json: { at: a.profileId } });
    assert.equal(looking.status, 204);
    await send(t, a, b, "one");
    await runDueJobs(handlers);
    assert.equal(count(), 0, "nothing for the open conversation");
    await send(t, c, b, "hello");
    await runDueJobs(handlers);
    assert.equal(count(), 1, "another conversation still pushes");
    assert.equal(service.to(phone.endpoint)[0].payload.url, `/profile/${c.profileId}#chat`);
    // The page closed (it stops saying so): a's next one pushes, once read.
    await t.call("POST", "/api/presence/looking", { cookie: b.cookie, json: { at: null } });
    await t.call("PUT", `/api/messages/read/${a.profileId}`, { cookie: b.cookie });
    await t.call("PUT", `/api/messages/read/${c.profileId}`, { cookie: b.cookie });

    // At most one push a minute per conversation, even when read in between.
    await send(t, a, b, "two");
    await runDueJobs(handlers);
    assert.equal(count(), 2);
    await t.call("PUT", `/api/messages/read/${a.profileId}`, { cookie: b.cookie });
    await send(t, a, b, "three");
    await runDueJobs(handlers);
    assert.equal(count(), 2, "a second push within the minute is held back");
    await t.call("PUT", `/api/messages/read/${a.profileId}`, { cookie: b.cookie });
    shiftClock(61_000);
    await send(t, a, b, "four");
    await runDueJobs(handlers);
    assert.equal(count(), 3, "a minute on, it pushes again");
    await t.call("PUT", `/api/messages/read/${a.profileId}`, { cookie: b.cookie });

    // Do not disturb from now to two hours on, in the member's time zone: nothing pushes.
    const tz = "America/Sao_Paulo";
    const minutes = localMinutes(Date.now() + 61_000, tz);
    const clock = (m: number) =>
      `${String(Math.floor((m % 1440) / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
    const set = await t.call("PUT", "/api/settings/quiet-hours", {
      cookie: b.cookie,
      json: { quietHours: { from: clock(minutes), to: clock(minutes + 120), timeZone: tz } },
    });
    assert.equal(set.status, 200, set.text);
    assert.deepEqual((await t.call("GET", "/api/settings", { cookie: b.cookie })).data.quietHours, set.data.quietHours);
    shiftClock(61_000);
    await send(t, c, b, "late");
    await likeProfile(t, a, b);
    await runDueJobs(handlers);
    assert.equal(count(), 3, "nothing in do-not-disturb hours");
    const inApp = await t.call("GET", `/api/notifications/${b.profileId}`, { cookie: b.cookie });
    assert.ok(inApp.data.length >= 2, "the notifications wait in the app");

    // Turned off: pushes again.
    await t.call("PUT", "/api/settings/quiet-hours", { cookie: b.cookie, json: { quietHours: null } });
    await notify(b.profileId, { bodyText: "Someone liked your picture.", url: "/likes" });
    await runDueJobs(handlers);
    assert.equal(count(), 4);
  } finally {
    await w.close();
  }
});

Deno.test("push - do-not-disturb hours: bad input is a 400", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    for (
      const quietHours of [
        { from: "25:00", to: "07:00", timeZone: "UTC" },
        { from: "22:00", to: "7", timeZone: "UTC" },
        { from: "22:00", to: "07:00", timeZone: "Mars/Olympus" },
        { from: "22:00", to: "07:00" },
      ]
    ) {
      const r = await t.call("PUT", "/api/settings/quiet-hours", { cookie: m.cookie, json: { quietHours } });
      assert.equal(r.status, 400, JSON.stringify(quietHours));
      assert.ok(r.data.error.code);
    }
    const r = await t.call("POST", "/api/presence/looking", { cookie: m.cookie, json: { at: "not an id!" } });
    assert.equal(r.status, 400);
  } finally {
    t.close();
  }
});
