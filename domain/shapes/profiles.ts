/** Profiles as stored, as changed (`PUT /api/profile`) and as a viewer sees them. */

import type { PicInfo } from "./pictures.ts";

/** A member's profile (spec §3). */
export interface Profile {
  id: string;
  /** The account that owns this profile; never sent to other members. */
  accountId: string;
  profilename: string;
  birthdate: string;
  height: string;
  weight: string;
  description: string;
  characteristics: string[];
  profilePicIds: string[];
  profilePicIdsPrivate: string[];
  roles: string[];
  tsUpdated: number;
  /** When the profile was made (absent on profiles older than this field). */
  tsCreated?: number;
  /** 3 2 1 Identify: the public pictures the judges compared with a selfie they accepted. */
  verifiedPicIds?: string[];
  /** When that selfie was accepted. */
  tsVerified?: number;
}

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
export type ProfileView =
  & Pick<Profile, "id" | ProfileFacts | "tsUpdated">
  & {
    age: number | null;
    /** Facts of every picture listed, in list order. */
    pictures: PicInfo[];
    /** True when the viewer owns the profile. */
    own: boolean;
    /** Shows the Verified badge (3 2 1 Identify). */
    verified: boolean;
    /** Owner only. */
    birthdate?: string;
    roles?: string[];
  };
