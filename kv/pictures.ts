/**
 * Profile pictures: the record, who may see it, and its bytes.
 *
 * This module stores; it renders nothing. The rendering (master, served sizes, blur, crop) is
 * workers/pictures.ts, which reads bytes here, renders them with images/pipeline.ts and keeps
 * what it made with the writes below, each safe to run twice, or twice at once.
 *
 * Bytes. The request keeps only an upload made safe (`prepareUpload` in `images/pipeline.ts`:
 * upright, sRGB, at most 2048 px, no metadata, JPEG q92) as the picture's `source` blob, marked
 * `stage: "upload"`; the uploaded bytes never reach the store. The `picture-master` job
 * re-encodes that source as the WebP master in place (`stage: "master"`; a source without
 * `stage`, from before, is a master too), then renders the served sizes, the first size first:
 * the record's `processing` flag is cleared, and the owner's live version bumped, as soon as that
 * first size is stored. A crop cuts the source into a `master` blob of a new generation (`gen`),
 * so the editor can always re-crop from the whole picture; an uncropped picture's master is its
 * source. The served sizes of a generation are rendered once by a job and stored as blobs; until
 * then workers/pictures.ts `loadVariant` scales the master, or the prepared source before the
 * master exists, on the fly (never a placeholder: every blob is already stripped). Blob ids of a
 * generation never change content, so `(picture, gen, kind)` is a strong ETag and URLs carrying
 * `v=gen` may be cached for long.
 *
 * Lists. A profile's `profilePicIds` (public) and `profilePicIdsPrivate` are the index of its
 * pictures: a picture exists in exactly one of them while its record exists, and both are
 * written in the same atomic as the record.
 *
 * Access (design.md): the owner sees everything; anyone may see a picture in a public list;
 * a private picture only its owner and members it was sent to (`grantPictureAccess`).
 * Blocking is the caller's check (routes), since it concerns the viewer, not the picture.
 */

import { getAll, kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import { forgetCachedProfile, profileChanged } from "./profiles.ts";
import {
  BlobConflictError,
  type BlobMeta,
  deleteBlob,
  getBlob,
  getBlobMeta,
  putBlob,
  type StoredBlob,
} from "./blobs.ts";
import { enqueueJob } from "./jobs.ts";
import { addEvent } from "./events.ts";
import { MAX_PICS_PER_PROFILE, PIC_SIZES, type PicSize } from "../domain/pictures.ts";
import type { CropBox, PicInfo } from "../domain/shapes/pictures.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

/** A picture's record. */
export interface ProfilePic {
  id: string;
  /** The owning profile. */
  profileId: string;
  /** Flagged by its owner: the plain URL serves a blurred version, the NSFW route the real one. */
  nsfw: boolean;
  /** The generation of the served bytes: a new one at every crop. */
  gen: string;
  /** Pixel size of the served master (after the crop). */
  width: number;
  height: number;
  /** Pixel size of the whole normalized upload. */
  sourceWidth: number;
  sourceHeight: number;
  /** The crop of the current generation, in pixels of the source turned by `rotate`; null: uncropped. */
  crop: CropBox | null;
  /** True from an upload until the first served size is stored (the editor shows it as processing). */
  processing?: boolean;
  tsCreated: number;
  tsUpdated: number;
}

/** The most pictures one profile may have (public and private together; decided in domain/). */
export { MAX_PICS_PER_PROFILE };

/**
 * Encoded picture bytes the store keeps (images/pipeline.ts makes them): a prepared upload
 * (`stage: "upload"`), or a master without `stage`.
 */
export interface PictureBytes {
  bytes: Uint8Array;
  type: string;
  width: number;
  height: number;
  stage?: "upload";
}

/** One served kind of a generation: a width, plain or blurred. */
export interface VariantKind {
  size: PicSize;
  blur: boolean;
}

// --- blob ids (the only place they are spelled)

/** The normalized upload: the editor's source for every crop. */
export function sourceBlobId(picId: string): string {
  return `pics/${picId}/source`;
}

/** The master of a generation: the source itself until the picture is cropped. */
export function masterBlobId(pic: Pick<ProfilePic, "id" | "gen" | "crop">): string {
  return pic.crop ? `pics/${pic.id}/${pic.gen}/master` : sourceBlobId(pic.id);
}

function croppedMasterBlobId(picId: string, gen: string): string {
  return `pics/${picId}/${gen}/master`;
}

/**
 * The stored size for a requested width: sizes at or beyond the master's width all show the
 * master at its own width (variants are never enlarged), so they share the smallest such size.
 */
export function storedSize(pic: Pick<ProfilePic, "width">, size: PicSize): PicSize {
  if (size < pic.width) return size;
  return PIC_SIZES.find((s) => s >= pic.width) ?? size;
}

/** The sizes a generation stores. */
export function storedSizes(pic: Pick<ProfilePic, "width">): PicSize[] {
  return [...new Set(PIC_SIZES.map((s) => storedSize(pic, s)))];
}

/** The blob id of one served kind of a generation. */
export function variantBlobId(picId: string, gen: string, kind: VariantKind): string {
  return `pics/${picId}/${gen}/${kind.blur ? "b" : "w"}${kind.size}`;
}

/** Every blob id a generation may have (variants and a cropped master). */
function generationBlobIds(picId: string, gen: string): string[] {
  return [
    croppedMasterBlobId(picId, gen),
    ...PIC_SIZES.flatMap((size) => [false, true].map((blur) => variantBlobId(picId, gen, { size, blur }))),
  ];
}

// --- reads

/** A picture record, or null. */
export async function getPic(id: string): Promise<ProfilePic | null> {
  return (await kv().get<ProfilePic>(keys.pic(id))).value;
}

/** Picture records by id (missing ones left out), in the order asked. */
export async function getPics(ids: readonly string[]): Promise<ProfilePic[]> {
  const out: ProfilePic[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    const entries = await kv().getMany<ProfilePic[]>(ids.slice(i, i + 10).map((id) => keys.pic(id)));
    for (const e of entries) if (e.value) out.push(e.value);
  }
  return out;
}

/** The viewer-facing facts of a picture. */
export function picInfo(p: ProfilePic): PicInfo {
  return {
    id: p.id,
    nsfw: p.nsfw,
    width: p.width,
    height: p.height,
    v: p.gen,
    ...(p.processing ? { processing: true as const } : {}),
  };
}

/** Is the picture in its owner's private list? */
export function isPrivatePic(pic: ProfilePic, owner: Profile): boolean {
  return owner.profilePicIdsPrivate.includes(pic.id);
}

/**
 * May `viewerProfileId` see this picture? The owner always; anyone when it is in the owner's
 * public list; otherwise only with a grant: a picture sent to them in a chat stays visible to them
 * whatever list it moves to later, until the owner deletes it or locks their pictures for them.
 * Blocking is checked by the caller.
 */
export async function canViewPicture(pic: ProfilePic, owner: Profile, viewerProfileId: string): Promise<boolean> {
  if (viewerProfileId === owner.id) return true;
  if (owner.profilePicIds.includes(pic.id)) return true;
  const grant = (await kv().get<number | { until: number }>(keys.picGrant(pic.id, viewerProfileId))).value;
  // A view-once picture's grant lasts the minute after it is opened (kv/messages.ts openViewOnce).
  return grant !== null && (typeof grant === "number" || grant.until > now());
}

/**
 * "Lock my private pictures" for one member: ends every grant of the owner's pictures to them, so
 * pictures sent in chat that are no longer public stop showing to them. Returns how many ended.
 */
export async function revokePictureGrants(owner: Profile, viewerProfileId: string): Promise<number> {
  const ids = [...owner.profilePicIds, ...owner.profilePicIdsPrivate];
  const present = (await getAll(ids.map((id) => keys.picGrant(id, viewerProfileId)))).filter((e) => e.versionstamp);
  // At most MAX_PICS_PER_PROFILE deletions: one atomic.
  const op = kv().atomic();
  for (const e of present) op.delete(e.key);
  if (present.length) await op.commit();
  return present.length;
}

/** Lets `viewerProfileId` see the picture `picId` whatever list it is in (it was sent to them in a chat message). */
export async function grantPictureAccess(picId: string, viewerProfileId: string): Promise<void> {
  await kv().set(keys.picGrant(picId, viewerProfileId), now());
}

/** Adds the grant to a caller's atomic (a chat message and its grants commit together). */
export function grantPictureAccessOp(op: Deno.AtomicOperation, picId: string, viewerProfileId: string): void {
  op.set(keys.picGrant(picId, viewerProfileId), now());
}

/** Bytes of one served kind, with a strong ETag; `stored` is false while the job has not run. */
export interface ServedPicture {
  bytes: Uint8Array;
  type: string;
  etag: string;
  stored: boolean;
}

/** The ETag of one served kind: generations never change content, so identity is enough. */
export function variantEtag(pic: Pick<ProfilePic, "id" | "gen">, kind: VariantKind | "master"): string {
  const k = kind === "master" ? "master" : `${kind.blur ? "b" : "w"}${kind.size}`;
  return `"${pic.id}.${pic.gen}.${k}"`;
}

/** Is this source blob the master already (made by the job, or stored before masters were a job)? */
export function isMaster(meta: BlobMeta): boolean {
  return meta.stage !== "upload";
}

/**
 * Reads a blob; tries once more when it vanished mid-read, which happens when the master job
 * replaces a source at that moment (readers see the old blob or the new one, or none: then the
 * second read finds the new one).
 */
export async function readBlob(id: string): Promise<StoredBlob | null> {
  return await getBlob(id) ?? await getBlob(id);
}

/**
 * One stored kind of the current generation (`kind.size` a stored size: `storedSize`), or null
 * while the job has not stored it.
 */
export async function getStoredVariant(pic: ProfilePic, kind: VariantKind): Promise<ServedPicture | null> {
  const stored = await getBlob(variantBlobId(pic.id, pic.gen, kind));
  return stored && { bytes: stored.bytes, type: stored.type, etag: variantEtag(pic, kind), stored: true };
}

/**
 * The blob the current generation is served from: its master, or the prepared upload before the
 * job has made the master (`isMaster(blob.meta)` tells). Null when the bytes are gone.
 */
export function readMaster(pic: ProfilePic): Promise<StoredBlob | null> {
  return readBlob(masterBlobId(pic));
}

/**
 * The whole upload, for the owner's crop editor: the prepared upload, or the master once the job
 * has replaced it (the ETag follows the bytes).
 */
export async function loadSource(pic: ProfilePic): Promise<ServedPicture | null> {
  const b = await readBlob(sourceBlobId(pic.id));
  return b && { bytes: b.bytes, type: b.type, etag: `"${pic.id}.source.${b.etag.slice(0, 16)}"`, stored: true };
}

/** How far the jobs are with a picture's current generation: the master and each stored size. */
export interface PicProgress {
  /** Steps done: the master, then each served size (blurred ones too for an NSFW picture). */
  done: number;
  total: number;
  /** The first size is stored: the picture shows from stored bytes. */
  ready: boolean;
}

/** The kinds a generation stores, the first size (plain, smallest) first. */
export function generationKinds(pic: ProfilePic): VariantKind[] {
  return storedSizes(pic).flatMap((size) =>
    pic.nsfw ? [{ size, blur: false }, { size, blur: true }] : [{ size, blur: false }]
  );
}

/** The first size of a generation: once it is stored, the picture is ready. */
export function firstKind(pic: ProfilePic): VariantKind {
  return { size: storedSize(pic, PIC_SIZES[0]), blur: false };
}

/** Where the jobs are with the current generation of `pic` (reads blob metadata only). */
export async function pictureProgress(pic: ProfilePic): Promise<PicProgress> {
  const kinds = generationKinds(pic);
  const [master, ...sizes] = await Promise.all([
    getBlobMeta(masterBlobId(pic)),
    ...kinds.map((k) => getBlobMeta(variantBlobId(pic.id, pic.gen, k))),
  ]);
  const done = (master && isMaster(master) ? 1 : 0) + sizes.filter((m) => m !== null).length;
  return { done, total: 1 + kinds.length, ready: sizes[0] !== null };
}

// --- writes

/** Why a picture change was refused. */
export type PicRefusal = "no_profile" | "not_found" | "not_yours" | "full" | "conflict";

export type PicResult = { ok: true; pic: ProfilePic; profile: Profile } | { ok: false; reason: PicRefusal };

const ATTEMPTS = 8;

function enqueueVariants(op: Deno.AtomicOperation, pic: ProfilePic): void {
  enqueueJob(op, { type: "picture-variants", picId: pic.id, gen: pic.gen });
}

/**
 * Adds a picture to a profile: its source blob (a prepared upload, or a master from
 * `normalizeUpload`), then (one atomic) its record, marked `processing`, its place at the end of
 * the public list, and the `picture-master` job, which makes the master and the served sizes.
 * With `replaceId`, the new picture takes the old one's place in its list (public or private)
 * and the old one is deleted.
 */
export async function addPicture(
  profileId: string,
  picture: PictureBytes,
  opts: { replaceId?: string } = {},
): Promise<PicResult> {
  const id = newId();
  const stage = picture.stage ?? "master";
  await putBlob(sourceBlobId(id), picture.bytes, { type: picture.type, stage });
  const t = now();
  const pic: ProfilePic = {
    id,
    profileId,
    nsfw: false,
    gen: newId(),
    width: picture.width,
    height: picture.height,
    sourceWidth: picture.width,
    sourceHeight: picture.height,
    crop: null,
    processing: true,
    tsCreated: t,
    tsUpdated: t,
  };
  let result: PicResult = { ok: false, reason: "conflict" };
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await kv().get<Profile>(keys.profile(profileId));
    if (!entry.value) {
      result = { ok: false, reason: "no_profile" };
      break;
    }
    const profile = { ...entry.value, tsUpdated: t };
    const op = kv().atomic().check(entry);
    if (opts.replaceId) {
      const old = await kv().get<ProfilePic>(keys.pic(opts.replaceId));
      if (!old.value) {
        result = { ok: false, reason: "not_found" };
        break;
      }
      if (old.value.profileId !== profileId) {
        result = { ok: false, reason: "not_yours" };
        break;
      }
      const swap = (list: string[]) => list.map((x) => (x === opts.replaceId ? id : x));
      profile.profilePicIds = swap(profile.profilePicIds);
      profile.profilePicIdsPrivate = swap(profile.profilePicIdsPrivate);
      op.check(old).delete(keys.pic(old.value.id));
      enqueueJob(op, { type: "picture-cleanup", picId: old.value.id, gen: old.value.gen, whole: true });
    } else {
      if (profile.profilePicIds.length + profile.profilePicIdsPrivate.length >= MAX_PICS_PER_PROFILE) {
        result = { ok: false, reason: "full" };
        break;
      }
      profile.profilePicIds = [...profile.profilePicIds, id];
    }
    op.set(keys.profile(profileId), profile).set(keys.pic(id), pic);
    enqueueJob(op, { type: "picture-master", picId: id, gen: pic.gen });
    profileChanged(op, profileId);
    if ((await op.commit()).ok) {
      forgetCachedProfile(profileId);
      return { ok: true, pic, profile };
    }
  }
  await deleteBlob(sourceBlobId(id));
  return result;
}

/**
 * Runs `change` on the owner's picture record and commits it with a check on both the picture
 * and the profile (so a concurrent delete or list change wins cleanly), retrying on conflict.
 */
async function changePicture(
  profileId: string,
  picId: string,
  change: (pic: ProfilePic, profile: Profile, op: Deno.AtomicOperation) => ProfilePic | null,
): Promise<PicResult> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const [picEntry, profEntry] = await kv().getMany<[ProfilePic, Profile]>([keys.pic(picId), keys.profile(profileId)]);
    if (!profEntry.value) return { ok: false, reason: "no_profile" };
    if (!picEntry.value) return { ok: false, reason: "not_found" };
    if (picEntry.value.profileId !== profileId) return { ok: false, reason: "not_yours" };
    const op = kv().atomic().check(picEntry, profEntry);
    const next = change(picEntry.value, profEntry.value, op);
    if (!next) return { ok: true, pic: picEntry.value, profile: profEntry.value };
    profileChanged(op, profileId);
    if ((await op.commit()).ok) {
      forgetCachedProfile(profileId);
      return { ok: true, pic: next, profile: profEntry.value };
    }
  }
  return { ok: false, reason: "conflict" };
}

/** Deletes a picture: record and list entry in one atomic, its blobs and grants by a job. */
export function deletePicture(profileId: string, picId: string): Promise<PicResult> {
  return changePicture(profileId, picId, (pic, profile, op) => {
    const next: Profile = {
      ...profile,
      profilePicIds: profile.profilePicIds.filter((x) => x !== picId),
      profilePicIdsPrivate: profile.profilePicIdsPrivate.filter((x) => x !== picId),
      tsUpdated: now(),
    };
    op.delete(keys.pic(picId)).set(keys.profile(profileId), next);
    enqueueJob(op, { type: "picture-cleanup", picId, gen: pic.gen, whole: true });
    return pic;
  });
}

/** Sets the NSFW flag; turning it on renders the blurred sizes (the plain URL serves them). */
export function setPictureNsfw(profileId: string, picId: string, nsfw: boolean): Promise<PicResult> {
  return changePicture(profileId, picId, (pic, _profile, op) => {
    if (pic.nsfw === nsfw) return null;
    const next = { ...pic, nsfw, tsUpdated: now() };
    op.set(keys.pic(picId), next);
    if (nsfw) enqueueVariants(op, next);
    return next;
  });
}

/**
 * Keeps a crop of the picture's whole upload (workers/pictures.ts `cropOwnPicture` cut it from
 * `readBlob(sourceBlobId(picId))`) as the master of a new generation, with the box it was cut
 * with: the old generation's blobs are removed by a job, the new sizes rendered by another. The
 * new master is removed again when the record change is refused.
 */
export async function keepCrop(
  profileId: string,
  picId: string,
  box: CropBox,
  cropped: PictureBytes,
): Promise<PicResult> {
  const gen = newId();
  await putBlob(croppedMasterBlobId(picId, gen), cropped.bytes, { type: cropped.type });
  const res = await changePicture(profileId, picId, (current, _profile, op) => {
    const next: ProfilePic = {
      ...current,
      gen,
      width: cropped.width,
      height: cropped.height,
      crop: { x: box.x, y: box.y, width: box.width, height: box.height, rotate: box.rotate ?? 0 },
      tsUpdated: now(),
    };
    op.set(keys.pic(picId), next);
    enqueueVariants(op, next);
    enqueueJob(op, { type: "picture-cleanup", picId, gen: current.gen, whole: false });
    return next;
  });
  if (!res.ok) await deleteBlob(croppedMasterBlobId(picId, gen));
  return res;
}

// --- keeping what the picture jobs made (workers/pictures.ts renders it; each write is safe to
// run twice, or twice at once)

/**
 * Keeps `master` as the blob `id` of picture `picId` (its source, or a cropped master) in place
 * of the prepared upload there, and returns the stored master. When another run stored it
 * meanwhile, that one stays. Null, and nothing kept, when the picture was deleted meanwhile (the
 * cleanup job may have removed its blobs already).
 */
export async function keepMaster(picId: string, id: string, master: PictureBytes): Promise<StoredBlob | null> {
  try {
    await putBlob(id, master.bytes, { type: master.type, stage: "master" });
  } catch (e) {
    // Another run stored the master meanwhile: it is done.
    if (!(e instanceof BlobConflictError)) throw e;
  }
  if (!(await getPic(picId))) {
    await deleteBlob(id);
    return null;
  }
  return await readBlob(id);
}

/** Is this served kind of generation `gen` stored? */
export async function isVariantStored(picId: string, gen: string, kind: VariantKind): Promise<boolean> {
  return (await getBlobMeta(variantBlobId(picId, gen, kind))) !== null;
}

/**
 * Keeps one rendered kind of generation `gen`. False when another run of a job for this
 * generation stored the same kind meanwhile (it is done).
 */
export async function keepVariant(picId: string, gen: string, kind: VariantKind, out: PictureBytes): Promise<boolean> {
  try {
    await putBlob(variantBlobId(picId, gen, kind), out.bytes, { type: out.type, width: out.width, height: out.height });
    return true;
  } catch (e) {
    if (!(e instanceof BlobConflictError)) throw e;
    return false;
  }
}

/**
 * Clears the record's `processing` flag once the first size of generation `gen` is stored, and
 * tells the owner's open pages (a `picture` event), in one atomic. Does nothing when
 * the picture is gone, has moved on to another generation, or was not processing.
 */
export async function markFirstSizeStored(picId: string, gen: string): Promise<void> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const entry = await kv().get<ProfilePic>(keys.pic(picId));
    if (!entry.value || entry.value.gen !== gen || !entry.value.processing) return;
    const { processing: _done, ...next } = entry.value;
    const op = kv().atomic().check(entry).set(keys.pic(picId), next);
    addEvent(op, [next.profileId], { type: "picture", id: picId });
    // Views of the profile keep its pictures' facts with its record (kv/profileViews.ts): forgotten together.
    profileChanged(op, next.profileId);
    const res = await op.commit();
    if (res.ok) {
      forgetCachedProfile(next.profileId);
      return;
    }
  }
}

/** Removes a generation's blobs; `whole` also removes the source and the grants (the picture is gone). */
export async function removeGeneration(picId: string, gen: string, whole: boolean): Promise<void> {
  const current = await getPic(picId);
  // A picture that still serves this generation keeps it (a job raced a newer change).
  if (current && current.gen === gen) return;
  for (const id of generationBlobIds(picId, gen)) await deleteBlob(id);
  if (whole && !current) {
    await deleteBlob(sourceBlobId(picId));
    const grants: Deno.KvKey[] = [];
    for await (const e of kv().list({ prefix: keys.picGrants(picId) })) grants.push(e.key);
    for (let i = 0; i < grants.length; i += 100) {
      const op = kv().atomic();
      for (const k of grants.slice(i, i + 100)) op.delete(k);
      await op.commit();
    }
  }
}
