/**
 * The profile view (/profile/:profileId, spec §2): the profile island, then the panels other
 * features plug in (like buttons, notes, actions, chat). A missing, invalid, unknown or hidden
 * (blocked) id leads to the member's own profile, showing 'Loading your profile...'.
 */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import ProfileView from "../../islands/ProfileView.tsx";
import { isId } from "../../kv/ids.ts";
import { loadProfileView } from "../../kv/profileViews.ts";
import { hotProfileOpened } from "../../kv/games/hotOrNot.ts";
import { notFoundPage } from "./info.tsx";
import { actionsPanel, likesPanel, notesPanel, type ProfilePanel, type ProfilePanelContext } from "./profilePanels.tsx";
import { chatPanel } from "./chat.tsx";
import { getProfileLike } from "../../kv/likes.ts";
import { conversationWith } from "../../kv/messages.ts";
import { getShownPosition } from "../../kv/positions/mod.ts";
import { safetyPlace } from "../../kv/safety.ts";
import { haversineMeters, shownMeters } from "../../domain/geo.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { profileUrl } from "../../domain/format.ts";

/**
 * The panels of the profile page, in page order. Each is rendered in its own section, so a
 * feature adds its panel here without touching the profile island.
 */
export const PROFILE_PANELS: { name: "likes" | "notes" | "actions" | "chat"; panel: ProfilePanel | null }[] = [
  // Like / Remove Like of the profile.
  { name: "likes", panel: likesPanel },
  // Private notes and tags.
  { name: "notes", panel: notesPanel },
  // Block / Ignore and Report Violation.
  { name: "actions", panel: actionsPanel },
  // The conversation with this member.
  { name: "chat", panel: chatPanel },
];

/** The text shown while going to one's own profile (spec §2). */
export const LOADING_YOUR_PROFILE = "Loading your profile...";

/**
 * How far the viewer is from the member, between both shown positions (never a reported one), as
 * the grid counts it; null ("nearby") for a viewer where being gay is a crime; undefined when
 * either has no shown position, or on one's own profile.
 */
async function distanceTo(viewerId: string, profileId: string): Promise<number | null | undefined> {
  if (viewerId === profileId) return undefined;
  if ((await safetyPlace(viewerId)).atRisk) return null;
  const [a, b] = await Promise.all([getShownPosition(viewerId), getShownPosition(profileId)]);
  return a && b ? shownMeters(haversineMeters(a.lat, a.lon, b.lat, b.lon)) : undefined;
}

export async function profilePage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const id = c.req.param("profileId") ?? "";
  // Another member's page: the like and the conversation panels' reads begin beside the profile's
  // (one wait for the store, not two); a profile not shown drops them unread.
  const other = isId(id) && id !== caller.profileId;
  const early = other
    ? { like: getProfileLike(caller.profileId, id), conversation: conversationWith(caller.profileId, id) }
    : undefined;
  early?.like.catch(() => {});
  early?.conversation.catch(() => {});
  const profile = isId(id) ? await loadProfileView(id, caller.profileId) : null;
  if (!profile) {
    if (id === caller.profileId) return notFoundPage(c);
    const own = profileUrl(caller.profileId);
    // A refresh works without script; the page shows the spec's text meanwhile.
    c.header("refresh", `0; url=${own}`);
    return renderPage(
      c,
      "Profile",
      <section className="page profile-page">
        <p className="loading" role="status">
          {LOADING_YOUR_PROFILE} <a href={own}>{UI_TEXTS.openIt}</a>
        </p>
      </section>,
    );
  }
  const ctx: ProfilePanelContext = { c, caller, profile, early };
  // The panels and the distance are read together; the open counts for 'Keep my best picture first'.
  const [panels, distanceMeters] = await Promise.all([
    Promise.all(PROFILE_PANELS.map(async ({ name, panel }) => ({ name, el: await panel?.(ctx) }))),
    distanceTo(caller.profileId, profile.id),
    hotProfileOpened(profile.id, caller.profileId),
  ]);
  return renderPage(
    c,
    profile.profilename,
    <section className="page profile-page">
      <Island of={ProfileView} props={{ profile, distanceMeters }} />
      {panels.map(({ name, el }) =>
        el && <section key={name} className={`profile-panel profile-${name}`}>{el}</section>
      )}
    </section>,
  );
}
