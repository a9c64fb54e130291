import assert from "node:assert/strict";
import { unzipSync } from "fflate";
import { ALL_ACKS, ORIGIN, testApp } from "../../tests/api.ts";
import { fromRaw, quadrants } from "../../tests/fixtures/pictures.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { shiftClock } from "../../kv/clock.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { accountDeleteJob, accountExportJob } from "../../workers/memberData.ts";
import { listOutbox } from "../../kv/outbox.ts";
import { getAccountByEmail, hashPassword, setRoles } from "../../kv/accounts.ts";
import { addPasskey } from "../../kv/passkeys.ts";
import { getProfile } from "../../kv/profiles.ts";
import { EXPORT_TTL_MS } from "../../kv/memberData.ts";
import {
  deleteMemberStep,
  getDeletion,
  LOG_PURGE_DELAY_MS,
  nextStepWaitsUntil,
  startDeletion,
} from "../../kv/memberDeletion.ts";
import { sha256Hex } from "../../kv/ids.ts";
import { picLikeTally, receivedLikeCounts } from "../../tests/kv.ts";

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
      headers: { cookie: a.cookie, "content-type": "application/json", origin: ORIGIN },
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
    const bLikesBefore = (await receivedLikeCounts(b.profileId)).LIKE;
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
    assert.equal((await receivedLikeCounts(b.profileId)).LIKE, 0);
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

/** Every text of the store (keys, and values as JSON or as decoded bytes) holding one of `ids`, but the allowed. */
async function holding(ids: string[], allowed: (key: Deno.KvKey) => boolean): Promise<string[]> {
  const left: string[] = [];
  for await (const e of kv().list({ prefix: [] })) {
    const text = JSON.stringify(e.key) + " " +
      (e.value instanceof Uint8Array
        ? new TextDecoder().decode(e.value)
        : JSON.stringify(e.value, (_k, v) => typeof v === "bigint" ? String(v) : v));
    if (ids.some((id) => text.includes(id)) && !allowed(e.key)) left.push(text.slice(0, 200));
  }
  return left;
}

const exportBlobs = async () => {
  const out: string[] = [];
  for await (const e of kv().list({ prefix: ["blobs"] })) {
    if (String(e.key[1]).startsWith("exports/")) out.push(String(e.key[1]));
  }
  return out;
};

Deno.test("account - the export carries no secret, refuses bad input with a 4xx, and an unused ZIP is gone after 24 h", async () => {
  const t = await testApp();
  try {
    const email = "no-secrets@example.com";
    const a = await t.member(email);
    const accountId = (await getAccountByEmail(email))!.id;
    const account = (await kv().get<Record<string, unknown>>(keys.account(accountId))).value!;
    const passwordHash = await hashPassword("a long password");
    await kv().set(keys.account(accountId), { ...account, passwordHash });
    await picture(t, a);
    await addPasskey({
      id: "cred-secret-id",
      accountId,
      publicKey: "PUBLICKEYBYTES0123456789",
      counter: 7,
      transports: [],
      deviceType: "singleDevice",
      name: "Laptop",
      backedUp: false,
    });
    await t.call("POST", "/api/push-subscriptions", {
      cookie: a.cookie,
      json: {
        deviceName: "Phone",
        endpoint: "https://fcm.googleapis.com/fcm/send/xyz",
        expirationTime: 0,
        auth_base64: "AUTHSECRETAUTHSECRET00",
        p256dh_base64: "P256DHSECRETP256DHSECRET",
      },
    });
    await runJobs();
    const sessionHash = await sha256Hex(a.cookie.split("=")[1]);
    const tokenHashes: string[] = [];
    for await (const e of kv().list({ prefix: ["login_tokens"] })) tokenHashes.push(String(e.key[1]));
    for await (const e of kv().list({ prefix: ["sessions"] })) tokenHashes.push(String(e.key[1]));
    assert.ok(tokenHashes.includes(sessionHash));

    // Bad input: no session, a malformed body, an unknown token.
    assert.equal((await t.call("POST", "/api/account/export")).status, 401);
    assert.equal(
      (await t.call("POST", "/api/account/export/download", { json: { token: "x".repeat(20) } })).status,
      401,
    );
    for (const json of [{}, { token: "short" }, { token: 42 }, { token: "y".repeat(200) }]) {
      const r = await t.call("POST", "/api/account/export/download", { cookie: a.cookie, json });
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.equal(r.data.error.code, "bad_request");
    }
    const notJson = await t.call("POST", "/api/account/export/download", {
      cookie: a.cookie,
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    assert.equal(notJson.status, 400);
    assert.equal(
      (await t.call("POST", "/api/account/export/download", { cookie: a.cookie, json: { token: "z".repeat(43) } }))
        .status,
      404,
    );

    assert.equal((await t.call("POST", "/api/account/export", { cookie: a.cookie })).status, 202);
    await runJobs();
    const token = (await listOutbox()).find((m) => m.to === email && /data is ready/.test(m.subject))
      ?.text.match(/#export=([A-Za-z0-9_-]+)/)?.[1];
    assert.ok(token);
    // Only its hash is kept; the mail itself sits in the dev outbox (no SMTP in tests).
    assert.deepEqual(await holding([token], (k) => k[0] === "outbox"), [], "the token itself is not stored");
    const res = await t.app.request("http://localhost/api/account/export/download", {
      method: "POST",
      headers: { cookie: a.cookie, "content-type": "application/json", origin: ORIGIN },
      body: JSON.stringify({ token }),
    });
    assert.equal(res.status, 200);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const data = JSON.parse(new TextDecoder().decode(files["data.json"]));
    assert.equal(data.account.hasPassword, true);
    assert.deepEqual(data.passkeys.map((p: { name: string }) => p.name), ["Laptop"]);
    assert.equal(data.pushDevices[0].deviceName, "Phone");
    assert.ok(data.sessions.length >= 1);
    assert.ok(data.safety, "the safety settings");
    // Pictures: real image bytes, in every stored size.
    const images = Object.entries(files).filter(([p]) => p.startsWith("pictures/"));
    assert.ok(images.length >= 3, "the master and the stored sizes");
    for (const [p, bytes] of images) {
      const head = new TextDecoder().decode(bytes.slice(0, 12));
      assert.ok(head.startsWith("RIFF") && head.endsWith("WEBP"), `${p} is a picture`);
      assert.ok(bytes.byteLength > 100, `${p} has its bytes`);
    }
    // No secret anywhere in the ZIP: not the password's hash, a session's or a link's token hash, a key.
    const everything = Object.values(files).map((b) => new TextDecoder("latin1").decode(b)).join("\n");
    for (
      const secret of [
        passwordHash,
        ...tokenHashes,
        "PUBLICKEYBYTES0123456789",
        "AUTHSECRETAUTHSECRET00",
        "P256DHSECRETP256DHSECRET",
        token,
      ]
    ) assert.ok(!everything.includes(secret), `the ZIP holds a secret: ${secret.slice(0, 12)}…`);
    assert.deepEqual(await exportBlobs(), [], "downloaded: the ZIP's blob is gone");

    // An export nobody takes is gone after 24 h, and its link with it.
    assert.equal((await t.call("POST", "/api/account/export", { cookie: a.cookie })).status, 202);
    await runJobs();
    assert.equal((await exportBlobs()).length, 1);
    const unused = (await listOutbox()).filter((m) => m.to === email && /data is ready/.test(m.subject)).at(-1)
      ?.text.match(/#export=([A-Za-z0-9_-]+)/)?.[1];
    shiftClock(EXPORT_TTL_MS + 60_000);
    await runJobs();
    assert.deepEqual(await exportBlobs(), []);
    // (The session idled out meanwhile: a new login.)
    const again = t.cookieOf(
      (await t.call("POST", "/api/auth", { form: { token: await t.registerAndGetToken(email) } })).headers,
    );
    const late = await t.call("POST", "/api/account/export/download", { cookie: again, json: { token: unused } });
    assert.equal(late.status, 404);
    assert.equal(late.data.error.code, "not_found");
  } finally {
    t.close();
  }
});

Deno.test("account - deleting my account commits once: the member hidden, the sessions ended and the deletion's job, all in one write", async () => {
  const t = await testApp();
  try {
    const email = "one-commit@example.com";
    const a = await t.member(email);
    const accountId = (await getAccountByEmail(email))!.id;
    const del = await t.call("DELETE", "/api/account", { cookie: a.cookie, json: {} });
    assert.equal(del.status, 202, del.text);

    const deletion = await kv().get(keys.accountDeletion(accountId));
    const hidden = await kv().get(keys.withdrawn(a.profileId));
    const jobs: Deno.KvEntry<{ id: string; job: { type: string; accountId?: string } }>[] = [];
    for await (const e of kv().list<{ id: string; job: { type: string; accountId?: string } }>({ prefix: ["jobs"] })) {
      if (e.value.job.type === "account-delete" && e.value.job.accountId === accountId) jobs.push(e);
    }
    assert.equal(jobs.length, 1, "the deletion's job is queued");
    assert.ok(deletion.versionstamp && hidden.versionstamp, "the deletion is recorded and the member hidden");
    // One commit gives every write in it the same versionstamp: no crash can leave the one without the other.
    assert.equal(hidden.versionstamp, deletion.versionstamp);
    assert.equal(jobs[0].versionstamp, deletion.versionstamp, "the job was queued in the deletion's own commit");
    let due: string | null = null;
    for await (const e of kv().list<string>({ prefix: keys.jobsDue() })) {
      if (e.value === jobs[0].value.id) due = e.versionstamp;
    }
    assert.equal(due, deletion.versionstamp, "and its place in the queue too");
    const sessions = [];
    for await (const e of kv().list({ prefix: keys.sessionsByAccount(accountId) })) sessions.push(e);
    assert.deepEqual(sessions, [], "the sessions ended");
    assert.equal((await t.call("GET", "/api/settings", { cookie: a.cookie })).status, 401);

    // A second deletion finds the first under way and queues nothing more.
    await startDeletion((await getAccountByEmail(email))!).then((d) => assert.equal(d, null));
    let queued = 0;
    for await (const e of kv().list<{ job: { type: string } }>({ prefix: ["jobs"] })) {
      if (e.value.job.type === "account-delete") queued++;
    }
    assert.equal(queued, 1);

    // The job then runs the deletion to its end.
    await runJobs();
    shiftClock(LOG_PURGE_DELAY_MS + 60_000);
    await runJobs();
    assert.equal(await getDeletion(accountId), null);
    assert.equal(await getAccountByEmail(email), null);
  } finally {
    t.close();
  }
});

Deno.test("account - deletion: an export not yet downloaded goes too; every step may run again after a crash; the others' likes stay right", async () => {
  const t = await testApp();
  try {
    const email = "crashy@example.com";
    const a = await t.member(email), b = await t.member(), c = await t.member();
    const accountId = (await getAccountByEmail(email))!.id;
    const picA = await picture(t, a);
    const picB = await picture(t, b);
    const like = (from: Member, to: Member) =>
      t.call("PUT", "/api/profile-like", {
        cookie: from.cookie,
        json: { likerProfileId: from.profileId, likedProfileId: to.profileId, likeType: "LIKE" },
      });
    await like(a, b);
    await like(c, b);
    await like(b, a);
    await t.call("PUT", "/api/profile-pic-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, profilePicProfileId: b.profileId, profilePicId: picB, likeType: "LIKE" },
    });
    await t.call("PUT", "/api/profile-pic-like", {
      cookie: c.cookie,
      json: { likerProfileId: c.profileId, profilePicProfileId: b.profileId, profilePicId: picB, likeType: "LIKE" },
    });
    for (let i = 0; i < 3; i++) {
      await send(t, a, b, `a${i}`);
      await send(t, b, a, `b${i}`);
    }
    await runJobs();
    // A ZIP ready but not downloaded when the member deletes the account.
    assert.equal((await t.call("POST", "/api/account/export", { cookie: a.cookie })).status, 202);
    await runJobs();
    assert.equal((await exportBlobs()).length, 1);

    const del = await t.call("DELETE", "/api/account", { cookie: a.cookie, json: {} });
    assert.equal(del.status, 202, del.text);
    assert.equal((await t.call("DELETE", "/api/account", { cookie: a.cookie, json: {} })).status, 401);
    // Every step twice, as if the worker died after a step's work but before its progress was stored.
    for (;;) {
      const d = await getDeletion(accountId);
      if (!d) break;
      if (nextStepWaitsUntil(d) > 0) shiftClock(LOG_PURGE_DELAY_MS + 60_000);
      const step = await deleteMemberStep(accountId);
      if (step === null || step === "logs") break;
      await kv().set(keys.accountDeletion(accountId), d);
      assert.equal(await deleteMemberStep(accountId), step);
    }
    await runJobs();

    assert.equal((await receivedLikeCounts(b.profileId)).LIKE, 1, "c's like stays, a's goes");
    assert.equal((await picLikeTally(picB)).LIKE, 1, "c's picture like stays, a's goes");
    const chats = await t.call("GET", `/api/messages/most-recent-with/${b.profileId}`, { cookie: b.cookie });
    assert.equal(chats.data.items[0].bodyText, "b2", "the other side keeps the latest of theirs");
    assert.deepEqual(await exportBlobs(), [], "the unread export went with the account");
    assert.deepEqual(await holding([accountId, a.profileId, email, picA], (k) => k[0] === "audit_log"), []);
  } finally {
    t.close();
  }
});

Deno.test("account - deletion of a banned member keeps only the audit log and the hash of the mailbox: the address stays refused", async () => {
  const t = await testApp();
  try {
    const email = "Banned.Member+x@gmail.com";
    const a = await t.member(email);
    const admin = await t.member("ban-admin@example.com");
    await setRoles((await getAccountByEmail("ban-admin@example.com"))!.id, ["USER", "ADMIN"]);
    const account = (await getAccountByEmail(email.toLowerCase()))!;
    await send(t, a, admin, "hello");
    const ban = await t.call("POST", `/api/admin/members/${a.profileId}/actions`, {
      cookie: admin.cookie,
      json: { kind: "BAN", reason: "Scam" },
    });
    assert.equal(ban.status, 201, ban.text);
    await runJobs();

    // A banned member cannot log in to delete; an erasure asked another way runs the same job.
    await startDeletion(account);
    for (let i = 0; i < 20 && await getDeletion(account.id); i++) {
      shiftClock(LOG_PURGE_DELAY_MS + 60_000);
      await accountDeleteJob({ type: "account-delete", accountId: account.id });
    }
    assert.equal(await getDeletion(account.id), null);
    await runJobs();

    const kept = new Set<string>();
    const left = await holding(
      [account.id, a.profileId, account.email],
      (k) => {
        if (k[0] === "audit_log") kept.add("audit_log");
        return k[0] === "audit_log";
      },
    );
    assert.deepEqual(left, []);
    assert.ok(kept.has("audit_log"));
    let hashes = 0;
    for await (const _ of kv().list({ prefix: ["banned_emails"] })) hashes++;
    assert.equal(hashes, 1, "the mailbox's hash");
    const again = await t.call("POST", "/api/auth/register", {
      json: { email: "bannedmember@gmail.com", acknowledgements: ALL_ACKS },
    });
    assert.equal(again.status, 403);
    assert.equal(again.data.error.code, "register_blocked");
  } finally {
    t.close();
  }
});

Deno.test("account - an export asked for just before the deletion is neither built nor mailed", async () => {
  const t = await testApp();
  try {
    const email = "export-then-delete@example.com";
    const a = await t.member(email);
    const accountId = (await getAccountByEmail(email))!.id;
    assert.equal((await t.call("POST", "/api/account/export", { cookie: a.cookie })).status, 202);
    assert.equal((await t.call("DELETE", "/api/account", { cookie: a.cookie, json: {} })).status, 202);
    // The export's job was queued first: it runs while the deletion is under way.
    await accountExportJob({ type: "account-export", accountId });
    assert.deepEqual(await exportBlobs(), []);
    assert.equal((await listOutbox()).filter((m) => m.to === email && /data is ready/.test(m.subject)).length, 0);
    await runJobs();
    shiftClock(LOG_PURGE_DELAY_MS + 60_000);
    await runJobs();
    assert.deepEqual(await holding([accountId, a.profileId, email], (k) => k[0] === "audit_log"), []);
  } finally {
    t.close();
  }
});
