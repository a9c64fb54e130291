/**
 * The Health Incident Report: a member tells the members they exchanged messages with that they
 * may have been exposed to an infection, and nobody, the admins included, can learn from the store
 * who told whom (docs/health-notices.md has the threat model).
 *
 * - Sending writes nothing that names the sender: one atomic puts every recipient's notice in the
 *   shared pool of "pending reveals", keyed only by the time it becomes visible (now plus a random
 *   delay of up to HEALTH_NOTICE_MAX_DELAY_MS) and a random id; the value holds the recipient, the
 *   condition and the window, in whole UTC days, never the sender nor the time it was sent; no
 *   expiry. The same atomic adds one to the reports' total (it names nobody). No event is published.
 * - The sender's monthly count, and the credit of the month's first report, are kept in the process
 *   and written later with every other sender's of the period (kv/healthSpends.ts), apart from the
 *   notices, holding no time finer than the month.
 * - A sweep (workers/health.ts) reveals the pending notices whose time has come: each moves to the
 *   recipient's notices with a neutral notification and push, in one atomic.
 * - A recipient sees one notice per condition for overlapping windows; they may report one as abuse
 *   (a total goes up, nothing is traced). Notices count toward no moderation of anyone.
 */

import { getAll, kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId, shuffled } from "./ids.ts";
import { now } from "./clock.ts";
import { blockedSet } from "./blocks.ts";
import { getProfile } from "./profiles.ts";
import type { Message } from "../domain/shapes/messages.ts";
import { addNotification, notificationOf } from "./notifications.ts";
import { getCredits } from "./games/credits.ts";
import { forgetSpends, reportsSpent, reserveReport, spendKeysOf } from "./healthSpends.ts";
import { config } from "../config/config.ts";
import { HEALTH_MIN_ACCOUNT_DAYS, HEALTH_REPORTS_PER_MONTH, type HealthCondition } from "../domain/health.ts";

const DAY_MS = 24 * 3_600_000;
/** A visible notice is kept this long after it shows. */
export const HEALTH_NOTICE_TTL_MS = 90 * DAY_MS;
/** At most this many of a conversation's newest messages in the window are read to see that both wrote. */
const EXCHANGE_SCAN = 200;
/** Conversations `healthContacts` looks at side by side: as many profiles as one store call reads. */
const CONTACTS_AT_ONCE = 10;

/** A notice waiting for its time (keys.healthPending): the recipient, what and when; never who sent it. */
interface PendingNotice {
  recipient: string;
  condition: HealthCondition;
  /** The window, as the starts of UTC days: from `since` to the day `until` (the day it was sent). */
  since: number;
  until: number;
}

/** A notice as its recipient sees it. */
export interface HealthNotice {
  id: string;
  condition: HealthCondition;
  since: number;
  until: number;
}

/** A member the caller may tell: they exchanged messages both ways within the window. */
export interface HealthContact {
  profileId: string;
  profileName: string;
  picId: string | null;
}

const dayStart = (t: number) => Math.floor(t / DAY_MS) * DAY_MS;

/** True when `me` and `other` each sent the other a message since `since` (their newest EXCHANGE_SCAN). */
async function exchangedSince(me: string, other: string, since: number): Promise<boolean> {
  const prefix = keys.conversation(me, other);
  // Message ids start with their time in hex (kv/ids.ts): the window is a key range.
  const start = [...prefix, Math.floor(since).toString(16).padStart(12, "0")];
  const ids: string[] = [];
  for await (const e of kv().list<string>({ start, end: [...prefix, "~"] }, { reverse: true, limit: EXCHANGE_SCAN })) {
    ids.push(e.value);
  }
  const senders = new Set<string>();
  for (let i = 0; i < ids.length; i += 20) {
    for (const e of await getAll<Message>(ids.slice(i, i + 20).map(keys.message))) {
      if (e.value && e.value.tsCreated >= since) senders.add(e.value.senderProfileId);
    }
    if (senders.has(me) && senders.has(other)) return true;
  }
  return false;
}

/**
 * The members `me` may tell about the last `days` days: a message each way within them, nobody
 * blocked either way or withdrawn, no deleted account; latest conversation first.
 */
export async function healthContacts(me: string, days: number): Promise<HealthContact[]> {
  const since = now() - days * DAY_MS;
  const blocked = await blockedSet(me);
  const recent: { other: string; ts: number }[] = [];
  for await (const e of kv().list<{ tsCreated: number }>({ prefix: keys.chatsOf(me) })) {
    const other = e.key[2] as string;
    if (other !== me && !blocked.has(other) && e.value.tsCreated >= since) {
      recent.push({ other, ts: e.value.tsCreated });
    }
  }
  recent.sort((a, b) => b.ts - a.ts);
  const out: HealthContact[] = [];
  // CONTACTS_AT_ONCE conversations at a time: their profiles in one store call (kv/coalesce.ts),
  // their messages read side by side; on remote KV a few round trips a group, not three a contact.
  for (let i = 0; i < recent.length; i += CONTACTS_AT_ONCE) {
    const group = await Promise.all(
      recent.slice(i, i + CONTACTS_AT_ONCE).map(async ({ other }) => {
        // A deleted member's conversations moved to a tombstone id, which has no profile.
        const p = await getProfile(other);
        return p && await exchangedSince(me, other, since) ? p : null;
      }),
    );
    for (const p of group) {
      if (p) out.push({ profileId: p.id, profileName: p.profilename, picId: p.profilePicIds[0] ?? null });
    }
  }
  return out;
}

/** How many more reports `sender` may send this month (stored and pending spends). */
export async function reportsLeft(sender: string): Promise<number> {
  return Math.max(0, HEALTH_REPORTS_PER_MONTH - await reportsSpent(sender));
}

/** May an account created at `accountCreated` report yet? */
export function oldEnough(accountCreated: number): boolean {
  return now() - accountCreated >= HEALTH_MIN_ACCOUNT_DAYS * DAY_MS;
}

export type SendResult =
  | { ok: true; queued: number; credited: boolean; credits: number }
  | { ok: false; reason: "too_new" | "limit" | "not_contact" };

/** A delay in [0, max) from the system's cryptographic random source. */
function randomDelay(max: number): number {
  const [x] = crypto.getRandomValues(new Uint32Array(1));
  return Math.floor((x / 2 ** 32) * max);
}

function randomHex(bytes = 12): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Sends `sender`'s report: checks the account's age, that every chosen member is one of their
 * contacts now (recomputed here: the client's choice is only a subset), and the monthly limit
 * (stored and pending spends); then queues one pending notice per recipient, all in one atomic that
 * names no sender. The spend (and the credit of the month's first report) is written later, with
 * every sender's of the period (kv/healthSpends.ts): `credited` and `credits` say what it will be.
 * Returns nothing that names a recipient.
 */
export async function sendHealthReport(
  sender: { profileId: string; accountCreated: number },
  condition: HealthCondition,
  days: number,
  chosen: readonly string[],
): Promise<SendResult> {
  if (!oldEnough(sender.accountCreated)) return { ok: false, reason: "too_new" };
  const allowed = new Set((await healthContacts(sender.profileId, days)).map((c) => c.profileId));
  const recipients = [...new Set(chosen)];
  if (recipients.length === 0 || recipients.some((id) => !allowed.has(id))) return { ok: false, reason: "not_contact" };
  const spend = await reserveReport(sender.profileId, HEALTH_REPORTS_PER_MONTH);
  if (!spend) return { ok: false, reason: "limit" };
  const t = now();
  const since = dayStart(t - days * DAY_MS), until = dayStart(t);
  const max = config.healthNoticeMaxDelayMs;
  const op = kv().atomic().sum(keys.healthTotal("reports"), 1n);
  for (const recipient of shuffled(recipients)) {
    const pending: PendingNotice = { recipient, condition, since, until };
    op.set(keys.healthPending(t + randomDelay(max), randomHex()), pending);
  }
  try {
    // Only sets and a sum, no check: it commits or throws.
    if (!(await op.commit()).ok) throw new Error("health notices were not queued");
  } catch (e) {
    spend.release();
    throw e;
  }
  // The credit is granted with the count; until then the answer counts it in.
  const credits = await getCredits(sender.profileId) + (spend.creditPending ? 1 : 0);
  return { ok: true, queued: recipients.length, credited: spend.first, credits };
}

/** Do two windows overlap (a day's gap counts as one window)? */
const overlaps = (a: { since: number; until: number }, b: { since: number; until: number }) =>
  a.since <= b.until + DAY_MS && b.since <= a.until + DAY_MS;

/**
 * Reveals up to `limit` pending notices whose time has come: each moves to its recipient's notices
 * with one notification ("A health notice for you", to /games/cooties) and its push, in one
 * atomic checked against the pending entry (two sweeps at once reveal it once). A notice of a
 * condition the recipient already has a notice for, with an overlapping window, tells nothing new.
 * A recipient whose account is gone: the notice is dropped. Returns how many were revealed.
 */
export async function revealDueNotices(limit = 100): Promise<number> {
  const end = [...keys.healthPendingAll(), now() + 1];
  const due: Deno.KvEntry<PendingNotice>[] = [];
  for await (const e of kv().list<PendingNotice>({ start: keys.healthPendingAll(), end }, { limit })) due.push(e);
  let revealed = 0;
  for (const e of due) {
    const p = e.value;
    const op = kv().atomic().check(e).delete(e.key);
    if (await getProfile(p.recipient)) {
      const shown = await listHealthNotices(p.recipient);
      const notice: HealthNotice = { id: newId(), condition: p.condition, since: p.since, until: p.until };
      op.set(keys.healthNotice(p.recipient, notice.id), notice, { expireIn: HEALTH_NOTICE_TTL_MS })
        .sum(keys.healthTotal("notices"), 1n);
      if (!shown.some((n) => n.condition === p.condition && overlaps(n, p))) {
        addNotification(op, p.recipient, notificationOf("healthNotice", "/games/cooties"));
      }
    }
    if ((await op.commit()).ok) revealed++;
  }
  return revealed;
}

/** A member's stored notices, oldest first. */
async function storedNotices(recipient: string): Promise<HealthNotice[]> {
  const out: HealthNotice[] = [];
  for await (const e of kv().list<HealthNotice>({ prefix: keys.healthNoticesOf(recipient) }, { limit: 500 })) {
    out.push(e.value);
  }
  return out;
}

/** Groups notices: one per condition for overlapping windows (the window spans them; the newest id names it). */
function grouped(notices: HealthNotice[]): { shown: HealthNotice; ids: string[] }[] {
  const groups: { shown: HealthNotice; ids: string[] }[] = [];
  for (const n of notices) {
    const g = groups.find((g) => g.shown.condition === n.condition && overlaps(g.shown, n));
    if (!g) groups.push({ shown: { ...n }, ids: [n.id] });
    else {
      g.ids.push(n.id);
      g.shown = {
        id: n.id > g.shown.id ? n.id : g.shown.id,
        condition: n.condition,
        since: Math.min(g.shown.since, n.since),
        until: Math.max(g.shown.until, n.until),
      };
    }
  }
  return groups;
}

/** A member's visible notices, several of one condition in overlapping windows shown as one, newest first. */
export async function listHealthNotices(recipient: string): Promise<HealthNotice[]> {
  return grouped(await storedNotices(recipient)).map((g) => g.shown).sort((a, b) => b.id.localeCompare(a.id));
}

/**
 * The recipient reports a notice (as shown: its group) as abuse: it is removed and the abuse total
 * goes up. Nothing points back at a sender: there is none stored. False when no such notice.
 */
export async function reportHealthNoticeAbuse(recipient: string, id: string): Promise<boolean> {
  const group = grouped(await storedNotices(recipient)).find((g) => g.shown.id === id || g.ids.includes(id));
  if (!group) return false;
  const op = kv().atomic().sum(keys.healthTotal("abuse"), 1n);
  for (const nid of group.ids) op.delete(keys.healthNotice(recipient, nid));
  return (await op.commit()).ok;
}

/** What admins see: totals only. */
export interface HealthCounts {
  reports: number;
  notices: number;
  pending: number;
  abuse: number;
}

/** The totals, and how many notices wait for their time (at most 10,000 counted). */
export async function healthCounts(): Promise<HealthCounts> {
  const [reports, notices, abuse] = await kv().getMany<Deno.KvU64[]>(
    ["reports", "notices", "abuse"].map((n) => keys.healthTotal(n)),
  );
  let pending = 0;
  for await (const _ of kv().list({ prefix: keys.healthPendingAll() }, { limit: 10_000 })) pending++;
  const n = (e: Deno.KvEntryMaybe<Deno.KvU64>) => Number(e.value?.value ?? 0n);
  return { reports: n(reports), notices: n(notices), pending, abuse: n(abuse) };
}

/**
 * The keys of a member's health data, for the deletion of their account: their notices, pending
 * ones, their counts of every month kept. The spends this process keeps for them are dropped (a
 * flush in another process drops theirs when it finds no profile).
 */
export async function healthKeysOf(profileId: string): Promise<Deno.KvKey[]> {
  forgetSpends(profileId);
  const out: Deno.KvKey[] = [];
  for await (const e of kv().list({ prefix: keys.healthNoticesOf(profileId) })) out.push(e.key);
  for await (const e of kv().list<PendingNotice>({ prefix: keys.healthPendingAll() })) {
    if (e.value.recipient === profileId) out.push(e.key);
  }
  out.push(...await spendKeysOf(profileId));
  return out;
}
