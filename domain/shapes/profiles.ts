/** Profiles as stored, as changed (`PUT /api/profile`) and as a viewer sees them. */

import type { ApiAnswer } from "../contract.ts";

/** A member's profile (spec §3). */
export type Profile = ApiAnswer<"GET /api/admin/members/:profileId">["profile"];

/** What a profile says of its member: shown on the profile, changed by its owner. */
type ProfileFacts =
  | "profilename"
  | "height"
  | "weight"
  | "description"
  | "characteristics"
  | "profilePicIds"
  | "profilePicIdsPrivate";

/** The fields a member may change on their own profile (PUT /api/profile). */
export type ProfileChange = Partial<Pick<Profile, ProfileFacts | "birthdate">>;

/**
 * A profile as the API and pages show it: never the account, and `profilePicIdsPrivate` empty
 * unless the viewer owns the profile.
 */
export type ProfileView = ApiAnswer<"GET /api/profile/:id">;
