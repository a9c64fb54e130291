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
import type { PicInfo } from "../domain/shapes/pictures.ts";

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

/**
 * The public pictures' facts of a profile record as the instance keeps it (kv/kept.ts), by that
 * record: a kept profile is one object until a change of it, or of one of its pictures (every
 * picture write forgets the profile: kv/pictures.ts), is forgotten, or it expires; another
 * member's view of it then reads no picture record. A profile read anew is a new object and reads
 * its pictures again.
 */
const publicPictures = new WeakMap<Profile, Promise<PicInfo[]>>();

/** The facts of `profile`'s public pictures, read once per kept profile record. */
function publicPicturesOf(profile: Profile): Promise<PicInfo[]> {
  let pics = publicPictures.get(profile);
  if (!pics) {
    pics = getPics(profile.profilePicIds).then((ps) => ps.map(picInfo));
    publicPictures.set(profile, pics);
    // A failed read is not kept: the next view reads again.
    pics.catch(() => publicPictures.delete(profile));
  }
  return pics;
}

/** Builds the view of `profile` for `viewerProfileId`, reading its pictures' records. */
export async function viewOfProfile(profile: Profile, viewerProfileId: string): Promise<ProfileView> {
  const own = profile.id === viewerProfileId;
  const privateIds = own ? profile.profilePicIdsPrivate : [];
  const pictures = own
    ? (await getPics([...profile.profilePicIds, ...privateIds])).map(picInfo)
    : await publicPicturesOf(profile);
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
    pictures,
    tsUpdated: profile.tsUpdated,
    own,
    ...(own ? { birthdate: profile.birthdate, roles: profile.roles } : {}),
  };
}
