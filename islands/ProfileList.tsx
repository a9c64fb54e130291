/**
 * The profile list (spec §2 Profile list): full profile cards of nearby members, nearest first,
 * with the filter; ten more each time the end of the list scrolls into view. Every card has a
 * chat button. A card's picture or name opens the profile in this page (islands/inPage.ts).
 */

import { MessageCircle } from "../components/icons.ts";
import { QueryProvider } from "./queries/client.tsx";
import {
  type DiscoveryProps,
  LIST_PAGE_SIZE,
  LIST_REFETCH_MS,
  type ProfileBrief,
  useDiscovery,
} from "./queries/briefs.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { DiscoveryFrame } from "../components/DiscoveryFrame.tsx";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { BriefFacts } from "../components/BriefFacts.tsx";
import { OnlineDot } from "../components/OnlineDot.tsx";
import { VerifiedBadge } from "../components/VerifiedBadge.tsx";
import { usePresence } from "./queries/presence.ts";
import { profileUrl, shortName } from "../domain/format.ts";
import { DISCOVERY_TEXTS } from "../domain/discovery.ts";
import { fetchAheadInView, inPageLink } from "./inPage.ts";
import { useEffect, useRef } from "react";

function ProfileCard(
  { brief, nsfw, eager, online }: { brief: ProfileBrief; nsfw: boolean; eager: boolean; online?: boolean },
) {
  const href = profileUrl(brief.profileId);
  return (
    <article className="profile-card">
      <a className="profile-card-pic" href={href} tabIndex={-1} aria-hidden="true" {...inPageLink}>
        <BriefPicture picId={brief.profilePicIds[0]} name={brief.profileName} scale={512} nsfw={nsfw} eager={eager} />
      </a>
      <div className="profile-card-body">
        <h2 className="profile-card-name badged">
          <OnlineDot online={online} />
          <a className="name-cut" href={href} {...inPageLink}>{shortName(brief.profileName)}</a>
          {brief.verified && <VerifiedBadge />}
        </h2>
        <BriefFacts brief={brief} />
        <a className="button primary chat-button" href={`${href}#chat`}>
          <MessageCircle className="icon" aria-hidden="true" /> {DISCOVERY_TEXTS.chat}
        </a>
      </div>
    </article>
  );
}

function List(props: DiscoveryProps) {
  const { filter, setFilter, query, briefs } = useDiscovery(props, LIST_PAGE_SIZE, LIST_REFETCH_MS);
  const nsfw = useShowsNsfw();
  const presence = usePresence(briefs.slice(0, 50).map((b) => b.profileId));
  // The profiles in view are fetched ahead; a tap opens one in this page (islands/inPage.ts).
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => list.current ? fetchAheadInView(list.current) : undefined, [briefs]);
  return (
    <DiscoveryFrame filter={filter} onFilter={setFilter} query={query} count={briefs.length}>
      <ul className="profile-list" ref={list}>
        {briefs.map((b, i) => (
          <li key={b.profileId}>
            <ProfileCard brief={b} nsfw={nsfw} eager={i < 2} online={presence[b.profileId]?.online} />
          </li>
        ))}
      </ul>
    </DiscoveryFrame>
  );
}

export default function ProfileList(props: DiscoveryProps) {
  return (
    <QueryProvider>
      <List {...props} />
    </QueryProvider>
  );
}
