/**
 * The job runner: claims due jobs (kv/jobs.ts), runs each with its handler, records the outcome
 * (done, retry with backoff, or dead letter). Delivery is at least once: every handler must be
 * safe to run twice.
 */

import {
  claimDueJobs,
  type Claimed,
  type Job,
  type JobRecord,
  type JobType,
  settleJob,
  watchJobSignal,
} from "../kv/jobs.ts";

/** Handlers by job type. */
export type Handlers = { [T in JobType]?: (job: Extract<Job, { type: T }>, rec: JobRecord) => Promise<void> };

/** Runs one claimed job and records its outcome (done, retry later, or dead letter). */
async function runClaimed(c: Claimed, handlers: Handlers): Promise<"done" | "retry" | "dead" | "lost"> {
  const { rec } = c;
  const handler = handlers[rec.job.type] as ((j: Job, r: JobRecord) => Promise<void>) | undefined;
  let error: string | undefined;
  try {
    if (!handler) throw new Error(`no handler for job type ${rec.job.type}`);
    await handler(rec.job, rec);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  return await settleJob(c, error);
}

/** Claims and runs every job due now, until none is left; returns how many ran. For tests and one-shot runs. */
export async function runDueJobs(handlers: Handlers): Promise<number> {
  let ran = 0;
  for (;;) {
    const batch = await claimDueJobs(4);
    if (batch.length === 0) return ran;
    await Promise.all(batch.map((c) => runClaimed(c, handlers)));
    ran += batch.length;
  }
}

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
  const loop = (async () => {
    while (!stopped) {
      signalled = false;
      try {
        await runDueJobs(handlers);
      } catch (e) {
        console.error("job worker:", e instanceof Error ? e.message : e);
      }
      if (stopped || signalled) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, pollMs);
        wakeSleeper = () => {
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
