import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { shiftClock } from "../../kv/clock.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { listNotifications } from "../../kv/notifications.ts";
import { healthKeysOf, revealDueNotices } from "../../kv/healthNotices.ts";
import { collectMemberData } from "../../kv/memberData.ts";
import { loadMaster, loadVariant } from "../../workers/pictures.ts";
import { getProfile } from "../../kv/profiles.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

const DAY = 86_400_000;
let n = 0;
// The longest random delay before a notice shows, shortened for these tests (a day by default).
const MAX_DELAY = 60_000;
Deno.env.set("HEALTH_NOTICE_MAX_DELAY_MS", String(MAX_DELAY));

/** A member whose account is eight days old: old enough to report. */
async function member(t: T): Promise<Member> {
  const m = await t.member(undefined, { address: `10.0.0.${++n % 250}` });
  await t.backdateAccount(m.profileId, 6 * DAY);
  return m;
}

/** A message each way. */
async function exchange(a: Member, b: Member) {
  await sendPrivateMessage(a.profileId, b.profileId, "hi there", []);
  await sendPrivateMessage(b.profileId, a.profileId, "hello you", []);
}

const block = (t: T, a: Member, b: Member) =>
  t.call("PUT", "/api/profile-like", {
    cookie: a.cookie,
    json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "DISLIKE", blocked: true },
  });

const contacts = async (t: T, m: Member, days = 90) => {
  const r = await t.call("GET", `/api/games/healthreport/contacts?days=${days}`, { cookie: m.cookie });
  assert.equal(r.status, 200, r.text);
  return r.data as { items: { profileId: string; profileName: string }[]; remaining: number; tooNew: boolean };
};

const report = (t: T, m: Member, profileIds: string[], condition = "SYPHILIS", days = 90) =>
  t.call("POST", "/api/games/healthreport", { cookie: m.cookie, json: { condition, days, profileIds } });

/** Every entry of the store: key and value as one searchable text, by key. */
async function store(): Promise<Map<string, { text: string; versionstamp: string }>> {
  const out = new Map<string, { text: string; versionstamp: string }>();
  for await (const e of kv().list({ prefix: [] })) {
    const text = JSON.stringify([e.key, e.value], (_k, v) => typeof v === "bigint" ? v.toString() : v);
    out.set(JSON.stringify(e.key), { text, versionstamp: e.versionstamp });
  }
  return out;
}

/** The entries written or changed since `before`. */
function changed(
  before: Map<string, { versionstamp: string }>,
  after: Map<string, { text: string; versionstamp: string }>,
) {
  return [...after.entries()].filter(([k, v]) => before.get(k)?.versionstamp !== v.versionstamp)
    .map(([key, v]) => ({ key, text: v.text }));
}

Deno.test("health - contacts: a message each way within the period; one-way, blocked (either way) and old ones left out", async () => {
  const t = await testApp();
  try {
    const [a, b, oneWay, blocked, blocker, old] = [
      await member(t),
      await member(t),
      await member(t),
      await member(t),
      await member(t),
      await member(t),
    ];
    shiftClock(-40 * DAY);
    await exchange(a, old);
    shiftClock(40 * DAY);
    await exchange(a, b);
    await sendPrivateMessage(a.profileId, oneWay.profileId, "anyone there?", []);
    await exchange(a, blocked);
    await exchange(a, blocker);
    assert.equal((await block(t, a, blocked)).status, 200);
    assert.equal((await block(t, blocker, a)).status, 200);

    const c90 = await contacts(t, a, 90);
    assert.deepEqual(c90.items.map((c) => c.profileId).sort(), [b.profileId, old.profileId].sort());
    assert.equal(c90.remaining, 2);
    assert.equal(c90.tooNew, false);
    const c30 = await contacts(t, a, 30);
    assert.deepEqual(c30.items.map((c) => c.profileId), [b.profileId], "the older conversation is out of 30 days");
    assert.equal((await t.call("GET", "/api/games/healthreport/contacts?days=45", { cookie: a.cookie })).status, 400);

    // The server recomputes the allowed set: a one-way, a blocked or an out-of-period member is refused.
    for (const ids of [[oneWay.profileId], [b.profileId, blocked.profileId], [blocker.profileId]]) {
      const r = await report(t, a, ids);
      assert.equal(r.status, 403, r.text);
    }
    assert.equal((await report(t, a, [old.profileId], "SYPHILIS", 30)).status, 403);
    assert.equal((await report(t, a, [])).status, 400);
    assert.equal((await report(t, a, [b.profileId], "FLU")).status, 400);
    // Nothing was counted or queued by the refused reports.
    assert.equal((await contacts(t, a)).remaining, 2);
    assert.equal((await kv().list({ prefix: keys.healthPendingAll() }).next()).done, true);
  } finally {
    t.close();
  }
});

Deno.test("health - after a report, nothing in the store links the sender to a recipient; the notice says what and when only", async () => {
  const t = await testApp();
  try {
    const [a, b, c] = [await member(t), await member(t), await member(t)];
    await exchange(a, b);
    await exchange(a, c);
    await runDueJobs(handlers);
    const before = await store();

    const r = await report(t, a, [b.profileId, c.profileId], "GONORRHOEA", 60);
    assert.equal(r.status, 202, r.text);
    assert.deepEqual(r.data, { queued: 2, credited: true, credits: 1 });
    // Nothing is visible yet, and nothing was published to the recipients.
    assert.deepEqual((await t.call("GET", "/api/games/cooties", { cookie: b.cookie })).data, { items: [] });
    const healthNotes = async (m: Member) =>
      (await listNotifications(m.profileId)).filter((x) => x.url === "/games/cooties");
    assert.equal((await healthNotes(b)).length, 0);

    const afterSend = await store();
    const written = changed(before, afterSend);
    // What the send wrote: the sender's count and credit (no recipient), two pending notices (no sender).
    const withSender = written.filter((e) => e.text.includes(a.profileId)).map((e) => JSON.parse(e.key)[0]).sort();
    assert.deepEqual(withSender, ["game_credits", "game_credits_day", "health_report_counts"]);
    for (const e of written) {
      assert.ok(
        !(e.text.includes(b.profileId) && e.text.includes(a.profileId)),
        `links sender and recipient: ${e.key}`,
      );
      assert.ok(
        !(e.text.includes(c.profileId) && e.text.includes(a.profileId)),
        `links sender and recipient: ${e.key}`,
      );
    }
    const pending = written.filter((e) => JSON.parse(e.key)[0] === "health_pending");
    assert.equal(pending.length, 2);
    // Each notice in its own commit: no shared versionstamp ties the recipients of one report together.
    const stamps = new Set(pending.map((e) => afterSend.get(e.key)!.versionstamp));
    assert.equal(stamps.size, 2);

    // After the longest delay the sweep reveals both, with a notification and a push each.
    shiftClock(MAX_DELAY + 1);
    assert.equal(await revealDueNotices(), 2);
    await runDueJobs(handlers);
    const all = changed(before, await store());
    for (const e of all) {
      for (const who of [b.profileId, c.profileId]) {
        assert.ok(!(e.text.includes(who) && e.text.includes(a.profileId)), `links sender and recipient: ${e.key}`);
      }
    }
    assert.deepEqual(
      [...new Set(all.filter((e) => e.text.includes(a.profileId)).map((e) => JSON.parse(e.key)[0]))].sort(),
      ["game_credits", "game_credits_day", "health_report_counts"],
      "no entry but the count and the credit holds the sender",
    );
    assert.equal((await kv().list({ prefix: keys.healthPendingAll() }).next()).done, true, "the pending set is empty");

    const seen = await t.call("GET", "/api/games/cooties", { cookie: b.cookie });
    assert.equal(seen.status, 200);
    assert.equal(seen.data.items.length, 1);
    const notice = seen.data.items[0];
    assert.deepEqual(Object.keys(notice).sort(), ["condition", "id", "since", "until"]);
    assert.equal(notice.condition, "GONORRHOEA");
    assert.equal(notice.until % DAY, 0, "whole days only: the exact time of the report is not kept");
    assert.equal(notice.until - notice.since, 60 * DAY);
    assert.ok(!seen.text.includes(a.profileId));
    const notes = await healthNotes(b);
    assert.equal(notes.length, 1);
    assert.equal(notes[0].bodyText, "A health notice for you.");
    assert.equal(notes[0].url, "/games/cooties");

    // Exports: the recipient's holds the notice and no sender; the sender's holds nothing of the report.
    const recipientData =
      (await collectMemberData((await getProfile(b.profileId))!.accountId, { loadMaster, loadVariant }))!
        .json as Record<
          string,
          unknown
        >;
    assert.deepEqual(recipientData.healthNotices, [notice]);
    const senderData =
      (await collectMemberData((await getProfile(a.profileId))!.accountId, { loadMaster, loadVariant }))!
        .json as Record<
          string,
          unknown
        >;
    assert.deepEqual(senderData.healthNotices, []);
    assert.ok(!JSON.stringify(senderData).includes("GONORRHOEA"));
    assert.ok(!JSON.stringify(senderData).includes("health_report"));

    // The recipient's deletion takes their notices; the sender's takes their count.
    assert.ok((await healthKeysOf(b.profileId)).length >= 1);
    assert.deepEqual((await healthKeysOf(a.profileId)).map((k) => k[0]), ["health_report_counts"]);
  } finally {
    t.close();
  }
});

Deno.test("health - limits: 2 reports a calendar month, accounts 7 days old, a credit once a month", async () => {
  const t = await testApp();
  try {
    t.alignClock(31 * DAY); // not needed for months, but keeps the run away from a day's end
    const [a, b] = [await member(t), await member(t)];
    const young = await t.member(undefined, { address: "10.1.0.1" });
    await exchange(a, b);
    await exchange(young, b);
    assert.equal((await contacts(t, young)).tooNew, true);
    const r0 = await report(t, young, [b.profileId]);
    assert.equal(r0.status, 403);
    assert.equal(r0.data.error.code, "account_too_new");

    const r1 = await report(t, a, [b.profileId]);
    assert.equal(r1.status, 202);
    assert.equal(r1.data.credited, true);
    const r2 = await report(t, a, [b.profileId], "HIV");
    assert.equal(r2.status, 202);
    assert.equal(r2.data.credited, false, "telling earns once a month");
    assert.equal(r2.data.credits, 1);
    const r3 = await report(t, a, [b.profileId], "MPOX", 21);
    assert.equal(r3.status, 429);
    assert.equal(r3.data.error.code, "monthly_limit");
    assert.equal((await contacts(t, a)).remaining, 0);
  } finally {
    t.close();
  }
});

Deno.test("health - several notices of one condition in overlapping windows show as one, with one notification; abuse is counted", async () => {
  const t = await testApp();
  try {
    const [a, b, r] = [await member(t), await member(t), await member(t)];
    await exchange(a, r);
    await exchange(b, r);
    assert.equal((await report(t, a, [r.profileId], "CHLAMYDIA", 60)).status, 202);
    assert.equal((await report(t, b, [r.profileId], "CHLAMYDIA", 90)).status, 202);
    assert.equal((await report(t, b, [r.profileId], "MPOX", 21)).status, 202);
    shiftClock(MAX_DELAY + 1);
    assert.equal(await revealDueNotices(), 3);

    const items = (await t.call("GET", "/api/games/cooties", { cookie: r.cookie })).data.items as {
      id: string;
      condition: string;
      since: number;
      until: number;
    }[];
    assert.deepEqual(items.map((i) => i.condition).sort(), ["CHLAMYDIA", "MPOX"]);
    const chlamydia = items.find((i) => i.condition === "CHLAMYDIA")!;
    assert.equal(chlamydia.until - chlamydia.since, 90 * DAY, "the window spans both");
    assert.equal(
      (await listNotifications(r.profileId)).filter((x) => x.url === "/games/cooties").length,
      2,
      "one notification per notice shown",
    );

    // Reported as abuse: gone, counted; admins see totals only.
    const other = await member(t);
    assert.equal(
      (await t.call("POST", `/api/games/cooties/${chlamydia.id}/abuse`, { cookie: other.cookie })).status,
      404,
    );
    assert.equal((await t.call("POST", `/api/games/cooties/${chlamydia.id}/abuse`, { cookie: r.cookie })).status, 200);
    const left = (await t.call("GET", "/api/games/cooties", { cookie: r.cookie })).data.items;
    assert.deepEqual(left.map((i: { condition: string }) => i.condition), ["MPOX"]);
    assert.equal((await t.call("GET", "/api/admin/games/healthreport", { cookie: r.cookie })).status, 403);
    await setRoles((await getAccountByEmail(other.email))!.id, ["USER", "ADMIN"]);
    const counts = await t.call("GET", "/api/admin/games/healthreport", { cookie: other.cookie });
    assert.deepEqual(counts.data, { reports: 3, notices: 3, pending: 0, abuse: 1 });
    // A notice counts toward no moderation of its recipient.
    assert.equal((await kv().list({ prefix: keys.reportsByReported(r.profileId) }).next()).done, true);
    assert.equal((await kv().get(keys.withdrawn(r.profileId))).value, null);
  } finally {
    t.close();
  }
});
