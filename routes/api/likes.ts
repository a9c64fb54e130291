/**
 * Profile likes and picture likes (spec §7). A member writes likes only as themselves and reads
 * only lists about themselves; a member who blocked the caller does not exist for the caller.
 * Blocking is the `blocked` flag of `PUT /api/profile-like`.
 */

import { hitNewMember, hitStandard, STANDARD_LIMIT_MESSAGE } from "../../kv/ratelimit.ts";
import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { badRequest, dailyLimit, notFound, tooMany } from "../errors.ts";
import { idSchema, jsonBody, parseWith, queryOf } from "../validate.ts";
import { requireCaller, requireOwnProfile } from "../middleware.ts";
import { type Profile, viewedProfile } from "../../kv/profiles.ts";
import { hasBlocked, isWithdrawn } from "../../kv/blocks.ts";
import {
  blockList,
  getPicLikes,
  getProfileLike,
  LIKE_TYPES,
  LIKES_PAGE,
  listLikesGiven,
  listLikesReceived,
  listPicLikesGiven,
  listPicLikesReceived,
  PIC_LIKES_PAGE,
  picVisibleTo,
  putPicLike,
  putProfileLike,
  unblock,
  visiblePicIds,
} from "../../kv/likes.ts";

/** The one id schema (routes/validate.ts), here too for the modules that import it from here. */
export { idSchema };
const likeType = z.enum(LIKE_TYPES);
const cursor = z.string().max(500).optional();

/**
 * The profile `targetId` as `viewerId` may address it: 404 when it does not exist or its member
 * blocked the viewer (the same answer, so a block is never revealed); 400 for oneself.
 */
export async function reachableProfile(viewerId: string, targetId: string): Promise<Profile> {
  if (viewerId === targetId) throw badRequest("That is your own profile.", "own_profile");
  const target = await viewedProfile(targetId);
  if (!target || await hasBlocked(targetId, viewerId) || await isWithdrawn(targetId)) {
    throw notFound("No such profile.");
  }
  return target;
}

export const profileLikeBody = z.object({
  likerProfileId: idSchema,
  likedProfileId: idSchema,
  likeType,
  blocked: z.boolean().optional(),
  /** Accepted for the spec's body shape; the server's clock sets the time. */
  tsCreated: z.number().nullish(),
});

export const picLikeBody = z.object({
  likerProfileId: idSchema,
  profilePicId: idSchema,
  profilePicProfileId: idSchema,
  likeType,
  tsCreated: z.number().nullish(),
});

export const likesGivenQuery = z.object({ cursor, likeType: likeType.default("LIKE") });

export const profileLikeQuery = z.object({ likerProfileId: idSchema, likedProfileId: idSchema });

export const cursorQuery = z.object({ cursor });

export const likes = new Hono<AppEnv>()
  // The members I blocked (Account settings), and lifting a block.
  .get("/blocks", async (c) => {
    const caller = requireCaller(c);
    return c.json(await blockList(caller.profileId));
  })
  .delete("/blocks/:profileId", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    if (!(await unblock(caller.profileId, id))) throw notFound("You have not blocked this member.");
    return c.json({ ok: true });
  })
  .get("/profile-likes/by-liker/:profileId", async (c) => {
    requireCaller(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    await requireOwnProfile(c, id);
    const q = queryOf(c, likesGivenQuery);
    return c.json(await listLikesGiven(id, q.likeType, { cursor: q.cursor, limit: LIKES_PAGE }));
  })
  // Who liked me. Only LIKEs: a member never learns who disliked them.
  .get("/profile-likes/by-liked/:profileId", async (c) => {
    requireCaller(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    await requireOwnProfile(c, id);
    const q = queryOf(c, cursorQuery);
    return c.json(await listLikesReceived(id, "LIKE", { cursor: q.cursor, limit: LIKES_PAGE }));
  })
  .get("/profile-like", async (c) => {
    requireCaller(c);
    const q = queryOf(c, profileLikeQuery);
    await requireOwnProfile(c, q.likerProfileId);
    await reachableProfile(q.likerProfileId, q.likedProfileId);
    return c.json(await getProfileLike(q.likerProfileId, q.likedProfileId));
  })
  .put("/profile-like", async (c) => {
    const caller = requireCaller(c);
    const body = await jsonBody(c, profileLikeBody);
    await requireOwnProfile(c, body.likerProfileId);
    await reachableProfile(body.likerProfileId, body.likedProfileId);
    // A like sent again (a device's outbox retrying after a lost answer) lands the same and is not counted again.
    const counted = body.likeType === "LIKE" &&
      (await getProfileLike(body.likerProfileId, body.likedProfileId)).likeType !== "LIKE";
    if (counted && !(await hitStandard("likesPerDay", caller))) throw dailyLimit(STANDARD_LIMIT_MESSAGE);
    if (counted && !(await hitNewMember("newMemberLikes", caller))) throw tooMany();
    const { like } = await putProfileLike(body.likerProfileId, body.likedProfileId, body.likeType, body.blocked);
    return c.json(like);
  })
  .put("/profile-pic-like", async (c) => {
    const caller = requireCaller(c);
    const body = await jsonBody(c, picLikeBody);
    await requireOwnProfile(c, body.likerProfileId);
    const owner = await reachableProfile(body.likerProfileId, body.profilePicProfileId);
    const counted = body.likeType === "LIKE" &&
      (await getPicLikes(body.likerProfileId, [body.profilePicId]))[0]?.likeType !== "LIKE";
    if (counted && !(await hitStandard("likesPerDay", caller))) throw dailyLimit(STANDARD_LIMIT_MESSAGE);
    if (counted && !(await hitNewMember("newMemberLikes", caller))) throw tooMany();
    if (!(await picVisibleTo(body.likerProfileId, owner, body.profilePicId))) throw notFound("No such picture.");
    const { like } = await putPicLike(body.likerProfileId, owner.id, body.profilePicId, body.likeType);
    return c.json(like);
  })
  // The caller's picture likes; with ?profilePicProfileId= all of them on that member's pictures.
  .get("/profile-pic-likes/by-liker-profileid/:profileId", async (c) => {
    requireCaller(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    await requireOwnProfile(c, id);
    const q = queryOf(
      c,
      z.object({ cursor, likeType: likeType.default("LIKE"), profilePicProfileId: idSchema.optional() }),
    );
    if (q.profilePicProfileId) {
      const owner = await reachableProfile(id, q.profilePicProfileId);
      return c.json({ items: await getPicLikes(id, await visiblePicIds(id, owner)), cursor: null });
    }
    return c.json(await listPicLikesGiven(id, q.likeType, { cursor: q.cursor, limit: PIC_LIKES_PAGE }));
  })
  // Likes on the caller's pictures: only LIKEs, as for profiles.
  .get("/profile-pic-likes/by-liked-profileid/:profileId", async (c) => {
    requireCaller(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    await requireOwnProfile(c, id);
    const q = queryOf(c, cursorQuery);
    return c.json(await listPicLikesReceived(id, "LIKE", { cursor: q.cursor, limit: PIC_LIKES_PAGE }));
  });
