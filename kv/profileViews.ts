/**
 * A profile as a viewer sees it: the profile record with its pictures' facts, the age instead of
 * the birthdate, and the private lists only for its owner. Reads profiles and pictures, so it
 * stands above both.
 */

import { isVerified, profileVisibleTo, viewedProfile } from "./profiles.ts";
import { now } from "./clock.ts";
import { ageOf } from "../domain/age.ts";
import { getPics, picInfo } from "./pictures.ts";
import { protectedFrom } from "./safety.ts";
import type { Profile, ProfileView } from "../domain/shapes/profiles.ts";

/**
 * The profile `id` as `viewerProfileId` sees it, or null when there is none or it is hidden from
 * them: by a block, or for the owner's safety where being gay is a crime (kv/safety.ts). All look
 * the same to the viewer.
 */
export async function loadProfileView(id: string, viewerProfileId: string): Promise<ProfileView | null> {
  // The profile and both checks read together: one wait for the store, not three.
  const [profile, visible, isProtected] = await Promise.all([
    viewedProfile(id),
    profileVisibleTo(id, viewerProfileId),
    protectedFrom(id, viewerProfileId),
  ]);
  if (!profile || !visible || isProtected) return null;
  return await viewOfProfile(profile, viewerProfileId);
}

/** Builds the view of `profile` for `viewerProfileId`, reading its pictures' records. */
export async function viewOfProfile(profile: Profile, viewerProfileId: string): Promise<ProfileView> {
  const own = profile.id === viewerProfileId;
  const privateIds = own ? profile.profilePicIdsPrivate : [];
  const pics = await getPics([...profile.profilePicIds, ...privateIds]);
  return {
    id: profile.id,
    profilename: profile.profilename,
    verified: isVerified(profile),
    age: ageOf(profile.birthdate, now()),
    height: profile.height,
    weight: profile.weight,
    description: profile.description,
    characteristics: profile.characteristics,
    profilePicIds: profile.profilePicIds,
    profilePicIdsPrivate: privateIds,
    pictures: pics.map(picInfo),
    tsUpdated: profile.tsUpdated,
    own,
    ...(own ? { birthdate: profile.birthdate, roles: profile.roles } : {}),
  };
}
