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
import { POSITION_SWEEP_MS, sweepExpiredPositions } from "../kv/positions/mod.ts";

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

/** How soon after the start the first sweep of expired own positions runs (then every POSITION_SWEEP_MS). */
const FIRST_POSITION_SWEEP_MS = 60_000;

/**
 * Starts the job workers of this process, the sweep that reveals health notices in their time,
 * and the sweep that deletes own positions past their 26 h (kv/positions/expiry.ts).
 */
export function startWorkers(): Worker {
  const jobs = startWorker(handlers);
  const health = startHealthSweep();
  const positions = startSweep(
    "positions expiry sweep",
    (stopped) => sweepExpiredPositions(stopped),
    () => POSITION_SWEEP_MS,
    FIRST_POSITION_SWEEP_MS,
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
