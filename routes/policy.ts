/**
 * Who may address whom, as the API and the pages answer it: shared by every sub-app that acts on
 * another member's profile (likes, notes, reports, games).
 */

import type { Context } from "hono";
import type { AppEnv, Caller } from "./env.ts";
import { ApiError, badRequest, dailyLimit, notFound, tooMany } from "./errors.ts";
import { requireOwnProfile } from "./middleware.ts";
import {
  hitNewMember,
  hitStandard,
  type LimitName,
  newMemberApplies,
  type ReadHit,
  readHits,
  STANDARD_LIMIT_MESSAGE,
  standardApplies,
  withinLimit,
} from "../kv/ratelimit.ts";
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
  refuseRestricted(await restrictionOf(profileId), action);
}

/** The same refusal for a time-out read beside a request's other reads (`restrictionOf`). */
export function refuseRestricted(r: { until: number } | null, action: RestrictedAction): void {
  if (r) throw new ApiError(403, "dungeon_restricted", restrictionMessage(action, r.until));
}

/**
 * The profile `targetId` as `viewerId` may address it: 404 when it does not exist or its member
 * blocked the viewer (the same answer, so a block is never revealed); 400 for oneself.
 */
export async function reachableProfile(viewerId: string, targetId: string): Promise<Profile> {
  if (viewerId === targetId) throw badRequest(phrase("That is your own profile."), "own_profile");
  // The three reads at once: one wait for the store, not three.
  const [target, blocked, withdrawn] = await Promise.all([
    viewedProfile(targetId),
    hasBlocked(targetId, viewerId),
    isWithdrawn(targetId),
  ]);
  if (!target || blocked || withdrawn) {
    throw notFound(phrase("No such profile."));
  }
  return target;
}

/**
 * The caller acting as their profile `me` towards the profile `targetId`: 403 when `me` is not one
 * of the caller's own, else the target as `reachableProfile` gives it.
 */
export async function ownTowards(c: Context<AppEnv>, me: string, targetId: string): Promise<Profile> {
  // Both read at once; a profile not the caller's is refused first, whatever the target.
  const [own, target] = await Promise.allSettled([requireOwnProfile(c, me), reachableProfile(me, targetId)]);
  if (own.status === "rejected") throw own.reason;
  if (target.status === "rejected") throw target.reason;
  return target.value;
}

/**
 * The limits a LIKE of `caller` counts (none for other kinds), read at once: a like reads them
 * beside its other reads and counts them in its own commit (`likeAllowed`, kv/likes.ts); a member in
 * a time-out is refused (403) when they are awaited.
 */
export async function readLikeHits(caller: Caller, likeType: string): Promise<ReadHit[]> {
  if (likeType !== "LIKE") return [];
  const limits: { name: LimitName; who: string }[] = [];
  if (standardApplies(caller)) limits.push({ name: "likesPerDay", who: caller.accountId });
  if (newMemberApplies(caller)) limits.push({ name: "newMemberLikes", who: caller.accountId });
  // A member in a time-out may not like: read beside the counts, refused before them.
  const [hits, restriction] = await Promise.all([readHits(limits), restrictionOf(caller.profileId)]);
  refuseRestricted(restriction, "like");
  return hits;
}

/** The read counts of a LIKE when one more is within its limits; else the answer (429) past the first it is over. */
export function likeAllowed(hits: ReadHit[]): ReadHit[] {
  if (!withinLimit(hits.filter((h) => h.name === "likesPerDay"))) throw dailyLimit(phrase(STANDARD_LIMIT_MESSAGE));
  if (!withinLimit(hits.filter((h) => h.name === "newMemberLikes"))) throw tooMany();
  return hits;
}

/** A LIKE counts against the daily likes and a new member's likes (429 past either); other kinds are free. */
export async function countLike(caller: Caller, likeType: string): Promise<void> {
  if (likeType !== "LIKE") return;
  await refuseIfRestricted(caller.profileId, "like");
  if (!(await hitStandard("likesPerDay", caller))) throw dailyLimit(phrase(STANDARD_LIMIT_MESSAGE));
  if (!(await hitNewMember("newMemberLikes", caller))) throw tooMany();
}
