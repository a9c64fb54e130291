/**
 * Health and version: GET /api/ping, GET /api/version; for load balancers and orchestrators
 * GET /api/health (the process answers) and GET /api/ready (KV answers, the position index is
 * loaded, and no job has waited past `READY_MAX_JOB_WAIT_MS`; else 503 with the reasons).
 */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { backendVersion } from "../../config/version.ts";
import { pingKv } from "../../kv/db.ts";
import { positionStore } from "../../kv/positions/mod.ts";
import { jobStats } from "../../kv/jobs.ts";
import { answer } from "../answer.ts";

/** The longest a due job may wait before the instance calls itself not ready. */
export const READY_MAX_JOB_WAIT_MS = 5 * 60_000;
/** How long the readiness check waits for KV. */
const KV_TIMEOUT_MS = 2000;

/** Resolves with the promise's value, or rejects after `ms`. */
function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => timer = setTimeout(() => reject(new Error("timed out")), ms));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

export const system = new Hono<AppEnv>()
  .get("/ping", (c) => answer(c, "GET /api/ping", { pong: true, ts: Date.now() }))
  .get("/version", (c) => answer(c, "GET /api/version", backendVersion()))
  .get("/health", (c) => {
    c.header("cache-control", "no-store");
    return answer(c, "GET /api/health", { ok: true });
  })
  .get("/ready", async (c) => {
    c.header("cache-control", "no-store");
    const problems: string[] = [];
    try {
      await within(pingKv(), KV_TIMEOUT_MS);
    } catch {
      problems.push("kv: not answering");
    }
    if (positionStore().syncStatus.lastTailAt === 0) problems.push("positions: index not loaded");
    if (problems.length === 0) {
      const jobs = await within(jobStats(), KV_TIMEOUT_MS).catch(() => null);
      if (!jobs) problems.push("jobs: queue not readable");
      else if (jobs.oldestDueAgeMs > READY_MAX_JOB_WAIT_MS) {
        problems.push(`jobs: the oldest due job waits ${Math.round(jobs.oldestDueAgeMs / 1000)} s`);
      }
    }
    return c.json({ ready: problems.length === 0, problems }, problems.length ? 503 : 200);
  });
