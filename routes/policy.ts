/**
 * Who may address whom, as the API and the pages answer it: shared by every sub-app that acts on
 * another member's profile (likes, notes, reports, games).
 */

import { badRequest, notFound } from "./errors.ts";
import { viewedProfile } from "../kv/profiles.ts";
import type { Profile } from "../domain/shapes/profiles.ts";
import { hasBlocked, isWithdrawn } from "../kv/blocks.ts";
import { phrase } from "../domain/phrases.ts";

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
