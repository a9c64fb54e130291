/**
 * The job queue's storage: background jobs in Deno KV, one mechanism for a local file and a
 * remote KV alike (KV Connect has no queues, so this does not use `kv.enqueue`). The loop that
 * runs them, and the handlers, are in `workers/`.
 *
 * - `enqueueJob(op, job)` adds the job to the caller's `kv.atomic()`: the job exists if and only
 *   if the change that caused it was committed.
 * - Jobs wait in priority bands (`jobPriority`): a login, recovery or deletion mail before other
 *   work a member waits on, and that before bulk work (pictures). A worker claims from the first
 *   band that has a due job, each band in due-time order, so a mail enqueued behind thousands of
 *   picture jobs is the next one claimed.
 * - A worker claims a due job with an atomic lease: the due-index entry moves to the lease's end,
 *   so a worker that dies mid-job leaves the job due again when the lease runs out. Leases are
 *   short (`LEASE_MS`) and renewed while the handler runs (`renewLease`, every `RENEW_EVERY_MS`),
 *   so a long job keeps its worker and a dead worker's job is taken again within one lease.
 * - Success deletes the job; failure reschedules it with exponential backoff; after
 *   `maxAttempts` it moves to the dead letters (`jobs_dead`), never dropped.
 * - Delivery is at least once: every handler must be safe to run twice.
 */

import { getAll, kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import type { Locale } from "../domain/i18n.ts";

/** Every kind of job. Handlers live in one file per job type under workers/ (workers/run.ts). */
export type Job =
  // lang: the language the member asked in, for one who has not chosen one in settings.
  | { type: "mail"; template: "login-link"; accountId: string; lang?: Locale }
  | { type: "mail"; template: "email-changed"; accountId: string; to: string; lang?: Locale }
  | { type: "test"; effectKey: string; mode: "ok" | "fail" | "hang" }
  // subscriptionId: a retry to the one device whose push service asked to wait; conversationWith:
  // the member a conversation's notification is about (no push while it is open in view).
  | { type: "push"; profileId: string; notificationId: string; subscriptionId?: string; conversationWith?: string }
  // Pictures (workers/pictures.ts): make an upload's master and sizes; render the served sizes of a
  // generation; remove a generation's blobs.
  | { type: "picture-master"; picId: string; gen: string }
  | { type: "picture-variants"; picId: string; gen: string }
  | { type: "picture-cleanup"; picId: string; gen: string; whole: boolean }
  // A member's data (workers/memberData.ts): build and mail their export; delete them, step by step.
  | { type: "account-export"; accountId: string; expireBlob?: string }
  | { type: "account-delete"; accountId: string }
  // A report still open 48 h after it was made goes to the admins (workers/dungeon.ts).
  | { type: "report-deadline"; reportId: string };

export type JobType = Job["type"];

/**
 * Priority bands, claimed in this order: `urgent` (mail a member is waiting on to get in or to
 * secure their account: login links, the email-changed notice; and a deletion they asked for),
 * `member` (other work a member sees: push, their export, tests), `bulk` (pictures: a burst of
 * thousands must not hold up the rest). Within a band, the due time orders.
 */
export const JOB_PRIORITY = { urgent: 0, member: 1, bulk: 2 } as const;
export type JobPriority = typeof JOB_PRIORITY[keyof typeof JOB_PRIORITY];
/** The bands, first claimed first. */
const BANDS: readonly JobPriority[] = [JOB_PRIORITY.urgent, JOB_PRIORITY.member, JOB_PRIORITY.bulk];

/** The band a job waits in, by its kind. */
export function jobPriority(job: Job): JobPriority {
  switch (job.type) {
    case "mail":
    case "account-delete":
      return JOB_PRIORITY.urgent;
    case "push":
    case "account-export":
    case "report-deadline":
    case "test":
      return JOB_PRIORITY.member;
    case "picture-master":
    case "picture-variants":
    case "picture-cleanup":
      return JOB_PRIORITY.bulk;
  }
}

/** A job as stored. */
export interface JobRecord {
  id: string;
  job: Job;
  /** Its band, fixed when enqueued (absent on jobs enqueued before bands: `jobPriority` of the job). */
  priority?: JobPriority;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  leaseMs: number;
  tsCreated: number;
  lastError?: string;
}

/** How long a claim holds a job unless renewed. */
export const LEASE_MS = 10_000;
/** How often a running job's lease is renewed (a lease survives two missed renewals). */
export const RENEW_EVERY_MS = 3_000;

export interface EnqueueOptions {
  delayMs?: number;
  maxAttempts?: number;
  leaseMs?: number;
  /** Its band; default by its kind (`jobPriority`). The jobs bench queues mail as bulk to compare one queue. */
  priority?: JobPriority;
}

/** Adds a job to an atomic operation; returns its id. Commit the operation to enqueue it. */
export function enqueueJob(op: Deno.AtomicOperation, job: Job, opts: EnqueueOptions = {}): string {
  const id = newId();
  const at = now();
  const rec: JobRecord = {
    id,
    job,
    priority: opts.priority ?? jobPriority(job),
    attempts: 0,
    maxAttempts: opts.maxAttempts ?? 8,
    runAt: at + (opts.delayMs ?? 0),
    leaseMs: opts.leaseMs ?? LEASE_MS,
    tsCreated: at,
  };
  op.set(keys.job(id), rec)
    .set(keys.jobDue(rec.priority!, rec.runAt, id), id)
    .sum(keys.jobSignal(), 1n);
  return id;
}

/** Enqueues a job on its own (when no other change goes with it). */
export async function enqueueJobNow(job: Job, opts: EnqueueOptions = {}): Promise<string> {
  const op = kv().atomic();
  const id = enqueueJob(op, job, opts);
  const res = await op.commit();
  if (!res.ok) throw new Error("enqueue failed");
  return id;
}

/** Backoff before attempt n+1: 1 s, 2 s, 4 s ... capped at 10 minutes. */
export function backoffMs(attempts: number): number {
  return Math.min(1000 * 2 ** Math.max(0, attempts - 1), 600_000);
}

/** A job this worker holds a lease on, with the versionstamp, band and due time of that lease. */
export interface Claimed {
  rec: JobRecord;
  versionstamp: string;
  priority: JobPriority;
  dueAt: number;
}

/**
 * The due entries of one band up to `t`; `null`: every entry written before bands (they sort after
 * every band), due or not, so that finding none tells there are none left (`claimFrom` stops at
 * the first one not yet due).
 */
function dueSelector(band: JobPriority | null, t: number): Deno.KvListSelector {
  if (band === null) return { prefix: keys.jobsDue(), start: keys.jobsDueIn(BANDS.length) };
  return { start: keys.jobsDueIn(band), end: [...keys.jobsDueIn(band), t + 1] };
}

/**
 * The stores (by handle) found to hold no due entry written before bands. Nothing writes one any
 * more (a claimed job moves to its band), so once none is left none comes back: their list is not
 * read again, one store call fewer a claim (on remote KV a round trip).
 */
const noUnbanded = new WeakSet<Deno.Kv>();

/**
 * Claims up to `limit` due jobs with a lease, from the first band on (a band is read only while
 * the claim is short), bulk ones (and any queued before bands) `maxBulk` at most. Jobs another
 * worker claimed first are skipped.
 */
export async function claimDueJobs(limit = 4, maxBulk = limit): Promise<Claimed[]> {
  const t = now();
  const out: Claimed[] = [];
  for (const band of [...BANDS, null]) {
    const cap = band === JOB_PRIORITY.urgent || band === JOB_PRIORITY.member
      ? limit
      : Math.min(limit, out.length + maxBulk);
    if (out.length >= cap || (band === null && noUnbanded.has(kv()))) continue;
    const seen = await claimFrom(dueSelector(band, t), t, cap, out);
    if (band === null && seen === 0) noUnbanded.add(kv());
  }
  return out;
}

/** Claims due jobs of one selector into `out`, until it holds `limit`; how many entries it read. */
async function claimFrom(selector: Deno.KvListSelector, t: number, limit: number, out: Claimed[]): Promise<number> {
  const iter = kv().list<string>(selector, { limit: (limit - out.length) * 4 });
  let seen = 0;
  for await (const due of iter) {
    seen++;
    // ["jobs_due", band, at, id], or ["jobs_due", at, id] when enqueued before bands.
    if (out.length >= limit || (due.key.at(-2) as number) > t) break;
    const id = due.value;
    const entry = await kv().get<JobRecord>(keys.job(id));
    if (!entry.value) {
      await kv().atomic().check(due).delete(due.key).commit();
      continue;
    }
    if (entry.value.attempts >= entry.value.maxAttempts) {
      // Claimed maxAttempts times and never settled: its worker died (or lost the lease) every
      // time, e.g. a job that crashes the process. A dead letter, not a loop.
      const lastError = entry.value.lastError ?? `its lease ran out on all ${entry.value.attempts} attempts`;
      const res = await kv().atomic().check(due, entry).delete(due.key).delete(keys.job(id))
        .set(keys.jobDead(id), { ...entry.value, lastError, tsDead: t }).commit();
      if (res.ok) console.error(`job ${id} (${entry.value.job.type}) dead: ${lastError}`);
      continue;
    }
    const priority = entry.value.priority ?? jobPriority(entry.value.job);
    const rec: JobRecord = { ...entry.value, priority, attempts: entry.value.attempts + 1 };
    const dueAt = t + rec.leaseMs;
    const res = await kv().atomic()
      .check(due, entry)
      .delete(due.key)
      .set(keys.job(id), rec)
      .set(keys.jobDue(priority, dueAt, id), id)
      .commit();
    if (res.ok) out.push({ rec, versionstamp: res.versionstamp, priority, dueAt });
  }
  return seen;
}

/**
 * Renews a claimed job's lease: due again `leaseMs` from now. Updates `c` (versionstamp, due time)
 * so that `settleJob` and the next renewal see the renewed claim. False when the job is no longer
 * this claim's (another worker took it over after the lease ran out, or it was settled): stop
 * renewing then; the outcome is the other worker's.
 */
export async function renewLease(c: Claimed): Promise<boolean> {
  const { rec } = c;
  const jobKey = keys.job(rec.id);
  const current = await kv().get<JobRecord>(jobKey);
  if (current.versionstamp !== c.versionstamp || !current.value) return false;
  const dueAt = now() + rec.leaseMs;
  const op = kv().atomic().check(current).set(jobKey, current.value);
  if (dueAt !== c.dueAt) {
    op.delete(keys.jobDue(c.priority, c.dueAt, rec.id)).set(keys.jobDue(c.priority, dueAt, rec.id), rec.id);
  }
  const res = await op.commit();
  if (!res.ok) return false;
  c.versionstamp = res.versionstamp;
  c.dueAt = dueAt;
  return true;
}

/**
 * Records a claimed job's outcome: done (deleted), retry after a backoff, or dead letter after
 * `maxAttempts`. "lost" when another worker took the job over after this lease ran out: the
 * outcome is theirs then.
 */
export async function settleJob(c: Claimed, error: string | undefined): Promise<"done" | "retry" | "dead" | "lost"> {
  const { rec } = c;
  const jobKey = keys.job(rec.id);
  const current = await kv().get<JobRecord>(jobKey);
  // Another worker took the job over after our lease ran out: it owns the outcome now.
  if (current.versionstamp !== c.versionstamp) return "lost";
  const op = kv().atomic().check(current).delete(keys.jobDue(c.priority, c.dueAt, rec.id));
  let outcome: "done" | "retry" | "dead";
  if (error === undefined) {
    op.delete(jobKey);
    outcome = "done";
  } else if (rec.attempts >= rec.maxAttempts) {
    op.delete(jobKey).set(keys.jobDead(rec.id), { ...rec, lastError: error, tsDead: now() });
    outcome = "dead";
    console.error(`job ${rec.id} (${rec.job.type}) dead after ${rec.attempts} attempts: ${error}`);
  } else {
    const runAt = now() + backoffMs(rec.attempts);
    op.set(jobKey, { ...rec, runAt, lastError: error }).set(keys.jobDue(c.priority, runAt, rec.id), rec.id);
    outcome = "retry";
  }
  const res = await op.commit();
  return res.ok ? outcome : "lost";
}

/** A stream that ticks whenever a job is enqueued (in this process, for a local KV file). */
export function watchJobSignal(): ReadableStream<unknown> {
  return kv().watch([keys.jobSignal()]);
}

/** Dead letters, newest last, for operators. */
export async function listDeadJobs(limit = 100): Promise<JobRecord[]> {
  const out: JobRecord[] = [];
  for await (const e of kv().list<JobRecord>({ prefix: keys.jobsDead() }, { limit })) out.push(e.value);
  return out;
}

/** The queue at a glance, for metrics and readiness (bounded: the first `limit` entries of each kind). */
export interface JobStats {
  /** Jobs whose time has come and that no worker holds. */
  due: number;
  /** Jobs a worker holds a lease on. */
  running: number;
  /** Jobs waiting for a later time (a delay or a retry's backoff). */
  waiting: number;
  dead: number;
  /** How long the oldest due job has waited, ms (0 when none). */
  oldestDueAgeMs: number;
}

/**
 * Counts the queue. A claimed job's due entry sits at its lease's end while its record keeps its
 * `runAt`; a scheduled one's entry is at its `runAt`: that tells running from waiting.
 */
export async function jobStats(limit = 1000): Promise<JobStats> {
  const t = now();
  const entries: { at: number; id: string }[] = [];
  for await (const e of kv().list<string>({ prefix: keys.jobsDue() }, { limit })) {
    // ["jobs_due", band, at, id], or ["jobs_due", at, id] when enqueued before bands.
    entries.push({ at: e.key.at(-2) as number, id: e.value });
  }
  const recs = await getAll<JobRecord>(entries.map((e) => keys.job(e.id)));
  const s: JobStats = { due: 0, running: 0, waiting: 0, dead: 0, oldestDueAgeMs: 0 };
  entries.forEach((e, i) => {
    const rec = recs[i].value;
    if (!rec) return;
    if (rec.runAt !== e.at) s.running++;
    else if (e.at <= t) {
      s.due++;
      s.oldestDueAgeMs = Math.max(s.oldestDueAgeMs, t - e.at);
    } else s.waiting++;
  });
  for await (const _ of kv().list({ prefix: keys.jobsDead() }, { limit })) s.dead++;
  return s;
}
