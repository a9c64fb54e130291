import assert from "node:assert/strict";
import { until } from "../../tests/wait.ts";
import { DatabaseSync } from "node:sqlite";
import { deserialize } from "node:v8";
import { testApp } from "../../tests/api.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { now, shiftClock } from "../../kv/clock.ts";
import { sendPrivateMessage } from "../../kv/messages.ts";
import { listNotifications } from "../../kv/notifications.ts";
import { healthKeysOf, reportsLeft, revealDueNotices } from "../../kv/healthNotices.ts";
import { flushHealthSpends, pendingSpends } from "../../kv/healthSpends.ts";
import { startHealthSpendFlush } from "../../workers/health.ts";
import { VOLUNTEER_WINDOW_DAYS } from "../../domain/games.ts";
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
  return await t.member(undefined, { address: `10.0.0.${++n % 250}`, ageMs: 8 * DAY });
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
    // What the send wrote: the two pending notices (no sender) and the reports' total (nobody), in
    // one commit; nothing names the sender, by their profile or their account (not their session either).
    const accountOfA = (await getProfile(a.profileId))!.accountId;
    assert.deepEqual(written.filter((e) => e.text.includes(a.profileId) || e.text.includes(accountOfA)), []);
    assert.deepEqual(written.map((e) => JSON.parse(e.key)[0]).sort(), [
      "health_pending",
      "health_pending",
      "health_totals",
    ]);
    assert.equal(new Set(written.map((e) => afterSend.get(e.key)!.versionstamp)).size, 1, "one commit");
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
    for (const e of written.filter((e) => JSON.parse(e.key)[0] === "health_pending")) {
      assert.deepEqual(Object.keys(JSON.parse(e.text)[1]).sort(), ["condition", "recipient", "since", "until"]);
    }
    // The report is counted for its limit, and still is after the flush that writes the spend.
    assert.equal((await contacts(t, a)).remaining, 1);
    await flushHealthSpends();
    assert.equal((await contacts(t, a)).remaining, 1);
    const flushed = changed(afterSend, await store());
    assert.deepEqual(
      flushed.filter((e) => e.text.includes(a.profileId)).map((e) => JSON.parse(e.key)[0]).sort(),
      ["game_credits", "game_credits_day", "health_month_counts"],
      "the flush writes the sender's count and the credit of the month's first report, no recipient",
    );
    assert.equal(
      (await t.call("GET", "/api/games/volunteer", { cookie: a.cookie })).data.credits,
      1,
      "as the answer said",
    );

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
      ["game_credits", "game_credits_day", "health_month_counts"],
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
    assert.deepEqual((await healthKeysOf(a.profileId)).map((k) => k[0]), ["health_month_counts"]);
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

Deno.test("health - spends: written at the flush with every count of the month again; the limit and the credit hold across it; a deleted member's spend is dropped; old counts are moved", async () => {
  const t = await testApp();
  try {
    t.alignClock(DAY); // the credits of one day are read below
    const [a, b, c, d, r] = [await member(t), await member(t), await member(t), await member(t), await member(t)];
    for (const m of [a, b, c, d]) await exchange(m, r);
    const month = new Date(now()).toISOString().slice(0, 7);
    // A count kept the way it was before (sender first, expiring): read for the limit, then moved.
    await kv().set(keys.healthReportCount(c.profileId, month), 1, { expireIn: 35 * DAY });
    assert.equal((await contacts(t, c)).remaining, 1);

    assert.equal((await report(t, a, [r.profileId])).status, 202);
    assert.equal((await report(t, b, [r.profileId])).status, 202);
    assert.equal(pendingSpends(), 2);
    // Nothing names a or b until the flush.
    assert.equal((await kv().get(keys.healthMonthCount(month, a.profileId))).value, null);
    await flushHealthSpends();
    assert.equal(pendingSpends(), 0);
    const counts = await Array.fromAsync(kv().list<Deno.KvU64>({ prefix: keys.healthMonthCounts(month) }));
    assert.deepEqual(
      counts.map((e) => [e.key[2], e.value.value]).sort(),
      [[a.profileId, 1n], [b.profileId, 1n], [c.profileId, 1n]].sort(),
    );
    assert.equal((await kv().get(keys.healthReportCount(c.profileId, month))).value, null, "the old count is moved");

    // A's second report: not credited, the credit already granted; the next flush writes every count again.
    const second = await report(t, a, [r.profileId], "HIV");
    assert.deepEqual(second.data, { queued: 1, credited: false, credits: 1 });
    assert.equal((await report(t, a, [r.profileId], "MPOX", 21)).status, 429);
    await flushHealthSpends();
    const again = await Array.fromAsync(kv().list<Deno.KvU64>({ prefix: keys.healthMonthCounts(month) }));
    assert.equal(new Set(again.map((e) => e.versionstamp)).size, 1, "one commit: no count tells when it changed");
    // The month's senders' credits are written again in it too: no credit row tells the hour it was earned.
    const today = Math.floor(now() / DAY);
    const creditRows = await kv().getMany(
      [a, b].flatMap((m) => [keys.gameCredits(m.profileId), keys.gameCreditsDay(m.profileId, today)]),
    );
    assert.deepEqual(creditRows.map((e) => e.versionstamp), creditRows.map(() => again[0].versionstamp));
    assert.equal(again.find((e) => e.key[2] === a.profileId)!.value.value, 2n);
    assert.equal((await t.call("GET", "/api/games/volunteer", { cookie: a.cookie })).data.credits, 1);
    assert.equal((await contacts(t, a)).remaining, 0);

    // C's report, then C's account is deleted before the flush: the deletion takes C's count and
    // drops the spend this process keeps; nothing of C is written again.
    assert.equal((await report(t, c, [r.profileId])).status, 202);
    const del = await t.call("DELETE", "/api/account", { cookie: c.cookie, json: {} });
    assert.equal(del.status, 202, del.text);
    await runDueJobs(handlers);
    assert.equal(pendingSpends(), 0);
    // D's report, and D's profile gone as another process's deletion leaves it (that process cannot
    // drop this one's spends): the flush drops D's spend.
    assert.equal((await report(t, d, [r.profileId])).status, 202);
    await kv().delete(keys.profile(d.profileId));
    await flushHealthSpends();
    for (const m of [c, d]) assert.equal((await kv().get(keys.healthMonthCount(month, m.profileId))).value, null);
    assert.equal(pendingSpends(), 0);

    // A new month: the limit starts again; months before the previous one are deleted by a flush.
    shiftClock(62 * DAY);
    assert.equal(await reportsLeft(a.profileId), 2);
    await flushHealthSpends();
    assert.equal((await kv().list({ prefix: keys.healthMonthCounts(month) }).next()).done, true);
  } finally {
    t.close();
  }
});

Deno.test("health - the flush timer writes the spends at the period's multiples, and once more when stopped", async () => {
  const t = await testApp();
  const flusher = startHealthSpendFlush(1000);
  try {
    const [a, r] = [await member(t), await member(t)];
    await exchange(a, r);
    assert.equal((await report(t, a, [r.profileId])).status, 202);
    const month = new Date(now()).toISOString().slice(0, 7);
    // The timer's flush has taken the spends and written them (taking comes before the write lands;
    // on a remote KV, a round trip after). The flush goes on past the count (it sweeps old months):
    // asked 100 ms apart, as this test always did, it has that time to end before the next report.
    const count = async () => (await kv().get<Deno.KvU64>(keys.healthMonthCount(month, a.profileId))).value?.value;
    await until(async () => pendingSpends() === 0 && await count() === 1n, "the flush to write the spends", {
      timeoutMs: 6_000,
      everyMs: 100,
    }).catch(() => {});
    assert.equal(await count(), 1n);
    assert.equal((await report(t, a, [r.profileId], "HIV")).status, 202);
  } finally {
    await flusher.stop();
    const month = new Date(now()).toISOString().slice(0, 7);
    const stored = await Array.fromAsync(kv().list<Deno.KvU64>({ prefix: keys.healthMonthCounts(month) }));
    t.close();
    assert.deepEqual(stored.map((e) => e.value.value), [2n], "stopping flushes what is left");
  }
});

// --- An operator with the KV file tries to tell who sent which notice.

const HOUR = 3_600_000;

/** One row of the KV file as its operator reads it: key, value, commit order and expiry. */
interface FileRow {
  key: unknown[];
  value: unknown;
  /** The commit's place in the file's commit order (what a versionstamp holds). */
  version: number;
  /** The expiry (ms since the epoch), -1 for none: not visible through the KV API, but in the file. */
  expiry: number;
  /** Key and value as searchable text. */
  text: string;
}

/** Decodes a Deno KV key of the file (the tuple encoding: strings, numbers, booleans, bytes). */
function decodeKey(k: Uint8Array): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  while (i < k.length) {
    const tag = k[i++];
    if (tag === 0x01 || tag === 0x02) {
      const bytes: number[] = [];
      while (i < k.length) {
        if (k[i] === 0x00 && k[i + 1] === 0xff) {
          bytes.push(0);
          i += 2;
        } else if (k[i] === 0x00) {
          i++;
          break;
        } else bytes.push(k[i++]);
      }
      out.push(tag === 0x02 ? new TextDecoder().decode(new Uint8Array(bytes)) : bytes);
    } else if (tag === 0x21) {
      const b = k.slice(i, i + 8);
      i += 8;
      if (b[0] & 0x80) b[0] ^= 0x80;
      else for (let j = 0; j < 8; j++) b[j] ^= 0xff;
      out.push(new DataView(b.buffer).getFloat64(0));
    } else if (tag === 0x26 || tag === 0x27) out.push(tag === 0x27);
    else {
      out.push(`?${tag}`); // no other kind of key part is used by the app
      break;
    }
  }
  return out;
}

/** Every row of the KV file at `path`, read as a copy of it would be: through SQLite, not through KV. */
function readStoreFile(path: string): FileRow[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const rows = db.prepare("SELECT k, v, v_encoding, version, expiration_ms FROM kv").all() as {
      k: Uint8Array;
      v: Uint8Array;
      v_encoding: number;
      version: number;
      expiration_ms: number;
    }[];
    return rows.map((r) => {
      const key = decodeKey(r.k);
      const value = r.v_encoding === 1
        ? deserialize(r.v)
        : r.v_encoding === 2
        ? new DataView(r.v.buffer, r.v.byteOffset, 8).getBigUint64(0, true)
        : r.v;
      const text = JSON.stringify([key, value], (_k, v) => typeof v === "bigint" ? v.toString() : v);
      return { key, value, version: Number(r.version), expiry: Number(r.expiration_ms), text };
    });
  } finally {
    db.close();
  }
}

/** The candidate with the least score; ties go to the first in key order (ids sort as they were made). */
function best<T>(xs: T[], score: (x: T) => number): T {
  let out = xs[0], least = Infinity;
  for (const x of xs) {
    const s = score(x);
    if (s < least) [out, least] = [x, s];
  }
  return out;
}

type NoticeRow = FileRow & { key: [string, number, string]; value: { recipient: string } };

/**
 * The operator's guesses, one set per strategy: for each recipient of a pending notice, which
 * sender told them. It knows the senders (whoever has a monthly count), every member's ids (a
 * profile names its account), and how the code writes (the spans its expiries are set with, the
 * longest delay). Times it reads in values and keys are the server's (the test's shifted clock);
 * expiries are the storage engine's, by the real clock.
 */
function operatorGuesses(rows: FileRow[], maxDelay: number): Map<string, Map<string, string>> {
  const profiles = rows.filter((r) => r.key[0] === "profiles" && r.key.length === 2) as (FileRow & {
    value: { id: string; accountId: string };
  })[];
  const names = new Map(profiles.map((p) => [p.value.id, [p.value.id, p.value.accountId]]));
  const isCount = (r: FileRow) => r.key[0] === "health_month_counts" || r.key[0] === "health_report_counts";
  const senders = [
    ...new Set(rows.filter(isCount).map((r) => [...names.keys()].find((id) => r.key.includes(id))!)),
  ].sort();
  const notices = rows.filter((r) => r.key[0] === "health_pending") as NoticeRow[];
  // Each sender's rows: every row that names them (their profile id or their account id).
  const rowsOf = new Map(senders.map((s) => [s, rows.filter((r) => names.get(s)!.some((n) => r.text.includes(n)))]));
  const versionGap = (s: string, v: number, dir: -1 | 0 | 1) =>
    Math.min(
      ...rowsOf.get(s)!.map((r) => r.version - v).filter((d) => dir === 0 || Math.sign(d) === dir).map(Math.abs),
    );
  // The send time an expiry points at: the code sets expiries these spans after a send (or a day).
  const spans = [35, VOLUNTEER_WINDOW_DAYS + 1, VOLUNTEER_WINDOW_DAYS + 2, 90].map((d) => d * DAY);
  const expiryGap = (s: string, visibleAt: number) =>
    Math.min(
      ...rowsOf.get(s)!.filter((r) => r.expiry >= 0).flatMap((r) =>
        spans.map((span) => Math.abs(r.expiry - span - (visibleAt - maxDelay / 2)))
      ),
    );
  // Times in values (last seen, created, granted...): the one nearest the send a notice points at.
  const timesOf = new Map(senders.map((s) => [
    s,
    rowsOf.get(s)!.flatMap((r) => [...r.text.matchAll(/\b1\d{12}\b/g)].map((m) => Number(m[0]))),
  ]));
  const valueGap = (s: string, visibleAt: number) =>
    Math.min(...timesOf.get(s)!.map((x) => Math.abs(x - (visibleAt - maxDelay / 2))));
  // Rank: the n-th notice in commit order goes with the n-th sender by their count's commit.
  const countCommit = (s: string) => Math.max(...rowsOf.get(s)!.filter(isCount).map((r) => r.version));
  const byCount = [...senders].sort((a, b) => countCommit(a) - countCommit(b));
  const noticesInOrder = [...notices].sort((a, b) => a.version - b.version || a.key[1] - b.key[1]);
  const strategies: Record<string, (n: NoticeRow) => string> = {
    sameCommit: (n) => best(senders, (s) => rowsOf.get(s)!.some((r) => r.version === n.version) ? 0 : 1),
    nearestCommit: (n) => best(senders, (s) => versionGap(s, n.version, 0)),
    lastCommitBefore: (n) => best(senders, (s) => versionGap(s, n.version, -1)),
    firstCommitAfter: (n) => best(senders, (s) => versionGap(s, n.version, 1)),
    expiry: (n) => best(senders, (s) => expiryGap(s, n.key[1])),
    timeInValue: (n) => best(senders, (s) => valueGap(s, n.key[1])),
    rank: (n) => byCount[Math.min(byCount.length - 1, noticesInOrder.indexOf(n))],
  };
  // Expiry rank: for each kind of row every sender has that expires, the n-th notice in commit
  // order goes with the n-th sender by that row's expiry (the test's shifted clock moves no expiry,
  // so the expiries' order is what an operator would use here).
  const expiring = (s: string, kind: unknown) =>
    Math.max(...rowsOf.get(s)!.filter((r) => r.key[0] === kind && r.expiry >= 0).map((r) => r.expiry));
  const kinds = new Set(rows.filter((r) => r.expiry >= 0).map((r) => r.key[0]));
  for (const kind of kinds) {
    if (!senders.every((s) => expiring(s, kind) > -Infinity)) continue;
    const byExpiry = [...senders].sort((a, b) => expiring(a, kind) - expiring(b, kind));
    strategies[`expiryRank ${kind}`] = (n) => byExpiry[Math.min(byExpiry.length - 1, noticesInOrder.indexOf(n))];
  }
  const out = new Map<string, Map<string, string>>();
  for (const [name, guess] of Object.entries(strategies)) {
    out.set(name, new Map(notices.map((n) => [n.value.recipient, guess(n)])));
  }
  return out;
}

/** A random order of 0..n-1. */
function randomOrder(n: number): number[] {
  const out = [...Array(n).keys()];
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

Deno.test("health - an operator reading the KV file (keys, values, commit order, expiries) links senders to recipients no better than chance", async () => {
  const N = 6, TRIALS = Number(Deno.env.get("HEALTH_LINK_TRIALS") ?? 20);
  const right = new Map<string, number>();
  for (let trial = 0; trial < TRIALS; trial++) {
    const dir = await Deno.makeTempDir();
    const t = await testApp({ path: `${dir}/app.kv` });
    try {
      t.alignClock(HOUR);
      const senders: Member[] = [], recipients: Member[] = [];
      for (let i = 0; i < N; i++) senders.push(await member(t));
      for (let i = 0; i < N; i++) recipients.push(await member(t));
      // Every recipient wrote with every sender: their conversations tell nothing of who told whom.
      for (const k of randomOrder(N * N)) await exchange(senders[Math.floor(k / N)], recipients[k % N]);
      await runDueJobs(handlers);
      // Each sender tells their own recipient, in a random order, minutes apart, within the hour.
      const told = new Map<string, string>();
      for (const i of randomOrder(N)) {
        shiftClock(60_000 + Math.floor(Math.random() * 4 * 60_000));
        const r = await report(t, senders[i], [recipients[i].profileId]);
        assert.equal(r.status, 202, r.text);
        told.set(recipients[i].profileId, senders[i].profileId);
      }
      // The top of the hour: the flush writes the counts of the period's senders.
      t.alignClock(HOUR);
      await flushHealthSpends();
      const rows = readStoreFile(`${dir}/app.kv`);
      assert.equal(rows.filter((r) => r.key[0] === "health_pending").length, N, "the notices still wait");
      for (const [strategy, guesses] of operatorGuesses(rows, MAX_DELAY)) {
        const hits = [...guesses].filter(([recipient, sender]) => told.get(recipient) === sender).length;
        right.set(strategy, (right.get(strategy) ?? 0) + hits);
      }
    } finally {
      t.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
  const rates = Object.fromEntries([...right].map(([s, hits]) => [s, hits / (N * TRIALS)]));
  console.log(`links guessed right (chance ${(1 / N).toFixed(3)}):`, rates);
  for (const [strategy, rate] of Object.entries(rates)) {
    assert.ok(rate <= 1 / N + 0.15, `${strategy} links ${(rate * 100).toFixed(0)}% of senders to their recipients`);
  }
});
