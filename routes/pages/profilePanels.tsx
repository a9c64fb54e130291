/**
 * The likes, notes and actions panels of the profile view (issue 3 part B), plugged into
 * PROFILE_PANELS of routes/pages/profile.tsx. None shows on one's own profile.
 */

import type { ProfilePanel } from "./profile.tsx";
import { Island } from "../../components/Island.tsx";
import LikeButton, { type CarouselLikes } from "../../islands/LikeButton.tsx";
import NotesPanel from "../../islands/NotesPanel.tsx";
import ActionsPanel from "../../islands/ActionsPanel.tsx";
import { getPicLikes, getProfileLike } from "../../kv/likes.ts";
import { getNote } from "../../kv/notes.ts";

/** Like / Remove Like of the profile, and a way to rate its pictures one by one. */
export const likesPanel: ProfilePanel = async ({ caller, profile }) => {
  if (profile.own) return null;
  const like = await getProfileLike(caller.profileId, profile.id);
  const first = profile.pictures[0]?.id;
  return (
    <div className="row">
      <Island of={LikeButton} props={{ kind: "profile", like }} />
      {first && (
        <a
          className="button"
          href={`/profilePicRateSwipe?${new URLSearchParams({ profileId: profile.id, startProfilePicId: first })}`}
        >
          Rate Pictures
        </a>
      )}
    </div>
  );
};

/** The viewer's private note and tags about the profile. */
export const notesPanel: ProfilePanel = async ({ caller, profile }) => {
  if (profile.own) return null;
  return <Island of={NotesPanel} props={{ note: await getNote(caller.profileId, profile.id) }} />;
};

/** Block / Ignore and Report Violation. */
export const actionsPanel: ProfilePanel = async ({ caller, profile }) => {
  if (profile.own) return null;
  const like = await getProfileLike(caller.profileId, profile.id);
  return <Island of={ActionsPanel} props={{ like, profileName: profile.profilename }} />;
};

/** What the carousel needs for Like / Remove Like on each picture: none on one's own pictures. */
export async function carouselLikes(
  viewerProfileId: string,
  profile: { id: string; own: boolean },
  picIds: readonly string[],
): Promise<CarouselLikes | undefined> {
  if (profile.own) return undefined;
  const likes = await getPicLikes(viewerProfileId, picIds);
  return {
    likerProfileId: viewerProfileId,
    byPic: Object.fromEntries(likes.map((l) => [l.profilePicId, l.likeType])),
  };
}
