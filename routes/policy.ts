/**
 * Who may address whom, as the API and the pages answer it: shared by every sub-app that acts on
 * another member's profile (likes, notes, reports, games).
 */

import type { Context } from "hono";
import type { AppEnv, Caller } from "./env.ts";
import { ApiError, badRequest, dailyLimit, notFound, tooMany } from "./errors.ts";
import { requireOwnProfile } from "./middleware.ts";
import { hitNewMember, hitStandard, STANDARD_LIMIT_MESSAGE } from "../kv/ratelimit.ts";
import { viewedProfile } from "../kv/profiles.ts";
import type { Profile } from "../domain/shapes/profiles.ts";
import { hasBlocked, isWithdrawn } from "../kv/blocks.ts";
import { phrase } from "../domain/phrases.ts";
import { restrictionOf } from "../kv/games/dungeon.ts";
import { type RestrictedAction, restrictionMessage } from "../domain/dungeon.ts";

/**
 * A member in a time-out (Bad Boy Dungeon) may not send first messages, like or post in Map Chat:
 * 403 `dungeon_restricted`, with a message that names the end of the stay.
 */
export async function refuseIfRestricted(profileId: string, action: RestrictedAction): Promise<void> {
  const r = await restrictionOf(profileId);
  if (r) throw new ApiError(403, "dungeon_restricted", restrictionMessage(action, r.until));
}

/**
 * The profile `targetId` as `viewerId` may address it: 404 when it does not exist or its member
 * blocked the viewer (the same answer, so a block is never revealed); 400 for oneself.
 */
export async function reachableProfile(viewerId: string, targetId: string): Promise<Profile> {
  if (viewerId === targetId) throw badRequest(phrase("That is your own profile."), "own_profile");
  const target = await viewedProfile(targetId);
  if (!target || await hasBlocked(targetId, viewerId) || await isWithdrawn(targetId)) {
    throw notFound(phrase("No such profile."));
  }
  return target;
}

/**
 * The caller acting as their profile `me` towards the profile `targetId`: 403 when `me` is not one
 * of the caller's own, else the target as `reachableProfile` gives it.
 */
export async function ownTowards(c: Context<AppEnv>, me: string, targetId: string): Promise<Profile> {
  await requireOwnProfile(c, me);
  return await reachableProfile(me, targetId);
}

/** A LIKE counts against the daily likes and a new member's likes (429 past either); other kinds are free. */
export async function countLike(caller: Caller, likeType: string): Promise<void> {
  if (likeType !== "LIKE") return;
  await refuseIfRestricted(caller.profileId, "like");
  if (!(await hitStandard("likesPerDay", caller))) throw dailyLimit(phrase(STANDARD_LIMIT_MESSAGE));
  if (!(await hitNewMember("newMemberLikes", caller))) throw tooMany();
}
