/**
 * The picture work: everything that renders picture bytes. It reads what the store keeps
 * (kv/pictures.ts), renders with images/pipeline.ts, and keeps what it made through kv/ writes
 * that are each safe to run twice, or twice at once.
 *
 * The jobs make an upload's master and its served sizes, render a generation's served sizes
 * once, and remove a generation's blobs after a crop, a replace or a delete. The requests serve
 * a size the job has not stored yet by scaling the master now (`loadVariant`, `loadMaster`), and
 * cut the editor's crop at once (`cropOwnPicture`).
 */

import type { Job } from "../kv/jobs.ts";
import {
  firstKind,
  generationKinds,
  getPic,
  getStoredVariant,
  isMaster,
  isVariantStored,
  keepCrop,
  keepMaster,
  keepVariant,
  markFirstSizeStored,
  masterBlobId,
  type PicResult,
  type ProfilePic,
  readBlob,
  readMaster,
  removeGeneration,
  type ServedPicture,
  sourceBlobId,
  storedSize,
  variantEtag,
  type VariantKind,
} from "../kv/pictures.ts";
import type { StoredBlob } from "../kv/blobs.ts";
import {
  type CropBox,
  cropPicture,
  type DecodedPicture,
  decodeMaster,
  makeMaster,
  renderVariant,
} from "../images/pipeline.ts";

// --- serving before the jobs have run

/**
 * One served kind of the current generation: the stored variant, or (before the job has run)
 * the master, or before that the prepared upload, scaled now. Null when the bytes are gone (the
 * picture was just deleted or cropped).
 */
export async function loadVariant(pic: ProfilePic, kind: VariantKind): Promise<ServedPicture | null> {
  const k = { size: storedSize(pic, kind.size), blur: kind.blur };
  const stored = await getStoredVariant(pic, k);
  if (stored) return stored;
  const master = await readMaster(pic);
  if (!master) return null;
  const out = await renderVariant(master.bytes, k.size, { blur: k.blur });
  return { bytes: out.bytes, type: out.type, etag: variantEtag(pic, k), stored: false };
}

/**
 * The master of the current generation (`?orig=1`): normalized, never the uploaded bytes. Before
 * the job has made it, the same master is made now from the prepared upload (and not kept).
 */
export async function loadMaster(pic: ProfilePic): Promise<ServedPicture | null> {
  const b = await readMaster(pic);
  if (!b) return null;
  if (isMaster(b.meta)) return { bytes: b.bytes, type: b.type, etag: variantEtag(pic, "master"), stored: true };
  const made = await makeMaster(b.bytes);
  return { bytes: made.bytes, type: made.type, etag: variantEtag(pic, "master"), stored: false };
}

/**
 * Crops (and turns) the whole normalized upload into the master of a new generation (kept by
 * kv/pictures.ts `keepCrop`). Throws `PictureRejected` (422) for a box outside the picture.
 */
export async function cropOwnPicture(profileId: string, picId: string, box: CropBox): Promise<PicResult> {
  const pic = await getPic(picId);
  if (!pic) return { ok: false, reason: "not_found" };
  if (pic.profileId !== profileId) return { ok: false, reason: "not_yours" };
  const source = await readBlob(sourceBlobId(picId));
  if (!source) return { ok: false, reason: "not_found" };
  const cropped = await cropPicture(source.bytes, box);
  return await keepCrop(profileId, picId, box, cropped);
}

// --- the jobs' work (each safe to run twice, or twice at once)

/** Re-encodes the blob `id` of picture `picId` as a master unless it is one already; the master, or null. */
async function masterInPlace(picId: string, id: string): Promise<StoredBlob | null> {
  const current = await readBlob(id);
  if (!current || isMaster(current.meta)) return current;
  return await keepMaster(picId, id, await makeMaster(current.bytes));
}

/**
 * The master of the picture's current generation, made now if it is not yet: an uncropped
 * picture's prepared upload is re-encoded as the master in place. Null when the picture's bytes
 * are gone. Two runs at once both end with the one stored master.
 */
export function ensureMaster(pic: ProfilePic): Promise<StoredBlob | null> {
  return masterInPlace(pic.id, masterBlobId(pic));
}

/**
 * The `picture-master` job's work: the upload's source re-encoded as the master in place (also
 * when a crop came first, so that no prepared upload stays stored), then `renderGeneration`.
 */
export async function completeUpload(picId: string, gen: string): Promise<number> {
  if (!(await getPic(picId))) return 0;
  if (!(await masterInPlace(picId, sourceBlobId(picId)))) return 0;
  return await renderGeneration(picId, gen);
}

/**
 * Makes the master of generation `gen` when it is not made yet (`ensureMaster`), then renders
 * and stores every served size that is not stored yet (blurred ones too when the picture is
 * NSFW), the first size first (then the picture is ready: `processing` is cleared). Decodes the
 * master once for all sizes. Does nothing when the picture is gone or has moved on to another
 * generation, and removes what it wrote if that happened while it worked. Returns how many sizes
 * it stored.
 */
export async function renderGeneration(picId: string, gen: string): Promise<number> {
  const pic = await getPic(picId);
  if (!pic || pic.gen !== gen) return 0;
  const master = await ensureMaster(pic);
  if (!master) return 0;
  const first = firstKind(pic);
  let decoded: DecodedPicture | undefined;
  let rendered = 0;
  for (const kind of generationKinds(pic)) {
    if (!(await isVariantStored(picId, gen, kind))) {
      decoded ??= await decodeMaster(master.bytes);
      const out = await renderVariant(decoded, kind.size, { blur: kind.blur });
      if (await keepVariant(picId, gen, kind, out)) rendered++;
    }
    if (kind.size === first.size && kind.blur === first.blur) await markFirstSizeStored(picId, gen);
  }
  const after = await getPic(picId);
  if (!after || after.gen !== gen) await removeGeneration(picId, gen, !after);
  return rendered;
}

// --- the job handlers

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
