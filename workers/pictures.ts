/**
 * The picture jobs: render a generation's served sizes once, and remove a generation's blobs
 * after a crop, a replace or a delete. Both are safe to run twice (kv/pictures.ts).
 */

import type { Job } from "../kv/jobs.ts";
import { removeGeneration, renderGeneration } from "../kv/pictures.ts";

/** Renders and stores the served sizes of one generation of a picture. */
export async function pictureVariantsJob(job: Extract<Job, { type: "picture-variants" }>): Promise<void> {
  await renderGeneration(job.picId, job.gen);
}

/** Removes the blobs of a generation the picture no longer serves (and, when `whole`, the picture's). */
export async function pictureCleanupJob(job: Extract<Job, { type: "picture-cleanup" }>): Promise<void> {
  await removeGeneration(job.picId, job.gen, job.whole);
}
