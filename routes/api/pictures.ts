/**
 * Profile pictures: upload (POST /api/profile-pic, `?replace_id=`), delete, the served sizes
 * (`/api/profile-pic/{id}?scale_x=`, `?orig=1`, the NSFW route), the metadata
 * (`/api/profile/pic/{id}`), and the editor's calls: the NSFW flag, the crop, the whole source.
 * Reordering and moving between public and private go through PUT /api/profile.
 */

import { type Context, Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError, badRequest, conflict, forbidden, notFound, tooMany } from "../errors.ts";
import { bodyOf, parseWith, queryOf } from "../validate.ts";
import { uploadFields } from "../../domain/requests.ts";
import { clientAddress, requireCaller } from "../middleware.ts";
import { MULTIPART_ALLOWANCE, readMultipart } from "../multipart.ts";
import { isId } from "../../kv/ids.ts";
import { hit, hitNewMember } from "../../kv/ratelimit.ts";
import { getProfile, profileVisibleTo } from "../../kv/profiles.ts";
import {
  addPicture,
  canViewPicture,
  deletePicture,
  getPic,
  isPrivatePic,
  loadSource,
  MAX_PICS_PER_PROFILE,
  picInfo,
  type PicRefusal,
  pictureProgress,
  type ProfilePic,
  revokePictureGrants,
  type ServedPicture,
  setPictureNsfw,
} from "../../kv/pictures.ts";
import { cropOwnPicture, loadMaster, loadVariant } from "../../workers/pictures.ts";
import { MAX_UPLOAD_BYTES, type PicSize, PictureRejected, prepareUpload } from "../../images/pipeline.ts";
import type { Profile } from "../../domain/shapes/profiles.ts";
import { answer } from "../answer.ts";

/** The body limit of an upload (main.ts): the file limit plus the multipart allowance, as `readMultipart` counts. */
export const UPLOAD_BODY_LIMIT = MAX_UPLOAD_BYTES + MULTIPART_ALLOWANCE;

/** How long a browser keeps a picture whose URL names its generation (`v`): it never changes. */
const VERSIONED_MAX_AGE = 365 * 24 * 3600;

const REFUSALS: Record<PicRefusal, () => ApiError> = {
  no_profile: () => notFound("No such profile."),
  not_found: () => notFound("No such picture."),
  not_yours: () => forbidden("That picture is not yours."),
  full: () =>
    conflict(`A profile holds at most ${MAX_PICS_PER_PROFILE} pictures; remove one first.`, "too_many_pictures"),
  conflict: () => conflict("The picture changed meanwhile; please try again."),
};

/** A refusal of the image pipeline as an API error: 413, 415 or 422 with its reasons. */
function rejected(e: PictureRejected): ApiError {
  const code = e.status === 413 ? "too_large" : e.status === 415 ? "unsupported_type" : "unreadable_picture";
  return new ApiError(e.status, code, e.reasons.join(" "));
}

function picId(c: Context): string {
  const id = c.req.param("id") ?? "";
  if (!isId(id)) throw badRequest("Not a picture id.");
  return id;
}

/**
 * The picture and its owner if the caller may see it; 404 otherwise (a private picture or a
 * blocked member looks the same as none).
 */
async function visiblePic(c: Context<AppEnv>): Promise<{ pic: ProfilePic; owner: Profile }> {
  const caller = requireCaller(c);
  const pic = await getPic(picId(c));
  const owner = pic && await getProfile(pic.profileId);
  if (
    !pic || !owner || !(await profileVisibleTo(owner.id, caller.profileId)) ||
    !(await canViewPicture(pic, owner, caller.profileId))
  ) {
    throw notFound("No such picture.");
  }
  return { pic, owner };
}

/**
 * The caller's own picture. Another's is a 403 only for a caller who may see it; for one who may
 * not (a private picture, or its owner blocked them) it is a 404, the same as none.
 */
async function ownPic(c: Context<AppEnv>): Promise<ProfilePic> {
  const caller = requireCaller(c);
  const pic = await getPic(picId(c));
  if (!pic) throw notFound("No such picture.");
  if (pic.profileId !== caller.profileId) {
    const owner = await getProfile(pic.profileId);
    const visible = owner !== null && await profileVisibleTo(owner.id, caller.profileId) &&
      await canViewPicture(pic, owner, caller.profileId);
    throw visible ? forbidden("That picture is not yours.") : notFound("No such picture.");
  }
  return pic;
}

/** Answers picture bytes with a strong ETag; 304 when the browser has them. */
function sendPicture(c: Context, served: ServedPicture | null, pic: ProfilePic, versioned: boolean): Response {
  if (!served) throw notFound("No such picture.");
  const headers = {
    etag: served.etag,
    // Private: pictures are for members only, and a shared cache must not keep them.
    "cache-control": versioned ? `private, max-age=${VERSIONED_MAX_AGE}, immutable` : "private, no-cache",
    "last-modified": new Date(pic.tsUpdated).toUTCString(),
  };
  const inm = c.req.header("if-none-match");
  if (inm && inm.split(",").some((t) => t.trim().replace(/^W\//, "") === served.etag)) {
    return c.body(null, 304, headers);
  }
  return c.body(served.bytes as Uint8Array<ArrayBuffer>, 200, { ...headers, "content-type": served.type });
}

/** GET of a served size: the NSFW route shows a flagged picture as it is, the plain one blurred. */
async function servePicture(c: Context<AppEnv>, nsfwRoute: boolean): Promise<Response> {
  requireCaller(c);
  const q = nsfwRoute ? queryOf(c, "GET /api/profile-pic/nsfw/:id") : queryOf(c, "GET /api/profile-pic/:id");
  const { pic } = await visiblePic(c);
  const blur = pic.nsfw && !nsfwRoute;
  const versioned = q.v === pic.gen;
  if (q.orig === "1" && !blur) return sendPicture(c, await loadMaster(pic), pic, versioned);
  // The plain URL never gives the real picture of an NSFW one, not even at `orig=1`.
  const size = (q.orig === "1" ? 2048 : q.scale_x ?? 1024) as PicSize;
  return sendPicture(c, await loadVariant(pic, { size, blur }), pic, versioned);
}

export const pictures = new Hono<AppEnv>()
  .post("/profile-pic", async (c) => {
    const caller = requireCaller(c);
    const { replace_id: replaceId } = queryOf(c, "POST /api/profile-pic");
    if (
      !(await hit("uploadByAccount", caller.accountId)) || !(await hit("uploadByAddress", clientAddress(c))) ||
      !(await hitNewMember("newMemberUploads", caller))
    ) {
      throw tooMany();
    }
    const form = await readMultipart(c.req.raw, { maxFileBytes: MAX_UPLOAD_BYTES, maxFieldBytes: 1024, maxParts: 8 });
    const fields = parseWith(uploadFields, Object.fromEntries(form.fields));
    if (fields.authorProfileId !== caller.profileId) throw forbidden("You can only add pictures to your own profile.");
    const file = form.files.get("picfile");
    if (!file) throw badRequest("picfile is required: choose a picture to upload.");
    // Checked, turned upright, capped and stripped here (so refusals come at once); the master and
    // the served sizes are made by the picture-master job.
    let prepared;
    try {
      prepared = await prepareUpload(file.bytes);
    } catch (e) {
      if (e instanceof PictureRejected) throw rejected(e);
      throw e;
    }
    const res = await addPicture(caller.profileId, prepared, { replaceId });
    if (!res.ok) throw REFUSALS[res.reason]();
    return answer(c, "POST /api/profile-pic", { ...picInfo(res.pic), profileId: res.pic.profileId, private: false });
  })
  .delete("/profile-pic/:id", async (c) => {
    const caller = requireCaller(c);
    await ownPic(c);
    const res = await deletePicture(caller.profileId, picId(c));
    if (!res.ok) throw REFUSALS[res.reason]();
    return answer(c, "DELETE /api/profile-pic/:id", { ok: true });
  })
  // "Lock my private pictures" for one member: every picture sent to them in chat that is not public stops showing.
  .delete("/profile-pic-grants/:profileId", async (c) => {
    const caller = requireCaller(c);
    const viewer = c.req.param("profileId");
    if (!isId(viewer)) throw badRequest("Not a profile id.");
    const me = await getProfile(caller.profileId);
    if (!me) throw notFound("No such profile.");
    return answer(c, "DELETE /api/profile-pic-grants/:profileId", { ended: await revokePictureGrants(me, viewer) });
  })
  .get("/profile-pic/nsfw/:id", (c) => servePicture(c, true))
  .get("/profile-pic/:id", (c) => servePicture(c, false))
  .get("/profile-pic/:id/source", async (c) => {
    const pic = await ownPic(c);
    return sendPicture(c, await loadSource(pic), pic, false);
  })
  .put("/profile-pic/:id", async (c) => {
    const caller = requireCaller(c);
    const id = (await ownPic(c)).id;
    const body = await bodyOf(c, "PUT /api/profile-pic/:id");
    const res = await setPictureNsfw(caller.profileId, id, body.nsfw);
    if (!res.ok) throw REFUSALS[res.reason]();
    return answer(c, "PUT /api/profile-pic/:id", picInfo(res.pic));
  })
  .put("/profile-pic/:id/crop", async (c) => {
    const caller = requireCaller(c);
    const id = (await ownPic(c)).id;
    const box = await bodyOf(c, "PUT /api/profile-pic/:id/crop");
    try {
      const res = await cropOwnPicture(caller.profileId, id, box);
      if (!res.ok) throw REFUSALS[res.reason]();
      return answer(c, "PUT /api/profile-pic/:id/crop", picInfo(res.pic));
    } catch (e) {
      if (e instanceof PictureRejected) throw rejected(e);
      throw e;
    }
  })
  .get("/profile/pic/:id", async (c) => {
    const caller = requireCaller(c);
    const { pic, owner } = await visiblePic(c);
    const own = owner.id === caller.profileId;
    const { ready, done, total } = await pictureProgress(pic);
    return answer(c, "GET /api/profile/pic/:id", {
      ...picInfo(pic),
      profileId: pic.profileId,
      private: isPrivatePic(pic, owner),
      ready,
      progress: { done, total },
      tsCreated: pic.tsCreated,
      tsUpdated: pic.tsUpdated,
      ...(own ? { sourceWidth: pic.sourceWidth, sourceHeight: pic.sourceHeight, crop: pic.crop } : {}),
    });
  });
