/** Personal chat ('Your Conversations') and Map Chat pages. */

import type { Context } from "hono";
import type { AppEnv } from "../env.ts";
import { renderPage, titledPage } from "./render.tsx";
import { Island } from "../../components/Island.tsx";
import { TEXTS } from "../../domain/texts.ts";
import Conversations from "../../islands/Conversations.tsx";
import MapChat from "../../islands/MapChat.tsx";
import Conversation from "../../islands/Conversation.tsx";
import type { ProfilePanelContext } from "./profilePanels.tsx";
import { knownLocation } from "../../kv/positions/mod.ts";
import { getProfile } from "../../kv/profiles.ts";
import type { ComposerPic } from "../../components/Composer.tsx";
import { conversationsOf, conversationWith } from "../../kv/messages.ts";
import { blockedSet } from "../../kv/blocks.ts";
import { safetyPlace } from "../../kv/safety.ts";

/** The pictures a member may attach to a message: public ones, and private ones unless broadcasting. */
async function composerPics(profileId: string, withPrivate: boolean): Promise<ComposerPic[]> {
  const p = await getProfile(profileId);
  if (!p) return [];
  return [
    ...p.profilePicIds.map((id) => ({ id, private: false })),
    ...(withPrivate ? p.profilePicIdsPrivate.map((id) => ({ id, private: true })) : []),
  ];
}

export async function conversationsPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  // The block lists are read beside the conversations' index, not before it.
  const initial = await conversationsOf(caller.profileId, blockedSet(caller.profileId));
  return renderPage(
    c,
    TEXTS.conversationsTitle,
    <section className="page narrow-page">
      <h1>{TEXTS.conversationsTitle}</h1>
      <Island of={Conversations} props={{ profileId: caller.profileId, initial }} />
    </section>,
  );
}

export async function mapChatPage(c: Context<AppEnv>) {
  const caller = c.get("caller")!;
  const [known, myPics] = await Promise.all([
    knownLocation(caller.profileId),
    composerPics(caller.profileId, false),
  ]);
  return titledPage(
    c,
    "Map Chat",
    <Island of={MapChat} props={{ me: caller.profileId, known, myPics }} />,
    "page narrow-page",
  );
}

/** The profile page's chat area: the conversation with that member (not on one's own profile). */
export async function chatPanel({ caller, profile, early }: ProfilePanelContext) {
  if (profile.own) return null;
  // Both read at once: one wait for the store.
  const [myPics, initial, suggestSecret] = await Promise.all([
    composerPics(caller.profileId, true),
    early?.conversation ?? conversationWith(caller.profileId, profile.id),
    // Where being gay is a crime, the conversation suggests a secret chat.
    safetyPlace(caller.profileId).then((p) => p.atRisk),
  ]);
  return (
    <Island
      of={Conversation}
      props={{
        me: caller.profileId,
        other: profile.id,
        otherName: profile.profilename,
        otherPicId: profile.profilePicIds[0],
        otherVerified: profile.verified,
        myPics,
        initial,
        suggestSecret,
      }}
    />
  );
}
