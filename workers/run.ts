/** The one job dispatcher: every job type and its handler. `deno task worker` runs it alone. */

import { type Handlers, startWorker, type Worker } from "./jobs.ts";
import { sendMailJob } from "./mail.ts";
import { pushJob } from "./push.ts";
import { pictureCleanupJob, pictureMasterJob, pictureVariantsJob } from "./pictures.ts";
import { accountDeleteJob, accountExportJob } from "./memberData.ts";
import { startHealthSweep } from "./health.ts";
import { reportDeadlineJob } from "./dungeon.ts";
import { startSweep } from "./sweep.ts";
import { closeKv, openKv } from "../kv/db.ts";
import { sweepPositionsWhenDue } from "../kv/positions/mod.ts";

/** Handlers of every job type. */
export const handlers: Handlers = {
  mail: sendMailJob,
  push: pushJob,
  "picture-master": pictureMasterJob,
  "picture-variants": pictureVariantsJob,
  "picture-cleanup": pictureCleanupJob,
  "account-export": accountExportJob,
  "account-delete": accountDeleteJob,
  "report-deadline": reportDeadlineJob,
};

/**
 * How often the workers ask whether the sweep of expired own positions is due: one process sweeps
 * every POSITION_SWEEP_MS, whichever asks first (kv/positions/expiry.ts).
 */
const POSITION_SWEEP_ASK_MS = 60_000;

/**
 * Starts the job workers of this process, the sweep that reveals health notices in their time,
 * and the sweep that deletes own positions past their 26 h (kv/positions/expiry.ts).
 */
export function startWorkers(): Worker {
  const jobs = startWorker(handlers);
  const health = startHealthSweep();
  const positions = startSweep(
    "positions expiry sweep",
    (stopped) => sweepPositionsWhenDue(stopped),
    () => POSITION_SWEEP_ASK_MS,
  );
  return {
    async stop() {
      await Promise.all([jobs.stop(), health.stop(), positions.stop()]);
    },
  };
}

if (import.meta.main) {
  await openKv();
  const worker = startWorkers();
  console.log("workers running");
  // SIGTERM: claim nothing new, let the jobs under way finish, then exit (a job past the
  // deadline keeps its lease only until it runs out: another worker takes it within seconds).
  Deno.addSignalListener("SIGTERM", async () => {
    setTimeout(() => Deno.exit(1), 9_000).unref();
    await worker.stop();
    closeKv();
    Deno.exit(0);
  });
}
