/** The one job dispatcher: every job type and its handler. `deno task worker` runs it alone. */

import { type Handlers, startWorker, type Worker } from "./jobs.ts";
import { sendMailJob } from "./mail.ts";
import { pushJob } from "./push.ts";
import { pictureCleanupJob, pictureMasterJob, pictureVariantsJob } from "./pictures.ts";
import { accountDeleteJob, accountExportJob } from "./memberData.ts";
import { startHealthSweep } from "./health.ts";
import { reportDeadlineJob } from "./dungeon.ts";
import { closeKv, openKv } from "../kv/db.ts";

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

/** Starts the job workers of this process, and the sweep that reveals health notices in their time. */
export function startWorkers(): Worker {
  const jobs = startWorker(handlers);
  const health = startHealthSweep();
  return {
    async stop() {
      await Promise.all([jobs.stop(), health.stop()]);
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
