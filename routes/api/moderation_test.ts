import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { shiftClock } from "../../kv/clock.ts";
import { mailboxOf, spamSigns } from "../../domain/moderation.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

async function adminOf(t: T): Promise<Member> {
  const email = `admin-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const a = await t.member(email);
  await setRoles((await getAccountByEmail(email))!.id, ["USER", "ADMIN"]);
  return a;
}

async function place(t: T, m: Member, lat: number, lon: number) {
  const r = await t.call("PUT", `/api/profile-position/${m.profileId}`, {
    cookie: m.cookie,
    json: { overrideLat: lat, overrideLon: lon, use: "OVERRIDE" },
  });
  assert.equal(r.status, 200, r.text);
}

const nearestIds = async (t: T, m: Member) =>
  ((await t.call("GET", "/api/profile-briefs/nearest", { cookie: m.cookie })).data.items as { profileId: string }[])
    .map((b) => b.profileId);

const loginWithLink = async (t: T, email: string) => {
  const token = await t.registerAndGetToken(email);
  return await t.call("POST", "/api/auth", { form: { token } });
};

Deno.test("moderation - a suspension ends the member's sessions, hides them everywhere, refuses login with the reason and end date", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const bad = await t.member("Bad.Actor+x@gmail.com"), other = await t.member(), friend = await t.member();
    await place(t, bad, 52.52, 13.40);
    await place(t, other, 52.521, 13.401);
    await place(t, friend, 52.522, 13.402);
    const sent = await t.call("POST", "/api/message", {
      cookie: bad.cookie,
      json: { senderProfileId: bad.profileId, recipientProfileId: other.profileId, bodyText: "hi", profilePicIds: [] },
    });
    assert.equal(sent.status, 201);
    assert.ok((await nearestIds(t, other)).includes(bad.profileId));
    const report = await t.call("POST", "/api/profile-report", {
      cookie: other.cookie,
      json: { reportedProfileId: bad.profileId, reason: "harassment", text: "threats" },
    });

    const act = await t.call("POST", `/api/admin/members/${bad.profileId}/actions`, {
      cookie: admin.cookie,
      json: { kind: "SUSPENSION", days: 7, reason: "Threatening messages", reportId: report.data.id },
    });
    assert.equal(act.status, 201, act.text);
    assert.equal(act.data.kind, "SUSPENSION");

    // The session ended at once.
    assert.equal((await t.call("GET", "/api/settings", { cookie: bad.cookie })).status, 401);
    // Gone from nearest, the profile, conversations and likes of others.
    assert.ok(!(await nearestIds(t, other)).includes(bad.profileId));
    assert.ok((await nearestIds(t, other)).includes(friend.profileId));
    assert.equal((await t.call("GET", `/api/profile/${bad.profileId}`, { cookie: other.cookie })).status, 404);
    const convs = await t.call("GET", `/api/messages/most-recent-with/${other.profileId}`, { cookie: other.cookie });
    assert.equal(convs.data.items.length, 0);
    const like = await t.call("PUT", "/api/profile-like", {
      cookie: friend.cookie,
      json: { likerProfileId: friend.profileId, likedProfileId: bad.profileId, likeType: "LIKE" },
    });
    assert.equal(like.status, 404);
    // The report is confirmed.
    const rep = await t.call("GET", `/api/admin/reports/${report.data.id}`, { cookie: admin.cookie });
    assert.equal(rep.data.case.status, "CONFIRMED");

    // Logging in shows the reason and the end date, never who reported.
    const login = await loginWithLink(t, "Bad.Actor+x@gmail.com");
    assert.equal(login.status, 403);
    assert.equal(login.data.error.code, "suspended");
    assert.match(
      login.data.error.message,
      /suspended until \d+ \w+ \d{4}, \d\d:\d\d UTC\. Reason: Threatening messages/,
    );
    assert.ok(!login.text.includes(other.profileId));

    // The same mailbox in another spelling cannot register again.
    for (const spelling of ["badactor@gmail.com", "b.a.d.actor+new@googlemail.com"]) {
      const r = await t.call("POST", "/api/auth/register", {
        json: { email: spelling, acknowledgements: (await import("../../tests/api.ts")).ALL_ACKS },
      });
      assert.equal(r.status, 403, spelling);
      assert.equal(r.data.error.code, "register_blocked");
    }

    // The audit log has the line; no call edits it.
    const audit = await t.call("GET", "/api/admin/audit", { cookie: admin.cookie });
    assert.equal(audit.data.items[0].action, "ACTION_SUSPENSION");
    assert.equal(audit.data.items[0].target, bad.profileId);
    assert.equal(audit.data.items[0].reason, "Threatening messages");
    const id = audit.data.items[0].id;
    for (const m of ["PUT", "DELETE", "PATCH"]) {
      assert.equal((await t.call(m, `/api/admin/audit/${id}`, { cookie: admin.cookie, json: {} })).status, 404);
    }

    // After 7 days the member logs in again and shows again.
    shiftClock(7 * 24 * 3_600_000 + 60_000);
    const back = await loginWithLink(t, "bad.actor+x@gmail.com");
    assert.equal(back.status, 200, back.text);
    const otherAgain = t.cookieOf((await loginWithLink(t, other.email)).headers);
    assert.equal((await t.call("GET", `/api/profile/${bad.profileId}`, { cookie: otherAgain })).status, 200);
  } finally {
    t.close();
  }
});

Deno.test("moderation - lifting a ban lets the member back; a warning is shown once with its reason", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const m = await t.member("warned@example.com"), other = await t.member();
    const ban = await t.call("POST", `/api/admin/members/${m.profileId}/actions`, {
      cookie: admin.cookie,
      json: { kind: "BAN", reason: "Scam account" },
    });
    assert.equal(ban.status, 201);
    const refused = await loginWithLink(t, "warned@example.com");
    assert.equal(refused.data.error.code, "banned");
    assert.equal(refused.data.error.message, "Your account is banned. Reason: Scam account");
    const lift = await t.call("DELETE", `/api/admin/members/${m.profileId}/actions/${ban.data.id}`, {
      cookie: admin.cookie,
    });
    assert.equal(lift.status, 200);
    assert.ok(lift.data.tsLifted);
    assert.equal(
      (await t.call("DELETE", `/api/admin/members/${m.profileId}/actions/${ban.data.id}`, { cookie: admin.cookie }))
        .status,
      409,
    );
    const again = await loginWithLink(t, "warned@example.com");
    assert.equal(again.status, 200);
    const cookie = t.cookieOf(again.headers);
    assert.equal((await t.call("GET", `/api/profile/${m.profileId}`, { cookie: other.cookie })).status, 200);

    const warn = await t.call("POST", `/api/admin/members/${m.profileId}/actions`, {
      cookie: admin.cookie,
      json: { kind: "WARNING", reason: "Keep it friendly in Map Chat." },
    });
    assert.equal(warn.status, 201);
    const page = await t.call("GET", "/settings", { cookie });
    assert.match(page.text, /A warning from the moderators/);
    assert.match(page.text, /Keep it friendly in Map Chat\./);
    const ack = await t.call("POST", "/moderation/notice", {
      cookie,
      form: { back: "/settings" },
      headers: { "sec-fetch-site": "same-origin" },
    });
    assert.equal(ack.status, 303);
    assert.doesNotMatch((await t.call("GET", "/settings", { cookie })).text, /A warning from the moderators/);
    // A warning hides no one.
    assert.equal((await t.call("GET", `/api/profile/${m.profileId}`, { cookie: other.cookie })).status, 200);

    const member = await t.call("GET", `/api/admin/members/${m.profileId}`, { cookie: admin.cookie });
    assert.deepEqual(member.data.actions.map((a: { kind: string }) => a.kind), ["WARNING", "BAN"]);
  } finally {
    t.close();
  }
});

Deno.test("moderation - bad action input is a 400; only admins; unknown member 404", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const m = await t.member();
    const path = `/api/admin/members/${m.profileId}/actions`;
    for (
      const json of [
        { kind: "SUSPENSION", reason: "x" },
        { kind: "SUSPENSION", days: 3, reason: "x" },
        { kind: "BAN", days: 7, reason: "x" },
        { kind: "BAN", reason: "" },
        { kind: "KICK", reason: "x" },
        { kind: "WARNING", reason: "x".repeat(501) },
      ]
    ) assert.equal((await t.call("POST", path, { cookie: admin.cookie, json })).status, 400, JSON.stringify(json));
    assert.equal((await t.call("POST", path, { cookie: m.cookie, json: { kind: "BAN", reason: "x" } })).status, 403);
    assert.equal(
      (await t.call("POST", `/api/admin/members/nobody/actions`, {
        cookie: admin.cookie,
        json: { kind: "BAN", reason: "x" },
      })).status,
      404,
    );
    const search = await t.call("GET", `/api/admin/members?q=${encodeURIComponent(m.email.toUpperCase())}`, {
      cookie: admin.cookie,
    });
    assert.deepEqual(search.data.items.map((h: { profileId: string }) => h.profileId), [m.profileId]);
    const byId = await t.call("GET", `/api/admin/members?q=${m.profileId}`, { cookie: admin.cookie });
    assert.equal(byId.data.items.length, 1);
  } finally {
    t.close();
  }
});

Deno.test("moderation - reports from 3 established members within 24 h hide a profile until an admin looks", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const target = await t.member(), viewer = await t.member();
    const fresh = await t.member(undefined, { newcomer: true });
    const report = (m: Member) =>
      t.call("POST", "/api/profile-report", {
        cookie: m.cookie,
        json: { reportedProfileId: target.profileId, reason: "fake", text: "" },
      });
    // Two established members and a day-old account: not enough.
    await report(await t.member());
    await report(await t.member());
    await report(fresh);
    assert.equal((await t.call("GET", `/api/profile/${target.profileId}`, { cookie: viewer.cookie })).status, 200);
    await report(await t.member());
    assert.equal((await t.call("GET", `/api/profile/${target.profileId}`, { cookie: viewer.cookie })).status, 404);
    // The member is told; they still use the app.
    const page = await t.call("GET", "/settings", { cookie: target.cookie });
    assert.match(page.text, /Your profile is under review/);
    assert.equal((await t.call("GET", `/api/profile/${viewer.profileId}`, { cookie: target.cookie })).status, 200);
    const queue = await t.call("GET", "/api/admin/moderation/queue", { cookie: admin.cookie });
    assert.equal(queue.data.items[0].profileId, target.profileId);
    assert.equal(queue.data.items[0].openReports.length, 4);
    assert.equal(queue.data.items[0].withdrawal.kind, "REVIEW");
    // The admin looks: the profile shows again.
    assert.equal(
      (await t.call("DELETE", `/api/admin/members/${target.profileId}/review`, { cookie: admin.cookie })).status,
      200,
    );
    assert.equal((await t.call("GET", `/api/profile/${target.profileId}`, { cookie: viewer.cookie })).status, 200);
    assert.doesNotMatch((await t.call("GET", "/settings", { cookie: target.cookie })).text, /under review/);
  } finally {
    t.close();
  }
});

Deno.test("spam - a first message with a link, phone or payment handle is held; ten identical ones pause sending", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const spammer = await t.member();
    let n = 0;
    const someone = () => t.member(undefined, { address: `10.0.0.${++n}` });
    const send = (to: Member, bodyText: string) =>
      t.call("POST", "/api/message", {
        cookie: spammer.cookie,
        json: { senderProfileId: spammer.profileId, recipientProfileId: to.profileId, bodyText, profilePicIds: [] },
      });
    const a = await someone();
    const held = await send(a, "Hot pics at www.example-cams.com");
    assert.equal(held.status, 201);
    // The sender is not told; the recipient sees it held.
    assert.equal(held.data.held, undefined);
    const inbox = await t.call("GET", `/api/messages/between/${a.profileId}/${spammer.profileId}`, {
      cookie: a.cookie,
    });
    assert.equal(inbox.data.items[0].held, true);
    const list = await t.call("GET", `/api/messages/most-recent-with/${a.profileId}`, { cookie: a.cookie });
    assert.equal(list.data.items[0].held, true);
    const plain = await send(await someone(), "Hey, how is your evening going?");
    assert.equal(plain.data.held, undefined);
    // After the other replies, links are fine.
    const b = await someone();
    await send(b, "Hi there");
    await t.call("POST", "/api/message", {
      cookie: b.cookie,
      json: { senderProfileId: b.profileId, recipientProfileId: spammer.profileId, bodyText: "hi", profilePicIds: [] },
    });
    await send(b, "Look: https://example.org/a");
    const fromB = await t.call("GET", `/api/messages/between/${b.profileId}/${spammer.profileId}`, {
      cookie: b.cookie,
    });
    assert.equal(fromB.data.items[0].bodyText, "Look: https://example.org/a");
    assert.equal(fromB.data.items[0].held, undefined);

    // The same first text to many members: held from the third, sending paused at the tenth.
    const held2: boolean[] = [];
    for (let i = 0; i < 10; i++) {
      const to = await someone();
      assert.equal((await send(to, "Hello handsome, want to have some fun tonight")).status, 201);
      const seen = await t.call("GET", `/api/messages/between/${to.profileId}/${spammer.profileId}`, {
        cookie: to.cookie,
      });
      held2.push(seen.data.items[0].held ?? false);
    }
    assert.deepEqual(held2, [false, false, ...Array(8).fill(true)]);
    const paused = await send(await someone(), "Another message");
    assert.equal(paused.status, 403);
    assert.equal(paused.data.error.code, "sending_paused");
    const file = await t.call("GET", `/api/admin/members/${spammer.profileId}`, { cookie: admin.cookie });
    assert.equal(file.data.spamHeld, 9);
    assert.ok(file.data.sendingPaused);
    assert.equal(
      (await t.call("DELETE", `/api/admin/members/${spammer.profileId}/sending-pause`, { cookie: admin.cookie }))
        .status,
      200,
    );
    assert.equal((await send(await someone(), "A new hello")).status, 201);
  } finally {
    t.close();
  }
});

Deno.test("new members - a member younger than a day has tighter limits", async () => {
  const t = await testApp();
  try {
    const fresh = await t.member(undefined, { newcomer: true });
    const to = await t.member();
    const send = () =>
      t.call("POST", "/api/message", {
        cookie: fresh.cookie,
        json: { senderProfileId: fresh.profileId, recipientProfileId: to.profileId, bodyText: "hi", profilePicIds: [] },
      });
    t.alignClock(60_000);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await send()).status);
    assert.deepEqual(statuses, [...Array(10).fill(201), 429]);
    // A day later the standard limits apply.
    shiftClock(24 * 3_600_000);
    const cookie = t.cookieOf((await loginWithLink(t, fresh.email)).headers);
    const later = await t.call("POST", "/api/message", {
      cookie,
      json: { senderProfileId: fresh.profileId, recipientProfileId: to.profileId, bodyText: "hi", profilePicIds: [] },
    });
    assert.equal(later.status, 201);
  } finally {
    t.close();
  }
});

Deno.test("moderation - mailbox spelling and spam signs", () => {
  assert.equal(mailboxOf("John.Doe+dating@GoogleMail.com"), "johndoe@gmail.com");
  assert.equal(mailboxOf("john.doe+x@outlook.com"), "john.doe@outlook.com");
  assert.equal(mailboxOf("jane-dating@yahoo.com"), "jane@yahoo.com");
  assert.equal(mailboxOf("a.b+c@example.org"), "a.b+c@example.org");
  assert.deepEqual(spamSigns("Hi! How are you?"), []);
  assert.deepEqual(spamSigns("text me +1 (555) 123-4567"), ["phone"]);
  assert.deepEqual(spamSigns("send $50 to $hotguy99"), ["payment"]);
  assert.deepEqual(spamSigns("pay me on cash app"), ["payment"]);
  assert.deepEqual(spamSigns("see bit.ly/abc"), ["link"]);
  assert.deepEqual(spamSigns("I'm 1.85 m and 30 years old"), []);
  // Kept in the store as a hash only.
  assert.ok(keys.bannedEmail("x")[0] === "banned_emails");
  assert.ok(kv);
});
