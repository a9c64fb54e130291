/**
 * Profile likes and picture likes (spec §7). A member writes likes only as themselves and reads
 * only lists about themselves; a member who blocked the caller does not exist for the caller.
 * Blocking is the `blocked` flag of `PUT /api/profile-like`.
 */

import { type Context, Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { notFound } from "../errors.ts";
import { bodyOf, idSchema, parseWith, queryOf } from "../validate.ts";
import { requireCaller, requireOwnProfile } from "../middleware.ts";
import { countLike, likeAllowed, ownTowards, reachableProfile, readLikeHits } from "../policy.ts";
import type { ReadHit } from "../../kv/ratelimit.ts";
import {
  blockList,
  getPicLikes,
  getProfileLike,
  LIKES_PAGE,
  listLikesGiven,
  listLikesReceived,
  listPicLikesGiven,
  listPicLikesReceived,
  PIC_LIKES_PAGE,
  picVisibleTo,
  profileLikeReads,
  putPicLike,
  putProfileLike,
  unblock,
  visiblePicIds,
} from "../../kv/likes.ts";
import { answer } from "../answer.ts";
import { beginKeepBestRead, hotLiked } from "../../kv/games/hotOrNot.ts";
import { detached } from "../../kv/roundTrips.ts";
import { turnWhenBusy } from "../../kv/groupCommit.ts";

/** The path's `:profileId`, which must be one of the caller's own profiles (401, 400, 403). */
async function ownProfileParam(c: Context<AppEnv>): Promise<string> {
  requireCaller(c);
  const id = parseWith(idSchema, c.req.param("profileId"));
  await requireOwnProfile(c, id);
  return id;
}

export const likes = new Hono<AppEnv>()
  // The members I blocked (Account settings), and lifting a block.
  .get("/blocks", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/blocks", await blockList(caller.profileId));
  })
  .delete("/blocks/:profileId", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    if (!(await unblock(caller.profileId, id))) throw notFound("You have not blocked this member.");
    return answer(c, "DELETE /api/blocks/:profileId", { ok: true });
  })
  .get("/profile-likes/by-liker/:profileId", async (c) => {
    const id = await ownProfileParam(c);
    const q = queryOf(c, "GET /api/profile-likes/by-liker/:profileId");
    return answer(
      c,
      "GET /api/profile-likes/by-liker/:profileId",
      await listLikesGiven(id, q.likeType, { cursor: q.cursor, limit: LIKES_PAGE }),
    );
  })
  // Who liked me. Only LIKEs: a member never learns who disliked them.
  .get("/profile-likes/by-liked/:profileId", async (c) => {
    const id = await ownProfileParam(c);
    const q = queryOf(c, "GET /api/profile-likes/by-liked/:profileId");
    return answer(
      c,
      "GET /api/profile-likes/by-liked/:profileId",
      await listLikesReceived(id, "LIKE", { cursor: q.cursor, limit: LIKES_PAGE }),
    );
  })
  .get("/profile-like", async (c) => {
    requireCaller(c);
    const q = queryOf(c, "GET /api/profile-like");
    await ownTowards(c, q.likerProfileId, q.likedProfileId);
    return answer(c, "GET /api/profile-like", await getProfileLike(q.likerProfileId, q.likedProfileId));
  })
  .put("/profile-like", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "PUT /api/profile-like");
    // While writes are being committed (a busy server), a like's reads wait one turn of the event
    // loop: those of the likes whose bodies came meanwhile then go in the same store call.
    const busy = turnWhenBusy();
    if (busy) await busy;
    // The like's limits are read beside the checks of who may like whom; counted in its own commit.
    let hitsRead: Promise<ReadHit[]> | null = readLikeHits(caller, body.likeType);
    hitsRead.catch(() => {}); // a like refused before it leaves them unread
    // So is the stored like: the checks below still decide before anything read is used.
    const begun = profileLikeReads(body.likerProfileId, body.likedProfileId, body.likeType, body.blocked);
    // And what a new like's count for 'Keep my best picture first' reads, in the same store call.
    if (body.likeType === "LIKE") beginKeepBestRead(body.likedProfileId);
    await ownTowards(c, body.likerProfileId, body.likedProfileId);
    // A like sent again (a device's outbox retrying after a lost answer) lands the same and is not counted again.
    let newLike = false;
    const { like } = await putProfileLike(
      body.likerProfileId,
      body.likedProfileId,
      body.likeType,
      body.blocked,
      async (stored) => {
        newLike = stored !== "LIKE" && body.likeType === "LIKE";
        if (stored === "LIKE") return [];
        // The first try uses the counts read above; a retry (a count moved meanwhile) reads them again.
        const hits = await (hitsRead ?? readLikeHits(caller, body.likeType));
        hitsRead = null;
        return likeAllowed(hits);
      },
      begun,
    );
    // A new like counts for the liked member's first picture in 'Keep my best picture first': a
    // best-effort count the answer does not wait for (the like itself is already stored).
    if (newLike) {
      void detached(() => hotLiked(body.likedProfileId, null)).catch((e) =>
        console.error("keep best first:", e instanceof Error ? e.message : e)
      );
    }
    return answer(c, "PUT /api/profile-like", like);
  })
  .put("/profile-pic-like", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "PUT /api/profile-pic-like");
    const owner = await ownTowards(c, body.likerProfileId, body.profilePicProfileId);
    const stored = (await getPicLikes(body.likerProfileId, [body.profilePicId]))[0];
    if (stored?.likeType !== "LIKE") await countLike(caller, body.likeType);
    if (!(await picVisibleTo(body.likerProfileId, owner, body.profilePicId))) throw notFound("No such picture.");
    const { like, changed } = await putPicLike(body.likerProfileId, owner.id, body.profilePicId, body.likeType);
    if (changed && body.likeType === "LIKE") await hotLiked(owner.id, body.profilePicId);
    return answer(c, "PUT /api/profile-pic-like", like);
  })
  // The caller's picture likes; with ?profilePicProfileId= all of them on that member's pictures.
  .get("/profile-pic-likes/by-liker-profileid/:profileId", async (c) => {
    const id = await ownProfileParam(c);
    const q = queryOf(c, "GET /api/profile-pic-likes/by-liker-profileid/:profileId");
    if (q.profilePicProfileId) {
      const owner = await reachableProfile(id, q.profilePicProfileId);
      return answer(c, "GET /api/profile-pic-likes/by-liker-profileid/:profileId", {
        items: await getPicLikes(id, await visiblePicIds(id, owner)),
        cursor: null,
      });
    }
    return answer(
      c,
      "GET /api/profile-pic-likes/by-liker-profileid/:profileId",
      await listPicLikesGiven(id, q.likeType, { cursor: q.cursor, limit: PIC_LIKES_PAGE }),
    );
  })
  // Likes on the caller's pictures: only LIKEs, as for profiles.
  .get("/profile-pic-likes/by-liked-profileid/:profileId", async (c) => {
    const id = await ownProfileParam(c);
    const q = queryOf(c, "GET /api/profile-pic-likes/by-liked-profileid/:profileId");
    return answer(
      c,
      "GET /api/profile-pic-likes/by-liked-profileid/:profileId",
      await listPicLikesReceived(id, "LIKE", { cursor: q.cursor, limit: PIC_LIKES_PAGE }),
    );
  });
