/**
 * Profile pictures: the record, who may see it, and its bytes.
 *
 * Bytes. An upload is normalized in the request (upright, sRGB, WebP, no metadata, at most
 * 2048 px: `images/pipeline.ts`) and only that result is kept, as the picture's `source` blob;
 * the uploaded bytes never reach the store. A crop cuts the source into a `master` blob of a new
 * generation (`gen`), so the editor can always re-crop from the whole picture; an uncropped
 * picture's master is its source. The served sizes of a generation are rendered once by the
 * `picture-variants` job (workers/pictures.ts) and stored as blobs; until then `loadVariant`
 * scales the master on the fly. Blob ids of a generation never change content, so
 * `(picture, gen, kind)` is a strong ETag and URLs carrying `v=gen` may be cached for long.
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
import type { Profile } from "./profiles.ts";
import { BlobConflictError, deleteBlob, getBlob, getBlobMeta, putBlob } from "./blobs.ts";
import { enqueueJob } from "./jobs.ts";
import { type CropBox, cropPicture, PIC_SIZES, type PicSize, type Picture, renderVariant } from "../images/pipeline.ts";

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
  tsCreated: number;
  tsUpdated: number;
}

/** What a viewer needs to show a picture: its id, flag, size and generation (`v` in URLs). */
export interface PicInfo {
  id: string;
  nsfw: boolean;
  width: number;
  height: number;
  v: string;
}

/** The most pictures one profile may have (public and private together). */
export const MAX_PICS_PER_PROFILE = 30;

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
  return { id: p.id, nsfw: p.nsfw, width: p.width, height: p.height, v: p.gen };
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
  return (await kv().get(keys.picGrant(pic.id, viewerProfileId))).versionstamp !== null;
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

/**
 * One served kind of the current generation: the stored variant, or (before the job has run)
 * the master scaled now. Null when the bytes are gone (the picture was just deleted or cropped).
 */
export async function loadVariant(pic: ProfilePic, kind: VariantKind): Promise<ServedPicture | null> {
  const size = storedSize(pic, kind.size);
  const k = { size, blur: kind.blur };
  const stored = await getBlob(variantBlobId(pic.id, pic.gen, k));
  if (stored) return { bytes: stored.bytes, type: stored.type, etag: variantEtag(pic, k), stored: true };
  const master = await getBlob(masterBlobId(pic));
  if (!master) return null;
  const out = await renderVariant(master.bytes, size, { blur: kind.blur });
  return { bytes: out.bytes, type: out.type, etag: variantEtag(pic, k), stored: false };
}

/** The master of the current generation (`?orig=1`): normalized, never the uploaded bytes. */
export async function loadMaster(pic: ProfilePic): Promise<ServedPicture | null> {
  const b = await getBlob(masterBlobId(pic));
  return b && { bytes: b.bytes, type: b.type, etag: variantEtag(pic, "master"), stored: true };
}

/** The whole normalized upload, for the owner's crop editor. */
export async function loadSource(pic: ProfilePic): Promise<ServedPicture | null> {
  const b = await getBlob(sourceBlobId(pic.id));
  return b && { bytes: b.bytes, type: b.type, etag: `"${pic.id}.source"`, stored: true };
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
 * Adds a normalized picture to a profile: its source blob, then (one atomic) its record, its
 * place at the end of the public list, and the variants job. With `replaceId`, the new picture
 * takes the old one's place in its list (public or private) and the old one is deleted.
 */
export async function addPicture(
  profileId: string,
  normalized: Picture,
  opts: { replaceId?: string } = {},
): Promise<PicResult> {
  const id = newId();
  await putBlob(sourceBlobId(id), normalized.bytes, { type: normalized.type });
  const t = now();
  const pic: ProfilePic = {
    id,
    profileId,
    nsfw: false,
    gen: newId(),
    width: normalized.width,
    height: normalized.height,
    sourceWidth: normalized.width,
    sourceHeight: normalized.height,
    crop: null,
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
    enqueueVariants(op, pic);
    if ((await op.commit()).ok) return { ok: true, pic, profile };
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
    if ((await op.commit()).ok) return { ok: true, pic: next, profile: profEntry.value };
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
 * Crops (and turns) the whole normalized upload into the master of a new generation: the old
 * generation's blobs are removed by a job, the new sizes rendered by another. Throws
 * `PictureRejected` (422) for a box outside the picture.
 */
export async function cropOwnPicture(profileId: string, picId: string, box: CropBox): Promise<PicResult> {
  const pic = await getPic(picId);
  if (!pic) return { ok: false, reason: "not_found" };
  if (pic.profileId !== profileId) return { ok: false, reason: "not_yours" };
  const source = await getBlob(sourceBlobId(picId));
  if (!source) return { ok: false, reason: "not_found" };
  const cropped = await cropPicture(source.bytes, box);
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

// --- job work (workers/pictures.ts calls these; both are safe to run twice)

/**
 * Renders and stores every served size of generation `gen` that is not stored yet (blurred ones
 * too when the picture is NSFW). Does nothing when the picture is gone or has moved on to
 * another generation, and removes what it wrote if that happened while it worked.
 */
export async function renderGeneration(picId: string, gen: string): Promise<number> {
  const pic = await getPic(picId);
  if (!pic || pic.gen !== gen) return 0;
  const master = await getBlob(masterBlobId(pic));
  if (!master) return 0;
  const kinds: VariantKind[] = storedSizes(pic).flatMap((size) =>
    pic.nsfw ? [{ size, blur: false }, { size, blur: true }] : [{ size, blur: false }]
  );
  let rendered = 0;
  for (const kind of kinds) {
    const id = variantBlobId(picId, gen, kind);
    if (await getBlobMeta(id)) continue;
    const out = await renderVariant(master.bytes, kind.size, { blur: kind.blur });
    try {
      await putBlob(id, out.bytes, { type: out.type, width: out.width, height: out.height });
      rendered++;
    } catch (e) {
      // Another run of a job for this generation stored the same size meanwhile: it is done.
      if (!(e instanceof BlobConflictError)) throw e;
    }
  }
  const after = await getPic(picId);
  if (!after || after.gen !== gen) await removeGeneration(picId, gen, !after);
  return rendered;
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
