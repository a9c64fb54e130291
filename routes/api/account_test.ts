import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { testApp } from "../../tests/api.ts";
import { fromRaw, quadrants } from "../../tests/fixtures/pictures.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { shiftClock } from "../../kv/clock.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { listOutbox } from "../../kv/outbox.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { addPasskey } from "../../kv/passkeys.ts";
import { getProfile } from "../../kv/profiles.ts";
import { profileLikeCounts } from "../../kv/likes.ts";
import { LOG_PURGE_DELAY_MS } from "../../kv/memberData.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

async function picture(t: T, m: Member): Promise<string> {
  const bytes = new Uint8Array(await fromRaw(quadrants(400, 500), 400, 500).jpeg().toBuffer());
  const r = await t.call("POST", "/api/profile-pic", {
    cookie: m.cookie,
    form: {
      authorProfileId: m.profileId,
      picfile: new File([bytes], "me.jpg", { type: "image/jpeg" }),
      picfilename: "me.jpg",
    },
  });
  assert.equal(r.status, 201, r.text);
  return r.data.id;
}

const send = (t: T, from: Member, to: Member, bodyText: string) =>
  t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText, profilePicIds: [] },
  });

async function runJobs() {
  while ((await runDueJobs(handlers)) > 0) { /* until the queue is empty */ }
}

Deno.test("account - download my data: one ZIP with the JSON and every picture size, by a single-use link for its owner only", async () => {
  const t = await testApp();
  try {
    const a = await t.member("export-me@example.com"), b = await t.member();
    await t.call("PUT", "/api/profile", {
      cookie: a.cookie,
      json: { id: a.profileId, description: "Coffee and hikes" },
    });
    const pic = await picture(t, a);
    await send(t, a, b, "hello from a");
    await send(t, b, a, "hello back");
    await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "LIKE" },
    });
    await t.call("PUT", "/api/profile-note", {
      cookie: a.cookie,
      json: { authorProfileId: a.profileId, aboutProfileId: b.profileId, bodyText: "met at the park", privateTags: [] },
    });
    await runJobs();

    const asked = await t.call("POST", "/api/account/export", { cookie: a.cookie });
    assert.equal(asked.status, 202);
    await runJobs();
    const mail = (await listOutbox()).find((m) => m.to === "export-me@example.com" && /data is ready/.test(m.subject));
    const token = mail?.text.match(/#export=([A-Za-z0-9_-]+)/)?.[1];
    assert.ok(token, "a link was mailed");

    // Not in another member's session; the link stays good for its owner.
    const other = await t.call("POST", "/api/account/export/download", { cookie: b.cookie, json: { token } });
    assert.equal(other.status, 404);
    const res = await t.app.request("http://localhost/api/account/export/download", {
      method: "POST",
      headers: { cookie: a.cookie, "content-type": "application/json" },
      body: JSON.stringify({ token }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/zip");
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(new TextDecoder().decode(files["data.json"]));
    assert.equal(data.account.email, "export-me@example.com");
    assert.equal(data.account.passwordHash, undefined, "no secrets");
    assert.equal(data.profile.description, "Coffee and hikes");
    assert.deepEqual(data.messages.map((m: { bodyText: string }) => m.bodyText), ["hello from a", "hello back"]);
    assert.equal(data.likesGiven.profiles[0].likedProfileId, b.profileId);
    assert.equal(data.notesWritten[0].bodyText, "met at the park");
    assert.equal(data.pictures[0].id, pic);
    const picFiles = Object.keys(files).filter((f) => f.startsWith(`pictures/${pic}/`));
    assert.ok(picFiles.some((f) => f.includes("master")), "the master");
    assert.ok(picFiles.length >= 3, `every stored size: ${picFiles.join(", ")}`);
    assert.ok(!JSON.stringify(data).includes("seq"), "no internal index fields");
    // Single use.
    assert.equal(
      (await t.call("POST", "/api/account/export/download", { cookie: a.cookie, json: { token } })).status,
      404,
    );
  } finally {
    t.close();
  }
});

Deno.test("account - delete my account: asks who is calling, ends the sessions, and leaves no key or value with the member's ids", async () => {
  const t = await testApp();
  try {
    const email = "delete-me@example.com";
    const a = await t.member(email);
    const b = await t.member(), c = await t.member();
    const admin = await t.member("deleter-admin@example.com");
    await setRoles((await getAccountByEmail("deleter-admin@example.com"))!.id, ["USER", "ADMIN"]);
    const accountId = (await getAccountByEmail(email))!.id;

    // A life in the app: a picture, a place, likes both ways, notes both ways, messages both ways, Map Chat,
    // a block, reports both ways, a push device, a passkey, a game vote, a warning.
    const picA = await picture(t, a);
    const picB = await picture(t, b);
    for (const m of [a, b, c]) {
      await t.call("PUT", `/api/profile-position/${m.profileId}`, {
        cookie: m.cookie,
        json: { overrideLat: 52.52, overrideLon: 13.4, use: "OVERRIDE" },
      });
    }
    const like = (from: Member, to: Member) =>
      t.call("PUT", "/api/profile-like", {
        cookie: from.cookie,
        json: { likerProfileId: from.profileId, likedProfileId: to.profileId, likeType: "LIKE" },
      });
    await like(a, b);
    await like(b, a);
    await t.call("PUT", "/api/profile-pic-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, profilePicProfileId: b.profileId, profilePicId: picB, likeType: "LIKE" },
    });
    await t.call("PUT", "/api/profile-pic-like", {
      cookie: b.cookie,
      json: { likerProfileId: b.profileId, profilePicProfileId: a.profileId, profilePicId: picA, likeType: "LIKE" },
    });
    const note = (from: Member, about: Member) =>
      t.call("PUT", "/api/profile-note", {
        cookie: from.cookie,
        json: {
          authorProfileId: from.profileId,
          aboutProfileId: about.profileId,
          bodyText: "note",
          privateTags: ["x"],
        },
      });
    await note(a, b);
    await note(b, a);
    await send(t, a, b, "from a");
    await send(t, b, a, "from b");
    await send(t, c, a, "from c");
    await t.call("POST", "/api/message", {
      cookie: a.cookie,
      json: { senderProfileId: a.profileId, bodyText: "hello map", profilePicIds: [] },
    });
    await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: c.profileId, likeType: "DISLIKE", blocked: true },
    });
    const report = (from: Member, about: Member) =>
      t.call("POST", "/api/profile-report", {
        cookie: from.cookie,
        json: { reportedProfileId: about.profileId, reason: "spam", text: "spam" },
      });
    await report(a, b);
    await report(b, a);
    await t.call("POST", "/api/push-subscriptions", {
      cookie: a.cookie,
      json: {
        deviceName: "Phone",
        endpoint: "https://fcm.googleapis.com/fcm/send/abcdef",
        expirationTime: 0,
        auth_base64: "AAAAAAAAAAAAAAAAAAAAAA",
        p256dh_base64: "BBBBBBBBBBBBBBBBBBBBBBBB",
      },
    });
    await addPasskey({
      id: "cred-of-a",
      accountId,
      publicKey: "pk",
      counter: 0,
      transports: [],
      deviceType: "singleDevice",
      name: "Laptop",
      backedUp: false,
    });
    await t.call("PUT", "/api/profile", { cookie: b.cookie, json: { id: b.profileId, description: "A real person" } });
    await t.call("PUT", `/api/games/gptbuster/${b.profileId}`, { cookie: a.cookie, json: { verdict: "HUMAN" } });
    await t.call("POST", `/api/admin/members/${a.profileId}/actions`, {
      cookie: admin.cookie,
      json: { kind: "WARNING", reason: "Be kind" },
    });
    await runJobs();
    const bLikesBefore = (await profileLikeCounts(b.profileId)).LIKE;
    assert.equal(bLikesBefore, 1);

    // Who is calling: a session from a login link minutes old needs nothing more; an old one, the password or a link.
    shiftClock(11 * 60_000);
    const refused = await t.call("DELETE", "/api/account", { cookie: a.cookie, json: {} });
    assert.equal(refused.status, 403);
    assert.equal(refused.data.error.code, "fresh_login_required");
    const token = await t.registerAndGetToken(email);
    const fresh = t.cookieOf((await t.call("POST", "/api/auth", { form: { token } })).headers);
    const del = await t.call("DELETE", "/api/account", { cookie: fresh, json: {} });
    assert.equal(del.status, 202, del.text);
    assert.equal((await t.call("GET", "/api/settings", { cookie: fresh })).status, 401, "sessions end at once");
    assert.equal(
      (await t.call("GET", `/api/profile/${a.profileId}`, { cookie: b.cookie })).status,
      404,
      "gone at once",
    );

    await runJobs();
    shiftClock(LOG_PURGE_DELAY_MS + 60_000);
    await runJobs();

    // Counts corrected, and the other side's conversation kept under "Deleted member".
    assert.equal((await profileLikeCounts(b.profileId)).LIKE, 0);
    const bChats = await t.call("GET", `/api/messages/most-recent-with/${b.profileId}`, { cookie: b.cookie });
    assert.equal(bChats.status, 200);
    const [chat] = bChats.data.items;
    assert.equal(chat.bodyText, "from b");
    assert.equal(bChats.data.people[chat.recipientProfileId].profileName, "Deleted member");
    assert.equal((await getProfile(b.profileId))!.profilePicIds.length, 1);

    // Every key and value of the store: none holds the member's ids or email, but the audit log.
    const ids = [accountId, a.profileId, email, picA];
    const left: string[] = [];
    for await (const e of kv().list({ prefix: [] })) {
      const text = JSON.stringify(e.key) + " " +
        (e.value instanceof Uint8Array
          ? new TextDecoder().decode(e.value)
          : JSON.stringify(e.value, (_k, v) => typeof v === "bigint" ? String(v) : v));
      if (!ids.some((id) => text.includes(id))) continue;
      if (e.key[0] === "audit_log") continue;
      left.push(text.slice(0, 200));
    }
    assert.deepEqual(left, []);
    assert.ok((await kv().list({ prefix: keys.auditAll() }).next()).value, "the audit log keeps its lines");
    // The address is free again (no ban), and the old link login no longer works.
    assert.equal(await getAccountByEmail(email), null);
  } finally {
    t.close();
  }
});
