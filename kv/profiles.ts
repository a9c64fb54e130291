/** Profiles: the public face of a member. One account owns one default profile. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";

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
}

/** A new, empty profile record for an account (written by the caller's atomic). */
export function newProfile(id: string, accountId: string, profilename: string, roles: string[]): Profile {
  return {
    id,
    accountId,
    profilename,
    birthdate: "",
    height: "",
    weight: "",
    description: "",
    characteristics: [],
    profilePicIds: [],
    profilePicIdsPrivate: [],
    roles,
    tsUpdated: now(),
  };
}

/** A profile by id, or null. */
export async function getProfile(id: string): Promise<Profile | null> {
  return (await kv().get<Profile>(keys.profile(id))).value;
}
