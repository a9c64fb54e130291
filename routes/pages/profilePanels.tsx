/**
 * The panels of the profile view: what a panel gets and is, and the likes, notes and actions
 * panels, plugged into PROFILE_PANELS of routes/pages/profile.tsx. None shows on
 * one's own profile.
 */

import type { Context } from "hono";
import { Ellipsis, MessageCircle, NotebookPen } from "../../components/icons.ts";
import type { ReactElement } from "react";
import type { AppEnv, Caller } from "../env.ts";
import { Island } from "../../components/Island.tsx";
import LikeButton, { type CarouselLikes } from "../../islands/LikeButton.tsx";
import NotesPanel from "../../islands/NotesPanel.tsx";
import ActionsPanel from "../../islands/ActionsPanel.tsx";
import { getPicLikes, getProfileLike } from "../../kv/likes.ts";
import { getNote } from "../../kv/notes.ts";
import { SCREEN_TEXTS } from "../../domain/screenTexts.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import type { ProfileView as Profile } from "../../domain/shapes/profiles.ts";
import type { ProfileLike } from "../../domain/shapes/likes.ts";
import type { MessagePage } from "../../domain/shapes/messages.ts";

/** What a panel of the profile page gets: the request, the caller and the profile as they see it. */
export interface ProfilePanelContext {
  c: Context<AppEnv>;
  caller: Caller;
  profile: Profile;
  /**
   * Reads begun beside the profile's own (routes/pages/profile.tsx), for the panels to use instead
   * of reading again: the caller's like of the profile and their conversation with its member.
   */
  early?: { like?: Promise<ProfileLike>; conversation?: Promise<MessagePage> };
}

/** A section of the profile page below the profile: its own island(s), or null to show nothing. */
export type ProfilePanel = (ctx: ProfilePanelContext) => ReactElement | null | Promise<ReactElement | null>;

/**
 * The profile's action bar, at the thumb on phones (static/css/profile-view.css): Like / Remove Like,
 * and Chat, Notes and Actions, which open the chat screen and the panels below (by their
 * fragment: #chat, #notes, #actions); then a way to rate the pictures one by one.
 */
export const likesPanel: ProfilePanel = async ({ caller, profile, early }) => {
  if (profile.own) return null;
  const like = await (early?.like ?? getProfileLike(caller.profileId, profile.id));
  const first = profile.pictures[0]?.id;
  return (
    <>
      <nav className="profile-bar" aria-label={SCREEN_TEXTS.profileActions}>
        <Island of={LikeButton} props={{ kind: "profile", like }} />
        <a className="button bar-link" href="#chat">
          <MessageCircle className="icon" aria-hidden="true" /> {SCREEN_TEXTS.chat}
        </a>
        <a className="button bar-link" href="#notes">
          <NotebookPen className="icon" aria-hidden="true" /> {SCREEN_TEXTS.notes}
        </a>
        <a className="button bar-link" href="#actions">
          <Ellipsis className="icon" aria-hidden="true" /> {SCREEN_TEXTS.actions}
        </a>
      </nav>
      {first && (
        <p className="row">
          <a
            className="button"
            href={`/profilePicRateSwipe?${new URLSearchParams({ profileId: profile.id, startProfilePicId: first })}`}
          >
            {UI_TEXTS.ratePictures}
          </a>
        </p>
      )}
    </>
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
