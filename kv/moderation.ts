/**
 * Moderation that acts. An admin's action on a member (a warning, a suspension of 1, 7 or 30
 * days, a ban) is stored with the member, written to the append-only audit log in the same
 * atomic, and takes effect at once:
 * - a warning waits as the member's account notice until they acknowledge it (seen once);
 * - a suspension or ban withdraws the member from everyone's view (kv/blocks.ts `withdrawn`, which
 *   every list, map, chat and Map Chat leaves out), ends every session, refuses every login with
 *   the reason and end date (never who reported), and records the hash of their mailbox
 *   (domain/moderation.ts `mailboxOf`) so registering again with it is refused.
 * Reports from 3 different members within 24 h withdraw a profile for review until an admin looks
 * (the member is told). Lifting an action undoes its effects; the action stays, marked lifted.
 * Nothing here edits or deletes an audit line: the API has no call that could.
 */

import { endVerification } from "./games/identify.ts";
import { kv } from "./db.ts";
import { auditOp, type Moderator, SYSTEM } from "./audit.ts";
import { keys } from "./keys.ts";
import { newId, sha256Hex } from "./ids.ts";
import { now } from "./clock.ts";
import { commitWithdrawal, inForce } from "./blocks.ts";
import { type Account, getAccount, getAccountByEmail } from "./accounts.ts";
import { getProfile } from "./profiles.ts";
import { endOtherSessions } from "./sessions.ts";
import { addEvent } from "./events.ts";
import { listReports } from "./reports.ts";
import { decideReport, listReportCases } from "./games/arbitration.ts";
import { mailboxOf, REVIEW_REPORTERS, REVIEW_WINDOW_MS } from "../domain/moderation.ts";
import type {
  AccountNotice,
  ActionKind,
  AuditEntry,
  MemberFile,
  MemberHit,
  ModAction,
  ModNote,
  QueueItem,
  Report,
  SendingPause,
  Withdrawal,
} from "../domain/shapes/moderation.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

const DAY_MS = 24 * 3_600_000;

export type { Moderator };

/** The audit log, newest first. */
export async function listAudit(limit = 100, target?: string): Promise<AuditEntry[]> {
  const out: AuditEntry[] = [];
  for await (const e of kv().list<AuditEntry>({ prefix: keys.auditAll() }, { reverse: true })) {
    if (!target || e.value.target === target) out.push(e.value);
    if (out.length >= limit) break;
  }
  return out;
}

/** The hash that stands for a mailbox in the ban list (never the address itself). */
function mailboxHash(email: string): Promise<string> {
  return sha256Hex(`mailbox:${mailboxOf(email)}`);
}

/** Is this address (in any of its spellings) the mailbox of a suspended or banned member? */
export async function isMailboxBanned(email: string): Promise<boolean> {
  const entry = await kv().get<{ until: number | null }>(keys.bannedEmail(await mailboxHash(email)));
  return !!entry.value && (entry.value.until === null || entry.value.until > now());
}

/** A member's current withdrawal (suspension, ban or review), or null. */
async function withdrawalOf(profileId: string): Promise<Withdrawal | null> {
  const w = (await kv().get<Withdrawal>(keys.withdrawn(profileId))).value;
  return inForce(w) ? w : null;
}

/** The suspension or ban that refuses an account's logins now (the account as read by the login), with its reason; null if none. */
export async function sanctionOf(
  account: Pick<Account, "defaultProfileId">,
): Promise<{ kind: "SUSPENSION" | "BAN"; reason: string; until: number | null } | null> {
  const w = await withdrawalOf(account.defaultProfileId);
  if (!w || w.kind === "REVIEW" || !w.actionId) return null;
  const action = (await kv().get<ModAction>(keys.modAction(account.defaultProfileId, w.actionId))).value;
  return { kind: w.kind, reason: action?.reason ?? "", until: w.until };
}

/** A member's actions, newest first. */
export async function listActions(profileId: string): Promise<ModAction[]> {
  const out: ModAction[] = [];
  for await (const e of kv().list<ModAction>({ prefix: keys.modActionsOf(profileId) }, { reverse: true })) {
    out.push(e.value);
  }
  return out;
}

export type ActionRefusal = "no_member" | "bad_days" | "not_found" | "lifted";

/**
 * Takes an action on a member (see the module comment). `reportId`, when given and still open,
 * is confirmed by the same admin. Returns the action, or why not.
 */
export async function takeAction(
  admin: Moderator,
  profileId: string,
  input: { kind: ActionKind; days?: number; reason: string; reportId?: string },
): Promise<{ ok: true; action: ModAction } | { ok: false; reason: ActionRefusal }> {
  const profile = await getProfile(profileId);
  const account = profile && await getAccount(profile.accountId);
  if (!profile || !account) return { ok: false, reason: "no_member" };
  if (input.kind === "SUSPENSION" && ![1, 7, 30].includes(input.days ?? 0)) return { ok: false, reason: "bad_days" };
  const t = now();
  const days = input.kind === "SUSPENSION" ? input.days! : null;
  const action: ModAction = {
    id: newId(),
    profileId,
    kind: input.kind,
    days,
    reason: input.reason,
    tsCreated: t,
    until: days ? t + days * DAY_MS : null,
    by: admin.accountId,
    byName: admin.name,
    ...(input.reportId ? { reportId: input.reportId } : {}),
  };
  const op = kv().atomic().set(keys.modAction(profileId, action.id), action);
  auditOp(
    op,
    admin,
    `ACTION_${action.kind}`,
    profileId,
    [days ? `${days} days` : "", input.reportId ? `report ${input.reportId}` : ""].filter(Boolean).join(", "),
    input.reason,
  );
  // The admin looked: a review ends with any action (reports before now no longer count).
  op.set(keys.reviewedAt(profileId), t);
  if (action.kind === "WARNING") {
    const w = await withdrawalOf(profileId);
    if (w?.kind === "REVIEW") op.delete(keys.withdrawn(profileId));
    const notice: AccountNotice = { kind: "WARNING", actionId: action.id, reason: action.reason, ts: t };
    op.set(keys.accountNotice(account.id), notice);
  } else {
    const w: Withdrawal = { kind: action.kind, actionId: action.id, until: action.until, ts: t };
    const expire = action.until ? { expireIn: action.until - t + DAY_MS } : undefined;
    op.set(keys.withdrawn(profileId), w, expire)
      .set(keys.bannedEmail(await mailboxHash(account.email)), { until: action.until, actionId: action.id }, expire)
      .delete(keys.accountNotice(account.id));
    addEvent(op, [profileId], { type: "session-ended" });
  }
  await commitWithdrawal(op);
  // Any action ends the Verified badge: the member verifies again (3 2 1 Identify).
  await endVerification(profileId);
  if (action.kind !== "WARNING") await endOtherSessions(account.id, "");
  if (input.reportId) await decideReport(input.reportId, admin.accountId, "CONFIRM");
  return { ok: true, action };
}

/** Lifts an action: its effects end (a pending warning is withdrawn too); the action stays, marked lifted. */
export async function liftAction(
  admin: Moderator,
  profileId: string,
  actionId: string,
): Promise<{ ok: true; action: ModAction } | { ok: false; reason: ActionRefusal }> {
  const entry = await kv().get<ModAction>(keys.modAction(profileId, actionId));
  const action = entry.value;
  if (!action) return { ok: false, reason: "not_found" };
  if (action.tsLifted) return { ok: false, reason: "lifted" };
  const profile = await getProfile(profileId);
  const t = now();
  const lifted: ModAction = { ...action, tsLifted: t, liftedBy: admin.accountId };
  const op = kv().atomic().check(entry).set(entry.key, lifted);
  auditOp(op, admin, "ACTION_LIFTED", profileId, `${action.kind} ${action.id}`);
  const w = (await kv().get<Withdrawal>(keys.withdrawn(profileId))).value;
  if (w?.actionId === actionId) op.delete(keys.withdrawn(profileId));
  const account = profile && await getAccount(profile.accountId);
  if (account) {
    const hashKey = keys.bannedEmail(await mailboxHash(account.email));
    const ban = (await kv().get<{ actionId: string }>(hashKey)).value;
    if (ban?.actionId === actionId) op.delete(hashKey);
    const notice = (await kv().get<AccountNotice>(keys.accountNotice(account.id))).value;
    if (notice?.kind === "WARNING" && notice.actionId === actionId) op.delete(keys.accountNotice(account.id));
  }
  if (!(await commitWithdrawal(op)).ok) return { ok: false, reason: "lifted" };
  return { ok: true, action: lifted };
}

/** An admin looked at a member under review: the profile shows again, and older reports no longer count. */
export async function endReview(admin: Moderator, profileId: string): Promise<boolean> {
  const w = await withdrawalOf(profileId);
  const profile = await getProfile(profileId);
  if (!profile) return false;
  const op = kv().atomic().set(keys.reviewedAt(profileId), now());
  if (w?.kind === "REVIEW") op.delete(keys.withdrawn(profileId));
  const notice = (await kv().get<AccountNotice>(keys.accountNotice(profile.accountId))).value;
  if (notice?.kind === "REVIEW") op.delete(keys.accountNotice(profile.accountId));
  auditOp(op, admin, "REVIEW_ENDED", profileId, w?.kind === "REVIEW" ? "profile shown again" : "no review open");
  await commitWithdrawal(op);
  return true;
}

/**
 * After a report: when 3 different members (each a member for a day or more) reported the profile
 * within 24 h (since an admin last looked), it is withdrawn for review and its member told. True
 * when a review started.
 */
export async function reviewIfReported(profileId: string): Promise<boolean> {
  const t = now();
  const [reports, reviewed, current] = await Promise.all([
    listReports(profileId, 200),
    kv().get<number>(keys.reviewedAt(profileId)),
    withdrawalOf(profileId),
  ]);
  if (current) return false;
  const since = Math.max(t - REVIEW_WINDOW_MS, reviewed.value ?? 0);
  const recent = new Set(reports.filter((r: Report) => r.tsCreated > since).map((r) => r.reporterProfileId));
  if (recent.size < REVIEW_REPORTERS) return false;
  // Only established members count: accounts made within the day cannot hide someone together.
  const reporters = new Set<string>();
  for (const id of recent) {
    const p = await getProfile(id);
    const a = p && await getAccount(p.accountId);
    if (a && t - a.tsCreated >= REVIEW_WINDOW_MS) reporters.add(id);
  }
  if (reporters.size < REVIEW_REPORTERS) return false;
  const profile = await getProfile(profileId);
  if (!profile) return false;
  const w: Withdrawal = { kind: "REVIEW", actionId: null, until: null, ts: t };
  const op = kv().atomic()
    .check({ key: keys.withdrawn(profileId), versionstamp: null })
    .set(keys.withdrawn(profileId), w)
    .set(keys.accountNotice(profile.accountId), { kind: "REVIEW", ts: t } satisfies AccountNotice);
  auditOp(op, SYSTEM, "REVIEW_STARTED", profileId, `${reporters.size} members reported within 24 h`);
  return (await commitWithdrawal(op)).ok;
}

/** The notice waiting for an account, or null. */
export async function accountNotice(accountId: string): Promise<AccountNotice | null> {
  return (await kv().get<AccountNotice>(keys.accountNotice(accountId))).value;
}

/** The member acknowledged their warning: it is not shown again. */
export async function acknowledgeWarning(accountId: string): Promise<void> {
  const entry = await kv().get<AccountNotice>(keys.accountNotice(accountId));
  if (entry.value?.kind === "WARNING") await kv().atomic().check(entry).delete(entry.key).commit();
}

// --- admin notes

export async function addModNote(admin: Moderator, profileId: string, text: string): Promise<ModNote> {
  const n: ModNote = { id: newId(), profileId, text, ts: now(), by: admin.accountId, byName: admin.name };
  const op = kv().atomic().set(keys.modNote(profileId, n.id), n);
  auditOp(op, admin, "NOTE_ADDED", profileId, text.slice(0, 80));
  await op.commit();
  return n;
}

async function listModNotes(profileId: string): Promise<ModNote[]> {
  const out: ModNote[] = [];
  for await (const e of kv().list<ModNote>({ prefix: keys.modNotesOf(profileId) }, { reverse: true })) {
    out.push(e.value);
  }
  return out;
}

// --- sending paused (kv/spam.ts pauses; an admin resumes)

/** How many of a member's first messages were held as possible spam. */
async function heldCount(profileId: string): Promise<number> {
  const v = (await kv().get<Deno.KvU64>(keys.spamHeldCount(profileId))).value;
  return v ? Number(v.value) : 0;
}

export async function sendingPause(profileId: string): Promise<SendingPause | null> {
  return (await kv().get<SendingPause>(keys.sendingPaused(profileId))).value;
}

/** Pauses a member's sending until an admin looks (the audit log says why). */
export async function pauseSending(profileId: string, why: string): Promise<void> {
  const op = kv().atomic()
    .check({ key: keys.sendingPaused(profileId), versionstamp: null })
    .set(keys.sendingPaused(profileId), { ts: now(), why } satisfies SendingPause);
  auditOp(op, SYSTEM, "SENDING_PAUSED", profileId, why);
  await op.commit();
}

export async function resumeSending(admin: Moderator, profileId: string): Promise<boolean> {
  const entry = await kv().get<SendingPause>(keys.sendingPaused(profileId));
  if (!entry.value) return false;
  const op = kv().atomic().check(entry).delete(entry.key);
  auditOp(op, admin, "SENDING_RESUMED", profileId);
  return (await op.commit()).ok;
}

/** Members whose sending is paused, for the moderation queue. */
async function listSendingPaused(): Promise<(SendingPause & { profileId: string })[]> {
  const out: (SendingPause & { profileId: string })[] = [];
  for await (const e of kv().list<SendingPause>({ prefix: keys.sendingPausedAll() })) {
    out.push({ ...e.value, profileId: e.key[1] as string });
  }
  return out;
}

// --- what admins see

/**
 * The moderation queue: members with open reports (most reported first, then newest), members
 * under review, and members whose sending is paused. Reads the newest `scan` reports.
 */
export async function moderationQueue(scan = 1000): Promise<QueueItem[]> {
  const cases = await listReportCases(scan);
  const by = new Map<string, QueueItem>();
  const item = (profileId: string, name: string | null): QueueItem => {
    let it = by.get(profileId);
    if (!it) {
      it = { profileId, name, openReports: [], tsNewest: 0, withdrawal: null, sendingPaused: null, spamHeld: 0 };
      by.set(profileId, it);
    }
    return it;
  };
  for (const rc of cases) {
    if (rc.case.status !== "OPEN") continue;
    const it = item(rc.reportedProfileId, rc.reportedName);
    it.openReports.push(rc);
    it.tsNewest = Math.max(it.tsNewest, rc.tsCreated);
  }
  const t = now();
  for await (const e of kv().list<Withdrawal>({ prefix: keys.withdrawnAll() })) {
    if (e.value.kind !== "REVIEW" || !inForce(e.value, t)) continue;
    const it = item(e.key[1] as string, null);
    it.withdrawal = e.value;
    it.tsNewest = Math.max(it.tsNewest, e.value.ts);
  }
  for (const p of await listSendingPaused()) {
    const it = item(p.profileId, null);
    it.sendingPaused = { ts: p.ts, why: p.why };
    it.tsNewest = Math.max(it.tsNewest, p.ts);
  }
  const items = [...by.values()];
  const missing = items.filter((it) => it.name === null);
  for (let i = 0; i < missing.length; i += 10) {
    const got = await kv().getMany<Profile[]>(missing.slice(i, i + 10).map((it) => keys.profile(it.profileId)));
    got.forEach((g, j) => missing[i + j].name = g.value?.profilename ?? null);
  }
  const counts = await Promise.all(items.map((it) => heldCount(it.profileId)));
  items.forEach((it, i) => it.spamHeld = counts[i]);
  // A report undecided for 48 h (escalated, kv/games/dungeon.ts) puts its member first.
  const overdue = (it: QueueItem) => Number(it.openReports.some((r) => r.case.tsEscalated));
  return items.sort((a, b) =>
    overdue(b) - overdue(a) || b.openReports.length - a.openReports.length || b.tsNewest - a.tsNewest
  );
}

/**
 * Members by email (exactly, any case), by profile or account id, or by a part of the name (case
 * ignored; scans up to `scan` profiles, at most `limit` hits).
 */
export async function searchMembers(q: string, limit = 50, scan = 50_000): Promise<MemberHit[]> {
  const query = q.trim();
  if (!query) return [];
  const found = new Map<string, Profile>();
  if (query.includes("@")) {
    const a = await getAccountByEmail(query);
    const p = a && await getProfile(a.defaultProfileId);
    if (p) found.set(p.id, p);
  } else {
    const [p, a] = await Promise.all([getProfile(query), getAccount(query)]);
    if (p) found.set(p.id, p);
    const ap = a && await getProfile(a.defaultProfileId);
    if (ap) found.set(ap.id, ap);
    if (found.size === 0) {
      const needle = query.toLowerCase();
      for await (const e of kv().list<Profile>({ prefix: keys.profilesAll() }, { limit: scan })) {
        if (e.value.profilename.toLowerCase().includes(needle)) found.set(e.value.id, e.value);
        if (found.size >= limit) break;
      }
    }
  }
  const out: MemberHit[] = [];
  for (const p of found.values()) {
    const a = await getAccount(p.accountId);
    out.push({
      profileId: p.id,
      accountId: p.accountId,
      name: p.profilename,
      email: a?.email ?? "",
      withdrawal: await withdrawalOf(p.id),
    });
  }
  return out;
}

/** An admin's view of one member, or null when there is no such profile. */
export async function memberFile(profileId: string, scan = 1000): Promise<MemberFile | null> {
  const profile = await getProfile(profileId);
  if (!profile) return null;
  const [account, withdrawal, paused, spamHeld, cases, actions, notes, audit] = await Promise.all([
    getAccount(profile.accountId),
    withdrawalOf(profileId),
    sendingPause(profileId),
    heldCount(profileId),
    listReportCases(scan),
    listActions(profileId),
    listModNotes(profileId),
    listAudit(100, profileId),
  ]);
  return {
    profile,
    account: account && { id: account.id, email: account.email, roles: account.roles, tsCreated: account.tsCreated },
    withdrawal,
    sendingPaused: paused,
    spamHeld,
    reportsAbout: cases.filter((r) => r.reportedProfileId === profileId),
    reportsMade: cases.filter((r) => r.reporterProfileId === profileId),
    actions,
    notes,
    audit,
  };
}
