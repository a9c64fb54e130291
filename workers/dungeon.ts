/** The deadline of a report (kv/games/dungeon.ts): 48 h after it was made, one still open goes to the admins. */

import { escalateReport } from "../kv/games/dungeon.ts";
import type { Job } from "../kv/jobs.ts";

/** Escalates the report when it is still undecided (nothing happens to one decided meanwhile). */
export async function reportDeadlineJob(job: Extract<Job, { type: "report-deadline" }>): Promise<void> {
  await escalateReport(job.reportId);
}
