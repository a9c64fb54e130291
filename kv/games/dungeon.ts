/**
 * Bad Boy Dungeon: a time-out, not banishment. A confirmed report of a small violation
 * (domain/dungeon.ts MINOR_REASONS), decided by a strong jury at once or by an admin, starts a
 * stay: no first messages, likes or Map Chat posts until its end (24 h; 3 days for a second
 * within 90 days; 7 days for a third, and the admins are told). Severe reports never come here.
 * The member alone is notified, in their language, and sees a reform card (the reported lines
 * with other names removed, the rule, the end);
 * the rules quiz shortens the stay once by a third; one appeal goes to the admins, whose word is
 * final; an admin can end any stay. Nobody else sees who is serving: only a count. Every step
 * writes its audit line in the same atomic (kv/audit.ts). A report no one decided within 48 h is
 * escalated to the admins (workers/dungeon.ts, a job queued with the report).
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { newId } from "../ids.ts";
import { now } from "../clock.ts";
import { commitForgetting, keptRead } from "../kept.ts";
import { auditOp, type Moderator, SYSTEM } from "../audit.ts";
import { addNotification, notificationOf, type NotificationText, notify } from "../notifications.ts";
import { SEND_KEY_TTL_MS } from "../messages.ts";
import { getProfile } from "../profiles.ts";
import { getAccount } from "../accounts.ts";
import { arbCase, decideReport, getReport } from "./arbitration.ts";
import { scoreJurors, weightedJury } from "./jurors.ts";
import {
  ESCALATE_AFTER_MS,
  isMinorReason,
  RESTRICTED_ACTIONS,
  type RestrictedAction,
  scrubbedLines,
  shortenedUntil,
  STAY_WINDOW_MS,
  stayLength,
  stayStep,
  strongAgreement,
  wrongAnswers,
} from "../../domain/dungeon.ts";
import type { DungeonAdminItem, DungeonView, ReformCard, Stay } from "../../domain/shapes/dungeon.ts";
import type { ArbCase } from "../../domain/shapes/moderation.ts";
import { REVIEW_WINDOW_MS } from "../../domain/moderation.ts";
import type { Profile } from "../../domain/shapes/profiles.ts";

const DAY_MS = 24 * 3_600_000;
/** A card stays on its member's page this long after its stay ended (the end, or the appeal's answer). */
const CARD_AFTER_END_MS = 7 * DAY_MS;

/** The pointer to a stay in force: what restricted actions read. */
interface Current {
  stayId: string;
  until: number;
}

/** The author the audit log names for the jury. */
const JURY: Moderator = { accountId: "jury", name: "Community jury" };

const inForce = (s: Stay, t = now()) => s.ended === null && s.until > t;

/** A member's stays, newest first. */
export async function listStays(profileId: string): Promise<Stay[]> {
  const out: Stay[] = [];
  for await (const e of kv().list<Stay>({ prefix: keys.dungeonStaysOf(profileId) }, { reverse: true })) {
    out.push(e.value);
  }
  return out;
}

/** The stay that restricts a member now (its end), or null. One read: every restricted action makes it. */
export async function restrictionOf(profileId: string): Promise<Current | null> {
  // Kept a minute by the instance (kv/kept.ts): each write of it forgets it everywhere; its end
  // is checked at each call.
  const c = await keptRead(
    "restriction",
    profileId,
    async () => (await kv().get<Current>(keys.dungeonCurrent(profileId))).value,
  );
  return c && c.until > now() ? c : null;
}

/** Admins' profile ids (to tell them). */
async function adminProfiles(): Promise<string[]> {
  const out: string[] = [];
  for await (const e of kv().list<string>({ prefix: keys.accountsWithRole("ADMIN") })) {
    const a = await getAccount(e.value);
    if (a) out.push(a.defaultProfileId);
  }
  return out;
}

/** Tells each admin, in the language each reads it in (a catalogue sentence). */
async function tellAdmins(text: NotificationText, url: string): Promise<void> {
  for (const p of await adminProfiles()) await notify(p, notificationOf(text, url)).catch(() => {});
}

/** The member's notification of a new stay, by its step (24 h, 3 days, 7 days). */
const STAY_NOTIFICATIONS: Record<1 | 2 | 3, NotificationText> = {
  1: "dungeonStay1",
  2: "dungeonStay2",
  3: "dungeonStay3",
};

/**
 * Starts a stay for a confirmed report of a small violation (the caller closed the case). Its step
 * counts the stays that began within 90 days, an annulled one (upheld appeal) not counted; the
 * member is notified in the same atomic (nobody else). Null when the report is gone or not a small
 * violation.
 */
export async function startStay(reportId: string, by: Moderator, decidedBy: Stay["decidedBy"]): Promise<Stay | null> {
  const report = await getReport(reportId);
  if (!report || !isMinorReason(report.reason)) return null;
  const profileId = report.reportedProfileId;
  const [stays, reporter] = await Promise.all([listStays(profileId), getProfile(report.reporterProfileId)]);
  if (stays.some((s) => s.reportId === reportId)) return null;
  const t = now();
  const recent = stays.filter((s) => s.tsStart > t - STAY_WINDOW_MS && s.ended !== "APPEAL").length;
  const step = stayStep(recent);
  const stay: Stay = {
    id: newId(),
    profileId,
    reportId,
    reason: report.reason,
    lines: scrubbedLines(report.text, reporter ? [reporter.profilename] : []),
    step,
    decidedBy,
    tsStart: t,
    until: t + stayLength(step),
    restricts: [...RESTRICTED_ACTIONS],
    quizAt: null,
    appeal: null,
    ended: null,
    tsEnded: null,
  };
  const op = kv().atomic()
    .set(keys.dungeonStay(profileId, stay.id), stay)
    .set(keys.dungeonCurrent(profileId), { stayId: stay.id, until: stay.until } satisfies Current, {
      expireIn: stay.until - t + DAY_MS,
    });
  auditOp(
    op,
    by,
    "DUNGEON_STAY",
    profileId,
    `step ${step}, until ${
      new Date(stay.until).toISOString()
    }, report ${reportId}, decided by ${decidedBy.toLowerCase()}`,
  );
  if (step === 3) auditOp(op, SYSTEM, "DUNGEON_ADMINS_TOLD", profileId, "third time-out within 90 days");
  // The member alone is told, in the language they read it in, with the way to their card; a push
  // to a discreet device says only the neutral note (workers/push.ts), as every push does.
  addNotification(op, profileId, notificationOf(STAY_NOTIFICATIONS[step], "/games/dungeon"));
  if (!(await commitForgetting(op, "restriction", [profileId]))) return null;
  if (step === 3) {
    await tellAdmins("dungeonThirdStay", `/admin/members/${profileId}`);
  }
  return stay;
}

/**
 * After a juror's vote: when the report is a small violation and the jury agrees strongly (at least
 * 5 votes, 80% or more of the weighted votes 'Violation'), the report is confirmed by the jury and
 * its member sent to the dungeon at once. Null when the jury does not decide (an admin will).
 */
export async function juryDecides(reportId: string): Promise<Stay | null> {
  const report = await getReport(reportId);
  if (!report || !isMinorReason(report.reason)) return null;
  if (!strongAgreement(await weightedJury(reportId, established))) return null;
  const decided = await decideReport(reportId, JURY.accountId, "CONFIRM");
  if (!decided) return null;
  return await startStay(reportId, JURY, "JURY");
}

/**
 * Only established members' votes decide without an admin: an account a day old or more, as for
 * the reports that hide a profile for review (kv/moderation.ts), so that accounts made for the
 * purpose cannot send someone to the dungeon together.
 */
async function established(juror: string): Promise<boolean> {
  const p = await getProfile(juror);
  const a = p && await getAccount(p.accountId);
  return !!a && now() - a.tsCreated >= REVIEW_WINDOW_MS;
}

/** An admin confirmed a report: a small violation starts a stay (others are the admin's own action). */
export function adminConfirmed(reportId: string, admin: Moderator): Promise<Stay | null> {
  return startStay(reportId, admin, "ADMIN");
}

/**
 * A report still open 48 h after it was made goes to the admins: marked escalated (the queue shows
 * it first), an audit line, and a notification to each admin. False when it was decided meanwhile,
 * is not due yet, or was escalated before.
 */
export async function escalateReport(reportId: string): Promise<boolean> {
  const report = await getReport(reportId);
  if (!report || report.tsCreated + ESCALATE_AFTER_MS > now()) return false;
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv().get<ArbCase>(keys.arbCase(reportId));
    const c = entry.value ?? await arbCase(reportId);
    if (c.status !== "OPEN" || c.tsEscalated) return false;
    const op = kv().atomic().check(entry).set(keys.arbCase(reportId), { ...c, tsEscalated: now() });
    auditOp(op, SYSTEM, "REPORT_ESCALATED", report.reportedProfileId, `report ${reportId} undecided after 48 h`);
    if ((await op.commit()).ok) {
      await tellAdmins("reportWaited", "/admin/moderation");
      return true;
    }
  }
  return false;
}

/** The card of a stay as its member sees it. */
function cardOf(s: Stay, t = now()): ReformCard {
  const { profileId: _p, reportId: _r, decidedBy: _d, appeal, ...rest } = s;
  return { ...rest, appeal: appeal && { status: appeal.status, ts: appeal.ts }, active: inForce(s, t) };
}

/** How many members serve a stay now (a count: never who). */
export async function servingCount(): Promise<number> {
  const t = now();
  let n = 0;
  for await (const e of kv().list<Current>({ prefix: keys.dungeonCurrentAll() })) if (e.value.until > t) n++;
  return n;
}

/**
 * What /games/dungeon shows the caller: the count, and their own card (the stay in force, or the
 * latest one for a week after it ended). Everyone else's card is never read here.
 */
export async function dungeonView(profileId: string): Promise<DungeonView> {
  const t = now();
  const [serving, stays] = await Promise.all([servingCount(), listStays(profileId)]);
  const latest = stays.find((s) => inForce(s, t)) ??
    stays.find((s) => (s.tsEnded ?? s.until) > t - CARD_AFTER_END_MS);
  return { serving, card: latest ? cardOf(latest, t) : null };
}

async function stayInForce(profileId: string): Promise<Deno.KvEntryMaybe<Stay> | null> {
  const c = await restrictionOf(profileId);
  if (!c) return null;
  const entry = await kv().get<Stay>(keys.dungeonStay(profileId, c.stayId));
  return entry.value && inForce(entry.value) ? entry : null;
}

export type QuizResult =
  | { ok: true; passed: true; card: ReformCard }
  | { ok: true; passed: false; wrong: number[] }
  | { ok: false; reason: "no_stay" | "used" };

/** What an idempotency key of a quiz or an appeal points to (`keys.dungeonWriteKey`). */
interface WriteKeyRef {
  stayId: string;
  kind: "quiz" | "appeal";
}

/**
 * The card of the stay a quiz or appeal with this idempotency key already changed, or null: a
 * retry of a write that landed (queued offline, its answer lost) gets the first answer again.
 */
async function cardByWriteKey(profileId: string, kind: WriteKeyRef["kind"], key?: string): Promise<ReformCard | null> {
  if (!key) return null;
  const ref = (await kv().get<WriteKeyRef>(keys.dungeonWriteKey(profileId, key))).value;
  if (!ref || ref.kind !== kind) return null;
  const s = (await kv().get<Stay>(keys.dungeonStay(profileId, ref.stayId))).value;
  return s && cardOf(s);
}

/** Stores a write's idempotency key in its atomic: a second commit with the same key fails. */
function withWriteKey(op: Deno.AtomicOperation, profileId: string, ref: WriteKeyRef, key?: string) {
  if (!key) return op;
  const k = keys.dungeonWriteKey(profileId, key);
  return op.check({ key: k, versionstamp: null }).set(k, ref, { expireIn: SEND_KEY_TTL_MS });
}

/**
 * The rules quiz: all right shortens the stay in force by a third, once; wrong answers change
 * nothing. With `writeKey` (the page's idempotency key), a retry of a quiz that passed gets the
 * same answer, not a refusal.
 */
export async function takeQuiz(
  member: Moderator & { profileId: string },
  answers: number[],
  writeKey?: string,
): Promise<QuizResult> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const again = await cardByWriteKey(member.profileId, "quiz", writeKey);
    if (again) return { ok: true, passed: true, card: again };
    const entry = await stayInForce(member.profileId);
    if (!entry) return { ok: false, reason: "no_stay" };
    const s = entry.value!;
    if (s.quizAt !== null) return { ok: false, reason: "used" };
    const wrong = wrongAnswers(answers);
    if (wrong.length) return { ok: true, passed: false, wrong };
    const t = now();
    const next: Stay = { ...s, quizAt: t, until: shortenedUntil(s.tsStart, s.until) };
    const op = withWriteKey(kv().atomic().check(entry).set(entry.key, next), s.profileId, {
      stayId: s.id,
      kind: "quiz",
    }, writeKey);
    if (next.until > t) {
      op.set(keys.dungeonCurrent(s.profileId), { stayId: s.id, until: next.until } satisfies Current, {
        expireIn: next.until - t + DAY_MS,
      });
    } else op.delete(keys.dungeonCurrent(s.profileId));
    auditOp(
      op,
      member,
      "DUNGEON_QUIZ",
      s.profileId,
      `stay shortened by a third: until ${new Date(next.until).toISOString()}`,
    );
    if (await commitForgetting(op, "restriction", [s.profileId])) {
      return { ok: true, passed: true, card: cardOf(next, t) };
    }
  }
  throw new Error("dungeon quiz kept conflicting");
}

export type AppealResult = { ok: true; card: ReformCard } | { ok: false; reason: "no_stay" | "appealed" };

/**
 * The member's one appeal of the stay in force: it waits for an admin. With `writeKey`, a retry of
 * an appeal that landed gets the same answer, not a refusal.
 */
export async function appealStay(
  member: Moderator & { profileId: string },
  text: string,
  writeKey?: string,
): Promise<AppealResult> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const again = await cardByWriteKey(member.profileId, "appeal", writeKey);
    if (again) return { ok: true, card: again };
    const entry = await stayInForce(member.profileId);
    if (!entry) return { ok: false, reason: "no_stay" };
    const s = entry.value!;
    if (s.appeal) return { ok: false, reason: "appealed" };
    const t = now();
    const next: Stay = { ...s, appeal: { text, ts: t, status: "PENDING" } };
    const op = withWriteKey(
      kv().atomic().check(entry).set(entry.key, next).set(keys.dungeonAppeal(s.id), { profileId: s.profileId, ts: t }),
      s.profileId,
      { stayId: s.id, kind: "appeal" },
      writeKey,
    );
    auditOp(op, member, "DUNGEON_APPEAL", s.profileId, `stay ${s.id}`, text.slice(0, 200));
    if ((await op.commit()).ok) return { ok: true, card: cardOf(next, t) };
  }
  throw new Error("dungeon appeal kept conflicting");
}

/** Ends a stay early in one atomic with its audit line; the pointer goes when it is this stay's. */
async function endStayEntry(
  entry: Deno.KvEntryMaybe<Stay>,
  admin: Moderator,
  how: "ADMIN" | "APPEAL",
  change: Partial<Stay>,
  action: string,
  detail: string,
): Promise<Stay | null> {
  const s = entry.value!;
  const t = now();
  const next: Stay = { ...s, ...change, ended: how, tsEnded: t };
  const current = await kv().get<Current>(keys.dungeonCurrent(s.profileId));
  const op = kv().atomic().check(entry).check(current).set(entry.key, next).delete(keys.dungeonAppeal(s.id));
  if (current.value?.stayId === s.id) op.delete(current.key);
  auditOp(op, admin, action, s.profileId, detail);
  return (await commitForgetting(op, "restriction", [s.profileId])) ? next : null;
}

export type AdminDungeonRefusal = "not_found" | "decided";

/**
 * An admin answers an appeal: upheld, the stay ends and is annulled (the report dismissed, the
 * jurors counted against it); rejected, it runs on. Final either way.
 */
export async function decideAppeal(
  admin: Moderator,
  stayId: string,
  uphold: boolean,
): Promise<{ ok: true; stay: Stay } | { ok: false; reason: AdminDungeonRefusal }> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const pending = (await kv().get<{ profileId: string }>(keys.dungeonAppeal(stayId))).value;
    if (!pending) return { ok: false, reason: "not_found" };
    const entry = await kv().get<Stay>(keys.dungeonStay(pending.profileId, stayId));
    const s = entry.value;
    if (!s?.appeal) return { ok: false, reason: "not_found" };
    if (s.appeal.status !== "PENDING") return { ok: false, reason: "decided" };
    const appeal = { ...s.appeal, status: uphold ? "UPHELD" as const : "REJECTED" as const, tsDecided: now() };
    if (!uphold) {
      const op = kv().atomic().check(entry).set(entry.key, { ...s, appeal }).delete(keys.dungeonAppeal(stayId));
      auditOp(op, admin, "DUNGEON_APPEAL_REJECTED", s.profileId, `stay ${stayId}`);
      if ((await op.commit()).ok) return { ok: true, stay: { ...s, appeal } };
      continue;
    }
    const ended = await endStayEntry(
      entry,
      admin,
      "APPEAL",
      { appeal },
      "DUNGEON_APPEAL_UPHELD",
      `stay ${stayId} annulled`,
    );
    if (!ended) continue;
    // Annulled: the stay counts for nothing (even one that had run out meanwhile).
    await overturn(s.reportId, admin);
    return { ok: true, stay: ended };
  }
  throw new Error("appeal decision kept conflicting");
}

/** An upheld appeal dismisses the report and moves its jurors' agreement. */
async function overturn(reportId: string, admin: Moderator): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv().get<ArbCase>(keys.arbCase(reportId));
    if (!entry.value) break;
    const next: ArbCase = { ...entry.value, status: "DISMISSED", decidedBy: admin.accountId, tsDecided: now() };
    if ((await kv().atomic().check(entry).set(entry.key, next).commit()).ok) break;
  }
  await scoreJurors(reportId, "NO_VIOLATION");
}

/** An admin ends a member's stay in force (it still counts toward the next one's step). */
export async function endStay(
  admin: Moderator,
  profileId: string,
): Promise<{ ok: true; stay: Stay } | { ok: false; reason: AdminDungeonRefusal }> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await stayInForce(profileId);
    if (!entry) return { ok: false, reason: "not_found" };
    const ended = await endStayEntry(entry, admin, "ADMIN", {}, "DUNGEON_ENDED", `stay ${entry.value!.id}`);
    if (ended) return { ok: true, stay: ended };
  }
  throw new Error("ending a stay kept conflicting");
}

/** For admins: the stays in force and the stays with an appeal waiting, with names. */
export async function dungeonAdminList(): Promise<DungeonAdminItem[]> {
  const t = now();
  const ids = new Map<string, string>();
  for await (const e of kv().list<Current>({ prefix: keys.dungeonCurrentAll() })) {
    if (e.value.until > t) ids.set(e.value.stayId, e.key[1] as string);
  }
  for await (const e of kv().list<{ profileId: string }>({ prefix: keys.dungeonAppealsAll() })) {
    ids.set(e.key[1] as string, e.value.profileId);
  }
  const out: DungeonAdminItem[] = [];
  for (const [stayId, profileId] of ids) {
    const [s, p] = await Promise.all([
      kv().get<Stay>(keys.dungeonStay(profileId, stayId)),
      kv().get<Profile>(keys.profile(profileId)),
    ]);
    if (!s.value) continue;
    out.push({
      stayId,
      profileId,
      name: p.value?.profilename ?? null,
      reason: s.value.reason,
      step: s.value.step,
      tsStart: s.value.tsStart,
      until: s.value.until,
      active: inForce(s.value, t),
      appeal: s.value.appeal,
    });
  }
  return out.sort((a, b) =>
    Number(b.appeal?.status === "PENDING") - Number(a.appeal?.status === "PENDING") ||
    b.tsStart - a.tsStart
  );
}

/** Every key of a member's dungeon data (their deletion removes them). */
export async function dungeonKeysOf(profileId: string): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [keys.dungeonCurrent(profileId), keys.jurorRecord(profileId)];
  for await (const e of kv().list({ prefix: keys.dungeonWriteKeysOf(profileId) })) out.push(e.key);
  for await (const e of kv().list<Stay>({ prefix: keys.dungeonStaysOf(profileId) })) {
    out.push(e.key, keys.dungeonAppeal(e.value.id));
  }
  return out;
}

export type { RestrictedAction };
