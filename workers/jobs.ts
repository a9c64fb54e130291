/**
 * The job runner: claims due jobs (kv/jobs.ts), runs each with its handler, records the outcome
 * (done, retry with backoff, or dead letter). Delivery is at least once: every handler must be
 * safe to run twice.
 */

import { SpanStatusCode, trace } from "@opentelemetry/api";
import {
  claimDueJobs,
  type Claimed,
  type Job,
  JOB_PRIORITY,
  type JobRecord,
  type JobType,
  RENEW_EVERY_MS,
  renewLease,
  settleJob,
  watchJobSignal,
} from "../kv/jobs.ts";

const tracer = trace.getTracer("app.jobs");

/** Handlers by job type (what a handler answers is not used: the mail handler answers the mail it kept). */
export type Handlers = { [T in JobType]?: (job: Extract<Job, { type: T }>, rec: JobRecord) => Promise<unknown> };

/**
 * Runs one claimed job and records its outcome (done, retry later, or dead letter), as the span
 * `job <type>` when OpenTelemetry is on (its KV calls nest under it).
 */
function runClaimed(c: Claimed, handlers: Handlers): Promise<"done" | "retry" | "dead" | "lost"> {
  const { rec } = c;
  return tracer.startActiveSpan(`job ${rec.job.type}`, async (span) => {
    span.setAttributes({ "job.id": rec.id, "job.type": rec.job.type, "job.attempt": rec.attempts });
    const handler = handlers[rec.job.type] as ((j: Job, r: JobRecord) => Promise<unknown>) | undefined;
    let error: string | undefined;
    const lease = keepLeased(c);
    try {
      if (!handler) throw new Error(`no handler for job type ${rec.job.type}`);
      await handler(rec.job, rec);
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      span.setStatus({ code: SpanStatusCode.ERROR, message: error });
    }
    await lease.stop();
    const outcome = await settleJob(c, error);
    span.setAttribute("job.outcome", outcome);
    span.end();
    return outcome;
  });
}

/**
 * Renews a claim's lease while its handler runs: every `RENEW_EVERY_MS` (or a third of a shorter
 * lease), one renewal at a time. A renewal that finds the job taken over stops the renewals (the
 * handler runs on; its outcome will be "lost"). A renewal that fails for another reason (the store
 * is busy or unreachable) is tried again at the next tick, while the lease still runs.
 */
function keepLeased(c: Claimed): { stop(): Promise<void> } {
  const every = Math.max(50, Math.min(RENEW_EVERY_MS, Math.floor(c.rec.leaseMs / 3)));
  let lost = false;
  let renewing: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    renewing = renewing.then(async () => {
      if (lost) return;
      try {
        if (!(await renewLease(c))) {
          lost = true;
          clearInterval(timer);
        }
      } catch (e) {
        console.error(`job ${c.rec.id}: lease renewal failed:`, e instanceof Error ? e.message : e);
      }
    });
  }, every);
  return {
    async stop() {
      clearInterval(timer);
      await renewing;
    },
  };
}

/** Jobs one worker runs at once. */
export const JOBS_AT_ONCE = 4;
/** While bulk jobs fill the other slots, how often the kept one looks for work nobody signalled (another process's). */
const KEPT_SLOT_POLL_MS = 500;

/** New jobs signalled to a worker loop, counted, so that a wait can start after a given one. */
export class Wakes {
  #count = 0;
  #waiting = new Set<() => void>();
  /** How many so far. */
  get count(): number {
    return this.#count;
  }
  /** A new job was signalled. */
  wake(): void {
    this.#count++;
    for (const w of this.#waiting) w();
    this.#waiting.clear();
  }
  /** Resolves once more than `seen` were signalled; `cancel` forgets the wait. */
  after(seen: number): { promise: Promise<void>; cancel(): void } {
    if (this.#count > seen) return { promise: Promise.resolve(), cancel() {} };
    const { promise, resolve } = Promise.withResolvers<void>();
    this.#waiting.add(resolve);
    return { promise, cancel: () => void this.#waiting.delete(resolve) };
  }
}

/**
 * Claims and runs every job due now, until none is left (or `stopping()` says so); returns how
 * many ran. For tests and one-shot runs, and the worker loop. Up to `JOBS_AT_ONCE` run at once,
 * and a slot is claimed for again as soon as its job ends (not when the slowest of a batch does).
 * Bulk jobs (pictures) take all slots but one: the kept slot takes a mail or other member work
 * the moment it is signalled (`wakes`) or, unsignalled, within `KEPT_SLOT_POLL_MS`, ahead of
 * every bulk job still queued (kv/jobs.ts bands).
 */
export async function runDueJobs(
  handlers: Handlers,
  stopping: () => boolean = () => false,
  wakes?: Wakes,
): Promise<number> {
  let ran = 0;
  const running = new Set<Promise<void>>();
  let bulk = 0;
  // A job whose outcome could not be recorded (the store failed): the run ends with that error
  // once the others are done, as a batch did, and the loop backs off.
  let failed = null as { error: unknown } | null;
  try {
    while (!stopping() && !failed) {
      const seen = wakes?.count ?? 0;
      const free = JOBS_AT_ONCE - running.size;
      const batch = free > 0 ? await claimDueJobs(free, Math.max(0, JOBS_AT_ONCE - 1 - bulk)) : [];
      for (const c of batch) {
        const isBulk = c.priority === JOB_PRIORITY.bulk;
        if (isBulk) bulk++;
        const run: Promise<void> = runClaimed(c, handlers).then(
          () => void (running.delete(run), isBulk && bulk--),
          (error) => void (running.delete(run), isBulk && bulk--, failed ??= { error }),
        );
        running.add(run);
      }
      ran += batch.length;
      if (running.size === 0) break;
      // Wait for a slot; with the kept one free, also for a new job's signal or the next look. A
      // claim that filled fewer slots than it asked for found no more due work (or only bulk work
      // past its share): claiming again at once would find none, so it waits too (on remote KV,
      // the bands' reads saved).
      const waits: Promise<unknown>[] = [...running];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const woken = running.size < JOBS_AT_ONCE ? wakes?.after(seen) : undefined;
      if (running.size < JOBS_AT_ONCE) {
        waits.push(new Promise((r) => timer = setTimeout(r, KEPT_SLOT_POLL_MS)));
        if (woken) waits.push(woken.promise);
      }
      await Promise.race(waits);
      clearTimeout(timer);
      woken?.cancel();
    }
  } finally {
    await Promise.all(running);
  }
  if (failed) throw failed.error;
  return ran;
}

/** The longest a worker loop waits after failures in a row before it tries the store again. */
export const MAX_BACKOFF_MS = 30_000;

/** A running worker loop; `stop()` ends it and waits for jobs under way. */
export interface Worker {
  stop(): Promise<void>;
}

/**
 * Starts a worker loop: runs due jobs, then sleeps until a new job is signalled (kv.watch)
 * or `pollMs` passes (retries and leases that ran out are found by the poll).
 */
export function startWorker(handlers: Handlers, pollMs = 1000): Worker {
  let stopped = false;
  // A signal that arrives while jobs are running must not be lost: it is remembered until the
  // loop next decides whether to sleep.
  let signalled = false;
  let wakeSleeper: (() => void) | undefined;
  // Also heard while jobs run: the slot kept free of bulk work takes a new mail at once.
  const wakes = new Wakes();
  const wake = () => {
    signalled = true;
    wakes.wake();
    wakeSleeper?.();
  };
  const reader = watchJobSignal().getReader();
  const watching = (async () => {
    try {
      while (!stopped) {
        const { done } = await reader.read();
        if (done) break;
        wake();
      }
    } catch { /* stream cancelled */ }
  })();
  // Failures in a row (a store that stays busy or unreachable): the loop waits longer after each,
  // up to `MAX_BACKOFF_MS`, and ignores wake-ups meanwhile, instead of hammering the store.
  let failures = 0;
  const loop = (async () => {
    while (!stopped) {
      signalled = false;
      try {
        await runDueJobs(handlers, () => stopped, wakes);
        failures = 0;
      } catch (e) {
        failures++;
        console.error("job worker:", e instanceof Error ? e.message : e);
      }
      if (stopped || (signalled && failures === 0)) continue;
      const wait = failures === 0 ? pollMs : Math.min(MAX_BACKOFF_MS, pollMs * 2 ** (failures - 1));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        wakeSleeper = () => {
          if (failures > 0 && !stopped) return;
          clearTimeout(timer);
          resolve();
        };
      });
      wakeSleeper = undefined;
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake();
      await reader.cancel().catch(() => {});
      await watching;
      await loop;
    },
  };
}
