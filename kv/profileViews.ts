/**
 * A profile as a viewer sees it: the profile record with its pictures' facts, the age instead of
 * the birthdate, and the private lists only for its owner. Reads profiles and pictures, so it
 * stands above both.
 */

import { isVerified, profileVisibleTo, viewedProfile } from "./profiles.ts";
import { now } from "./clock.ts";
import { ageOf } from "../domain/age.ts";
import { toldHour } from "../domain/presence.ts";
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

/**
 * Another member's view of a profile record as the instance keeps it (kv/kept.ts), by that record:
 * a kept profile is one object until a change of it, or of one of its pictures (every picture
 * write forgets the profile: kv/pictures.ts), is forgotten, or it expires. Until then every other
 * member's view of it is the same (but its age, worked out each time): made once, its pictures read
 * once, its JSON written once (`profileViewText`). A profile read anew is a new object and is made
 * again.
 */
const othersViews = new WeakMap<Profile, Promise<ProfileView>>();

/** The JSON of views made here, by view (made at the first answer that asks). */
const viewTexts = new WeakMap<ProfileView, string>();

/** A view's JSON, as `JSON.stringify` writes it: written once per view kept with its record. */
export function profileViewText(view: ProfileView): string {
  let text = viewTexts.get(view);
  if (text === undefined) viewTexts.set(view, text = JSON.stringify(view));
  return text;
}

/** Builds the view of `profile` for `viewerProfileId`, reading its pictures' records. */
export async function viewOfProfile(profile: Profile, viewerProfileId: string): Promise<ProfileView> {
  const own = profile.id === viewerProfileId;
  if (own) {
    return makeView(
      profile,
      true,
      (await getPics([...profile.profilePicIds, ...profile.profilePicIdsPrivate])).map(picInfo),
    );
  }
  let made = othersViews.get(profile);
  if (!made) {
    made = getPics(profile.profilePicIds).then((ps) => makeView(profile, false, ps.map(picInfo)));
    othersViews.set(profile, made);
    // A failed read is not kept: the next view reads again.
    made.catch(() => othersViews.delete(profile));
  }
  const view = await made;
  const age = ageOf(profile.birthdate, now());
  if (view.age === age) return view;
  // A birthday since it was made: the view of today, kept in its place.
  const today = { ...view, age };
  othersViews.set(profile, Promise.resolve(today));
  return today;
}

function makeView(profile: Profile, own: boolean, pictures: ProfileView["pictures"]): ProfileView {
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
    profilePicIdsPrivate: own ? profile.profilePicIdsPrivate : [],
    pictures,
    // Others are told the hour of the last edit (decision 0312), the owner the moment.
    tsUpdated: own ? profile.tsUpdated : toldHour(profile.tsUpdated),
    own,
    ...(own ? { birthdate: profile.birthdate, roles: profile.roles } : {}),
  };
}
