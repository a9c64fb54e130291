/** The one job dispatcher: every job type and its handler. `deno task worker` runs it alone. */

import { type Handlers, startWorker, type Worker } from "./jobs.ts";
import { sendMailJob } from "./mail.ts";
import { pushJob } from "./push.ts";
import { pictureCleanupJob, pictureMasterJob, pictureVariantsJob } from "./pictures.ts";
import { openKv } from "../kv/db.ts";

/** Handlers of every job type. */
export const handlers: Handlers = {
  mail: sendMailJob,
  push: pushJob,
  "picture-master": pictureMasterJob,
  "picture-variants": pictureVariantsJob,
  "picture-cleanup": pictureCleanupJob,
};

/** Starts the job workers of this process. */
export function startWorkers(): Worker {
  return startWorker(handlers);
}

if (import.meta.main) {
  await openKv();
  startWorkers();
  console.log("workers running");
}
