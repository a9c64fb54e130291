/**
 * The picture jobs: make an upload's master and its served sizes, render a generation's served
 * sizes once, and remove a generation's blobs after a crop, a replace or a delete. Each is safe
 * to run twice, or twice at once (kv/pictures.ts).
 */

import type { Job } from "../kv/jobs.ts";
import { completeUpload, removeGeneration, renderGeneration } from "../kv/pictures.ts";

/**
 * After an upload: re-encodes the prepared upload as the master, then renders the served sizes,
 * the first size first (the picture is ready from then on). A retry resumes where a crash left it.
 */
export async function pictureMasterJob(job: Extract<Job, { type: "picture-master" }>): Promise<void> {
  await completeUpload(job.picId, job.gen);
}

/** Renders and stores the served sizes of one generation of a picture (its master first, if missing). */
export async function pictureVariantsJob(job: Extract<Job, { type: "picture-variants" }>): Promise<void> {
  await renderGeneration(job.picId, job.gen);
}

/** Removes the blobs of a generation the picture no longer serves (and, when `whole`, the picture's). */
export async function pictureCleanupJob(job: Extract<Job, { type: "picture-cleanup" }>): Promise<void> {
  await removeGeneration(job.picId, job.gen, job.whole);
}
