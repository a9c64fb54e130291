import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { now, shiftClock } from "../../kv/clock.ts";
import { escalateReport } from "../../kv/games/dungeon.ts";
import { reportDeadlineJob } from "../../workers/dungeon.ts";
import { formatUntil } from "../../domain/moderation.ts";
import { QUIZ_ANSWERS } from "../../domain/dungeon.ts";
import type { JobRecord } from "../../kv/jobs.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

let address = 0;

/**
 * An established member from an address of their own (registering is limited per address),
 * logged in with "remember me", so that a session outlives the days a test moves the clock.
 */
function member(t: T, email?: string): Promise<Member> {
  const from = `10.9.${Math.floor(++address / 250)}.${address % 250 + 1}`;
  return t.member(email, { address: from, remember: true });
}

async function adminOf(t: T): Promise<Member> {
  const a = await member(t, `admin-${crypto.randomUUID().slice(0, 6)}@example.com`);
  await setRoles((await getAccountByEmail(a.email))!.id, ["USER", "ADMIN"]);
  return a;
}

async function report(t: T, by: Member, about: Member, reason: string, text = ""): Promise<string> {
  const r = await t.call("POST", "/api/profile-report", {
    cookie: by.cookie,
    json: { reportedProfileId: about.profileId, reason, text },
  });
  assert.equal(r.status, 201, r.text);
  return r.data.id;
}

async function vote(t: T, juror: Member, reportId: string, verdict: "VIOLATION" | "NO_VIOLATION") {
  const r = await t.call("PUT", `/api/games/arbitration/${reportId}`, { cookie: juror.cookie, json: { verdict } });
  assert.equal(r.status, 200, r.text);
  return r.data;
}

async function confirm(t: T, admin: Member, reportId: string) {
  const r = await t.call("PUT", `/api/admin/reports/${reportId}`, {
    cookie: admin.cookie,
    json: { decision: "CONFIRM" },
  });
  assert.equal(r.status, 200, r.text);
}

async function view(t: T, m: Member) {
  const r = await t.call("GET", "/api/games/dungeon", { cookie: m.cookie });
  assert.equal(r.status, 200, r.text);
  return r.data as { serving: number; card: null | Record<string, unknown> & { until: number; tsStart: number } };
}

const like = (t: T, from: Member, to: Member) =>
  t.call("PUT", "/api/profile-like", {
    cookie: from.cookie,
    json: { likerProfileId: from.profileId, likedProfileId: to.profileId, likeType: "LIKE" },
  });

const message = (t: T, from: Member, to: Member, bodyText = "hello") =>
  t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText, profilePicIds: [] },
  });

async function audit(t: T, admin: Member, target: string): Promise<string[]> {
  const r = await t.call("GET", "/api/admin/audit?limit=500", { cookie: admin.cookie });
  return (r.data.items as { action: string; target: string }[]).filter((e) => e.target === target).map((e) => e.action);
}

async function jurors(t: T, n: number): Promise<Member[]> {
  const out: Member[] = [];
  for (let i = 0; i < n; i++) out.push(await member(t));
  return out;
}

Deno.test("dungeon - a strong jury sends a small violation at once: the card names no one else, restricted actions say until when, others see a count", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const reporter = await member(t), bad = await member(t), friend = await member(t), stranger = await member(t);
    assert.ok((await updateProfile(reporter.profileId, { profilename: "Robin Example" })).ok);
    // A conversation under way before the time-out.
    assert.equal((await message(t, bad, friend, "hi there")).status, 201);
    const id = await report(t, reporter, bad, "rude", "He called Robin an idiot in chat.\n@sam_x saw it too.");
    const jury = await jurors(t, 5);
    // Accounts made within the day vote, but decide nothing alone.
    const newcomer = await t.member(undefined, { newcomer: true, address: "10.8.0.1" });
    assert.equal((await vote(t, newcomer, id, "VIOLATION")).case.status, "OPEN");
    for (const j of jury.slice(0, 4)) assert.equal((await vote(t, j, id, "VIOLATION")).case.status, "OPEN");
    // Four votes are too few, however clear.
    assert.equal((await view(t, bad)).card, null);
    const last = await vote(t, jury[4], id, "VIOLATION");
    assert.equal(last.case.status, "CONFIRMED");

    const { card, serving } = await view(t, bad);
    assert.equal(serving, 1);
    assert.ok(card);
    assert.deepEqual(card.lines, ["He called … an idiot in chat.", "… saw it too."]);
    assert.ok(!JSON.stringify(card).includes("Robin"), "the reporter's name is never shown");
    assert.ok(!JSON.stringify(card).includes(reporter.profileId));
    assert.equal(card.reason, "rude");
    assert.equal(card.step, 1);
    assert.equal(card.until - card.tsStart, DAY);
    assert.deepEqual(card.restricts, ["first_message", "like", "map_chat"]);

    // Restricted actions: 403 with the end of the stay in the message.
    const until = formatUntil(card.until);
    const liked = await like(t, bad, stranger);
    assert.equal(liked.status, 403);
    assert.equal(liked.data.error.code, "dungeon_restricted");
    assert.ok(liked.data.error.message.includes(until), liked.data.error.message);
    const first = await message(t, bad, stranger);
    assert.equal(first.status, 403);
    assert.ok(first.data.error.message.includes(until));
    assert.ok(first.data.error.message.includes("first messages"));
    const post = await t.call("POST", "/api/message", {
      cookie: bad.cookie,
      json: { senderProfileId: bad.profileId, bodyText: "hello all", profilePicIds: [] },
    });
    assert.equal(post.status, 403);
    assert.ok(post.data.error.message.includes("Map Chat"));
    // A conversation under way goes on; a dislike is no like.
    assert.equal((await message(t, bad, friend, "sorry about earlier")).status, 201);

    // The member alone is told, in the language they read it in, with the way to their card.
    type Note = { bodyText: string; url?: string };
    const notesOf = async (m: Member, lang = "en") =>
      (await t.call("GET", `/api/notifications/${m.profileId}`, {
        cookie: m.cookie,
        headers: { "accept-language": lang },
      })).data as Note[];
    const stayNotes = (await notesOf(bad)).filter((n) => n.url === "/games/dungeon");
    assert.deepEqual(stayNotes.map((n) => n.bodyText), [
      "You are in a time-out for 24 hours: no first messages, likes or Map Chat posts. Bad Boy Dungeon says why, and how to shorten it.",
    ]);
    assert.equal(
      (await notesOf(bad, "es")).find((n) => n.url === "/games/dungeon")?.bodyText,
      "Estás en pausa durante 24 horas: sin primeros mensajes, me gusta ni publicaciones en el Chat del mapa. La Mazmorra te dice por qué y cómo acortarla.",
    );
    for (const m of [stranger, reporter, friend, ...jury]) {
      const seen = await notesOf(m);
      assert.ok(!seen.some((n) => n.url === "/games/dungeon" || /time-out/.test(n.bodyText)), JSON.stringify(seen));
    }

    // Everyone else: the count only, no card, nothing on the profile.
    for (const m of [stranger, reporter, jury[0]]) assert.deepEqual(await view(t, m), { serving: 1, card: null });
    const profile = await t.call("GET", `/api/profile/${bad.profileId}`, { cookie: stranger.cookie });
    assert.equal(profile.status, 200);
    assert.ok(!/dungeon|restrict|stay/i.test(profile.text), profile.text);
    const page = await t.call("GET", "/games/dungeon", { cookie: stranger.cookie });
    assert.equal(page.status, 200);
    assert.ok(page.text.includes("1 member is serving a time-out right now."));
    assert.ok(!page.text.includes("Your time-out"));
    const own = await t.call("GET", "/games/dungeon", { cookie: bad.cookie });
    assert.ok(own.text.includes("Your time-out") && own.text.includes("He called … an idiot in chat."));

    // The audit log has the step, by the jury; jurors agreeing are counted.
    assert.ok((await audit(t, admin, bad.profileId)).includes("DUNGEON_STAY"));
    const record = (await kv().get<{ agreed: number; total: number }>(keys.jurorRecord(jury[0].profileId))).value;
    assert.deepEqual(record, { agreed: 1, total: 1 });

    // The stay ends by itself.
    shiftClock(DAY + 60_000);
    assert.equal((await like(t, bad, stranger)).status, 200);
    assert.equal((await view(t, stranger)).serving, 0);
  } finally {
    t.close();
  }
});

Deno.test("dungeon - each juror weighs by how often they agreed with final verdicts", async () => {
  const t = await testApp();
  try {
    const reporter = await member(t), a = await member(t), b = await member(t);
    const jury = await jurors(t, 5);
    // Four jurors who never agreed with a final verdict, one who always did, says 'No violation'.
    for (const j of jury.slice(0, 4)) await kv().set(keys.jurorRecord(j.profileId), { agreed: 0, total: 10 });
    await kv().set(keys.jurorRecord(jury[4].profileId), { agreed: 40, total: 40 });
    const weak = await report(t, reporter, a, "spam", "Sends the same link to everyone.");
    for (const j of jury.slice(0, 4)) await vote(t, j, weak, "VIOLATION");
    const r = await vote(t, jury[4], weak, "NO_VIOLATION");
    // 80% of heads, but far from 80% of weight: an admin decides.
    assert.equal(r.case.status, "OPEN");
    assert.equal((await view(t, a)).card, null);

    // The same heads with equal weights: 4 of 5 is 80%, enough.
    const fresh = await jurors(t, 5);
    const strong = await report(t, reporter, b, "fake", "");
    for (const j of fresh.slice(0, 4)) await vote(t, j, strong, "VIOLATION");
    assert.equal((await vote(t, fresh[4], strong, "NO_VIOLATION")).case.status, "CONFIRMED");
    const card = (await view(t, b)).card!;
    assert.deepEqual(card.lines, [], "a report without text shows no lines");
    // The dissenter disagreed with the final verdict; the others agreed.
    assert.deepEqual((await kv().get(keys.jurorRecord(fresh[4].profileId))).value, { agreed: 0, total: 1 });
    assert.deepEqual((await kv().get(keys.jurorRecord(fresh[0].profileId))).value, { agreed: 1, total: 1 });
  } finally {
    t.close();
  }
});

Deno.test("dungeon - severe harms never go to the dungeon: the admins' queue as before", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const reporter = await member(t);
    const jury = await jurors(t, 5);
    for (const reason of ["harassment", "underage", "pictures", "illegal", "other"]) {
      const bad = await member(t);
      const id = await report(t, reporter, bad, reason, "Threatened to hurt me.");
      for (const j of jury) assert.equal((await vote(t, j, id, "VIOLATION")).case.status, "OPEN", reason);
      const queue = await t.call("GET", "/api/admin/moderation/queue", { cookie: admin.cookie });
      assert.ok(queue.data.items.some((it: { profileId: string }) => it.profileId === bad.profileId));
      await confirm(t, admin, id);
      assert.equal((await view(t, bad)).card, null, reason);
      assert.notEqual((await like(t, bad, reporter)).status, 403, reason);
    }
  } finally {
    t.close();
  }
});

Deno.test("dungeon - graduated stays: 24 h, then 3 days, then 7 days within 90 days, and the admins are told", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const reporter = await member(t), bad = await member(t);
    const lengths: number[] = [];
    for (const [i, reason] of ["rude", "mapchat", "spam"].entries()) {
      const id = await report(t, reporter, bad, reason, `Line ${i}`);
      await confirm(t, admin, id);
      const card = (await view(t, bad)).card!;
      assert.equal(card.step, i + 1);
      lengths.push(card.until - card.tsStart);
      shiftClock(card.until - now() + 60_000);
    }
    assert.deepEqual(lengths, [DAY, 3 * DAY, 7 * DAY]);
    // Each stay tells its member how long it lasts.
    const told = await t.call("GET", `/api/notifications/${bad.profileId}`, { cookie: bad.cookie });
    const lasts = (told.data as { bodyText: string; url?: string }[]).filter((n) => n.url === "/games/dungeon")
      .map((n) => n.bodyText.match(/for (24 hours|3 days|7 days)/)?.[1]).sort();
    assert.deepEqual(lasts, ["24 hours", "3 days", "7 days"]);
    const actions = await audit(t, admin, bad.profileId);
    assert.equal(actions.filter((a) => a === "DUNGEON_STAY").length, 3);
    assert.ok(actions.includes("DUNGEON_ADMINS_TOLD"));
    const notes = await t.call("GET", `/api/notifications/${admin.profileId}`, { cookie: admin.cookie });
    assert.ok(
      (notes.data as { bodyText: string; url: string }[]).some((n) =>
        n.bodyText.includes("third time-out") && n.url === `/admin/members/${bad.profileId}`
      ),
    );
    const notesAr = await t.call("GET", `/api/notifications/${admin.profileId}`, {
      cookie: admin.cookie,
      headers: { "accept-language": "ar" },
    });
    assert.ok(
      (notesAr.data as { bodyText: string }[]).some((n) => n.bodyText === "بدأ عضو استراحة إجبارية ثالثة خلال 90 يومًا."),
    );
    // A fourth within the window stays at 7 days.
    await confirm(t, admin, await report(t, reporter, bad, "rude", "again"));
    const fourth = (await view(t, bad)).card!;
    assert.equal(fourth.until - fourth.tsStart, 7 * DAY);
  } finally {
    t.close();
  }
});

Deno.test("dungeon - the quiz shortens a stay once by a third; one appeal; the admins' word is final; admins end any stay", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const reporter = await member(t), bad = await member(t), other = await member(t), third = await member(t);
    const outsider = await member(t);
    await confirm(t, admin, await report(t, reporter, bad, "rude", "You are ugly."));
    const before = (await view(t, bad)).card!;

    // Not in the dungeon: nothing to shorten or appeal.
    const none = await t.call("POST", "/api/games/dungeon/quiz", {
      cookie: outsider.cookie,
      json: { answers: [...QUIZ_ANSWERS] },
    });
    assert.equal(none.status, 409);
    assert.equal(none.data.error.code, "no_stay");
    assert.equal(
      (await t.call("POST", "/api/games/dungeon/appeal", { cookie: outsider.cookie, json: { text: "x" } })).status,
      409,
    );
    // Bad input: 400.
    for (const json of [{ answers: [1, 1] }, { answers: "all" }, {}]) {
      assert.equal((await t.call("POST", "/api/games/dungeon/quiz", { cookie: bad.cookie, json })).status, 400);
    }
    assert.equal(
      (await t.call("POST", "/api/games/dungeon/appeal", { cookie: bad.cookie, json: { text: "  " } })).status,
      400,
    );

    // Wrong answers change nothing; right ones shorten once by a third.
    const wrong = await t.call("POST", "/api/games/dungeon/quiz", {
      cookie: bad.cookie,
      json: { answers: [0, 1, 0, 0] },
    });
    assert.equal(wrong.status, 200);
    assert.deepEqual(wrong.data, { passed: false, wrong: [0, 3] });
    assert.equal((await view(t, bad)).card!.until, before.until);
    const quizKey = { "idempotency-key": "q".repeat(32) };
    const right = await t.call("POST", "/api/games/dungeon/quiz", {
      cookie: bad.cookie,
      json: { answers: [...QUIZ_ANSWERS] },
      headers: quizKey,
    });
    assert.equal(right.status, 200, right.text);
    assert.equal(right.data.passed, true);
    assert.equal(right.data.card.until - before.tsStart, 16 * HOUR);
    // The same quiz sent again from the device's queue (its answer lost): the same answer, shortened once.
    const retried = await t.call("POST", "/api/games/dungeon/quiz", {
      cookie: bad.cookie,
      json: { answers: [...QUIZ_ANSWERS] },
      headers: quizKey,
    });
    assert.equal(retried.status, 200, retried.text);
    assert.deepEqual(retried.data, right.data);
    assert.equal(
      (await t.call("POST", "/api/games/dungeon/quiz", {
        cookie: bad.cookie,
        json: { answers: [...QUIZ_ANSWERS] },
        headers: { "idempotency-key": "bad key!" },
      })).status,
      400,
    );
    const again = await t.call("POST", "/api/games/dungeon/quiz", {
      cookie: bad.cookie,
      json: { answers: [...QUIZ_ANSWERS] },
    });
    assert.equal(again.status, 409);
    assert.equal(again.data.error.code, "quiz_used");
    assert.equal((await view(t, bad)).card!.until, right.data.card.until);

    // One appeal; rejected, the stay runs on.
    const appealKey = { "idempotency-key": "a".repeat(32) };
    const appeal = await t.call("POST", "/api/games/dungeon/appeal", {
      cookie: bad.cookie,
      json: { text: "It was a joke between friends." },
      headers: appealKey,
    });
    assert.equal(appeal.status, 201, appeal.text);
    assert.equal(appeal.data.card.appeal.status, "PENDING");
    const appealRetried = await t.call("POST", "/api/games/dungeon/appeal", {
      cookie: bad.cookie,
      json: { text: "It was a joke between friends." },
      headers: appealKey,
    });
    assert.equal(appealRetried.status, 201, appealRetried.text);
    assert.deepEqual(appealRetried.data, appeal.data);
    const twice = await t.call("POST", "/api/games/dungeon/appeal", { cookie: bad.cookie, json: { text: "Please." } });
    assert.equal(twice.status, 409);
    assert.equal(twice.data.error.code, "already_appealed");
    const list = await t.call("GET", "/api/admin/dungeon", { cookie: admin.cookie });
    const item = list.data.items.find((i: { profileId: string }) => i.profileId === bad.profileId);
    assert.equal(item.appeal.text, "It was a joke between friends.");
    assert.equal((await t.call("GET", "/api/admin/dungeon", { cookie: bad.cookie })).status, 403);
    const reject = await t.call("PUT", `/api/admin/dungeon/appeals/${item.stayId}`, {
      cookie: admin.cookie,
      json: { decision: "REJECT" },
    });
    assert.equal(reject.status, 200, reject.text);
    assert.equal(reject.data.appeal.status, "REJECTED");
    // Final: no second answer.
    assert.equal(
      (await t.call("PUT", `/api/admin/dungeon/appeals/${item.stayId}`, {
        cookie: admin.cookie,
        json: { decision: "UPHOLD" },
      })).status,
      404,
    );
    assert.equal(((await view(t, bad)).card!.appeal as { status: string }).status, "REJECTED");
    assert.equal((await like(t, bad, other)).status, 403);

    // An upheld appeal ends and annuls the stay; the report is dismissed.
    const otherReport = await report(t, reporter, other, "spam", "Same message to all.");
    await confirm(t, admin, otherReport);
    await t.call("POST", "/api/games/dungeon/appeal", {
      cookie: other.cookie,
      json: { text: "I wrote to two people." },
    });
    const stayId = (await t.call("GET", "/api/admin/dungeon", { cookie: admin.cookie })).data.items
      .find((i: { profileId: string }) => i.profileId === other.profileId).stayId;
    const uphold = await t.call("PUT", `/api/admin/dungeon/appeals/${stayId}`, {
      cookie: admin.cookie,
      json: { decision: "UPHOLD" },
    });
    assert.equal(uphold.status, 200);
    assert.equal(uphold.data.ended, "APPEAL");
    assert.equal((await like(t, other, third)).status, 200);
    const card = (await view(t, other)).card!;
    assert.equal(card.active, false);
    assert.equal((card.appeal as { status: string }).status, "UPHELD");
    const rep = await t.call("GET", `/api/admin/reports/${otherReport}`, { cookie: admin.cookie });
    assert.equal(rep.data.case.status, "DISMISSED");
    // The annulled stay does not count: the next one is a first again.
    await confirm(t, admin, await report(t, reporter, other, "spam", "again"));
    assert.equal((await view(t, other)).card!.step, 1);

    // An admin ends any stay; members may not.
    assert.equal(
      (await t.call("DELETE", `/api/admin/dungeon/stays/${bad.profileId}`, { cookie: bad.cookie })).status,
      403,
    );
    const end = await t.call("DELETE", `/api/admin/dungeon/stays/${bad.profileId}`, { cookie: admin.cookie });
    assert.equal(end.status, 200, end.text);
    assert.equal(end.data.ended, "ADMIN");
    assert.equal((await like(t, bad, third)).status, 200);
    assert.equal(
      (await t.call("DELETE", `/api/admin/dungeon/stays/${bad.profileId}`, { cookie: admin.cookie })).status,
      404,
    );
    const actions = await audit(t, admin, bad.profileId);
    for (const a of ["DUNGEON_STAY", "DUNGEON_QUIZ", "DUNGEON_APPEAL", "DUNGEON_APPEAL_REJECTED", "DUNGEON_ENDED"]) {
      assert.ok(actions.includes(a), a);
    }
    assert.ok((await audit(t, admin, other.profileId)).includes("DUNGEON_APPEAL_UPHELD"));
  } finally {
    t.close();
  }
});

Deno.test("dungeon - no report waits more than 48 h: then the admins are told and it leads the queue", async () => {
  const t = await testApp();
  try {
    const admin = await adminOf(t);
    const reporter = await member(t), bad = await member(t), other = await member(t);
    const id = await report(t, reporter, bad, "rude", "Rude words.");
    const decided = await report(t, reporter, other, "spam", "Spam.");
    await confirm(t, admin, decided);
    // The deadline job waits with the report.
    const jobs: JobRecord[] = [];
    for await (const e of kv().list<JobRecord>({ prefix: ["jobs"] })) jobs.push(e.value);
    const job = jobs.find((j) => j.job.type === "report-deadline" && j.job.reportId === id);
    assert.ok(job);
    assert.ok(job.runAt - now() > 47 * HOUR);
    assert.equal(await escalateReport(id), false, "not due yet");

    shiftClock(48 * HOUR + 60_000);
    await reportDeadlineJob({ type: "report-deadline", reportId: id });
    await reportDeadlineJob({ type: "report-deadline", reportId: decided });
    const rep = await t.call("GET", `/api/admin/reports/${id}`, { cookie: admin.cookie });
    assert.equal(rep.data.case.status, "OPEN");
    assert.ok(rep.data.case.tsEscalated);
    const closed = await t.call("GET", `/api/admin/reports/${decided}`, { cookie: admin.cookie });
    assert.equal(closed.data.case.tsEscalated, undefined, "a decided report is left alone");
    const queue = await t.call("GET", "/api/admin/moderation/queue", { cookie: admin.cookie });
    assert.equal(queue.data.items[0].profileId, bad.profileId);
    assert.ok((await audit(t, admin, bad.profileId)).includes("REPORT_ESCALATED"));
    const notes = await t.call("GET", `/api/notifications/${admin.profileId}`, { cookie: admin.cookie });
    assert.ok((notes.data as { bodyText: string }[]).some((n) => n.bodyText.includes("48 hours")));
    // Each admin reads it in their own language.
    const notesFr = await t.call("GET", `/api/notifications/${admin.profileId}`, {
      cookie: admin.cookie,
      headers: { "accept-language": "fr" },
    });
    assert.ok(
      (notesFr.data as { bodyText: string }[]).some((n) =>
        n.bodyText === "Un signalement attend une décision depuis 48 heures."
      ),
    );
    // Once only.
    assert.equal(await escalateReport(id), false);
  } finally {
    t.close();
  }
});
