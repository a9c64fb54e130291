/** Reports of violations (Report Violation), kept for the moderation work that comes later. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import type { Report } from "../domain/shapes/moderation.ts";
import { enqueueJob } from "./jobs.ts";
import { ESCALATE_AFTER_MS } from "../domain/dungeon.ts";

/** Stores a report with its index by reported profile, in one atomic. */
export async function saveReport(reporter: string, reported: string, reason: string, text: string): Promise<Report> {
  const r: Report = {
    id: newId(),
    reporterProfileId: reporter,
    reportedProfileId: reported,
    reason,
    text,
    tsCreated: now(),
  };
  const op = kv().atomic()
    .check({ key: keys.report(r.id), versionstamp: null })
    .set(keys.report(r.id), r)
    .set(keys.reportByReported(reported, r.id), r.id);
  // No report waits more than 48 h: then, still open, it goes to the admins (workers/dungeon.ts).
  enqueueJob(op, { type: "report-deadline", reportId: r.id }, { delayMs: ESCALATE_AFTER_MS });
  const res = await op.commit();
  if (!res.ok) throw new Error("report id collision");
  return r;
}

/** Reports, newest first (all, or about one profile). */
export async function listReports(reported?: string, limit = 100): Promise<Report[]> {
  if (!reported) {
    const out: Report[] = [];
    for await (const e of kv().list<Report>({ prefix: keys.reportsAll() }, { limit, reverse: true })) out.push(e.value);
    return out;
  }
  const ids: string[] = [];
  for await (const e of kv().list<string>({ prefix: keys.reportsByReported(reported) }, { limit, reverse: true })) {
    ids.push(e.value);
  }
  const out: Report[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const entries = await kv().getMany<Report[]>(ids.slice(i, i + 10).map(keys.report));
    for (const e of entries) if (e.value) out.push(e.value);
  }
  return out;
}
