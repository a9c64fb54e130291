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
  type JobRecord,
  type JobType,
  RENEW_EVERY_MS,
  renewLease,
  settleJob,
  watchJobSignal,
} from "../kv/jobs.ts";

const tracer = trace.getTracer("app.jobs");

/** Handlers by job type. */
export type Handlers = { [T in JobType]?: (job: Extract<Job, { type: T }>, rec: JobRecord) => Promise<void> };

/**
 * Runs one claimed job and records its outcome (done, retry later, or dead letter), as the span
 * `job <type>` when OpenTelemetry is on (its KV calls nest under it).
 */
function runClaimed(c: Claimed, handlers: Handlers): Promise<"done" | "retry" | "dead" | "lost"> {
  const { rec } = c;
  return tracer.startActiveSpan(`job ${rec.job.type}`, async (span) => {
    span.setAttributes({ "job.id": rec.id, "job.type": rec.job.type, "job.attempt": rec.attempts });
    const handler = handlers[rec.job.type] as ((j: Job, r: JobRecord) => Promise<void>) | undefined;
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

/**
 * Claims and runs every job due now, until none is left (or `stopping()` says so); returns how
 * many ran. For tests and one-shot runs, and the worker loop.
 */
export async function runDueJobs(handlers: Handlers, stopping: () => boolean = () => false): Promise<number> {
  let ran = 0;
  while (!stopping()) {
    const batch = await claimDueJobs(4);
    if (batch.length === 0) return ran;
    await Promise.all(batch.map((c) => runClaimed(c, handlers)));
    ran += batch.length;
  }
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
  const wake = () => {
    signalled = true;
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
        await runDueJobs(handlers, () => stopped);
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
