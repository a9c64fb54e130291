/**
 * Swipe cards (spec §2 Swipe cards, §4 like states): nearby members one card at a time, with the
 * filter. Right or Nice saves LIKE, left or Meh saves DISLIKE, down or Skip saves UNDETERMINED;
 * up does nothing. The card follows a finger or the mouse and the arrow keys swipe too
 * (islands/useSwipe.ts). 'View Profile / Chat' opens the member on top. At the end: 'You've
 * reached the end!'. Members swiped on this page do not come back when the list is refetched.
 */

import { useEffect, useState } from "react";
import { QueryProvider } from "./queries/client.tsx";
import { type DiscoveryProps, SWIPE_PAGE_SIZE, SWIPE_REFETCH_MS, useDiscovery } from "./queries/briefs.ts";
import { swipeLikeType, useProfileLikeMutation } from "./queries/likes.ts";
import { type CardLook, useCardSwipe, type useSwipe } from "./useSwipe.ts";
import type { SwipeDirection } from "../domain/discovery.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { FilterPanel } from "../components/FilterPanel.tsx";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { BriefFacts } from "../components/BriefFacts.tsx";
import { OnlineDot } from "../components/OnlineDot.tsx";
import { VerifiedBadge } from "../components/VerifiedBadge.tsx";
import { usePresence } from "./queries/presence.ts";
import { DiscoveryStatus } from "../components/DiscoveryStatus.tsx";
import { SwipeButtons } from "../components/SwipeButtons.tsx";
import { profileUrl, shortName } from "../domain/format.ts";
import { DISCOVERY_TEXTS, swipeStamp } from "../domain/discovery.ts";
import { phrase } from "../domain/phrases.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

// Kept for islands that took the gesture from here before islands/useSwipe.ts existed.
export { swipeOfDrag } from "./useSwipe.ts";
import type { ProfileBrief } from "../domain/shapes/briefs.ts";
import { inPageLink } from "./inPage.ts";

/** Fetch the next page when this few cards are left. */
const REFILL_AT = 5;

/** What a screen reader hears after a swipe. */
function announcement(direction: SwipeDirection, name: string): string {
  return direction === "down" ? phrase("Skipped {name}", { name }) : `${swipeStamp(direction)}: ${name}`;
}

type CardProps = {
  brief: ProfileBrief;
  nsfw: boolean;
  /** The card under the top one. */
  behind?: boolean;
  look?: CardLook | null;
  online?: boolean;
} & Partial<ReturnType<typeof useSwipe>["handlers"]>;

function Card({ brief, nsfw, behind = false, look, online, ...handlers }: CardProps) {
  return (
    <div
      className={behind ? "swipe-card behind" : "swipe-card"}
      style={look?.style}
      data-profile-id={brief.profileId}
      aria-hidden={behind}
      {...handlers}
    >
      <BriefPicture picId={brief.profilePicIds[0]} name={brief.profileName} scale={512} nsfw={nsfw} eager />
      {look?.stamp && (
        <span className={`stamp stamp-${look.stamp}`} style={{ opacity: look.stampOpacity }} aria-hidden="true">
          {swipeStamp(look.stamp)}
        </span>
      )}
      <div className="swipe-card-info">
        <h2>
          <OnlineDot online={online} />
          {shortName(brief.profileName)}
          {brief.verified && <VerifiedBadge size={20} />}
        </h2>
        <BriefFacts brief={brief} />
      </div>
    </div>
  );
}

function Deck(props: DiscoveryProps) {
  const { filter, setFilter, query: q, briefs } = useDiscovery(props, SWIPE_PAGE_SIZE, SWIPE_REFETCH_MS);
  const nsfw = useShowsNsfw();
  const save = useProfileLikeMutation();
  const [swiped, setSwiped] = useState<ReadonlySet<string>>(new Set());
  const [announce, setAnnounce] = useState("");

  const deck = briefs.filter((b) => !swiped.has(b.profileId));
  const top = deck[0];
  const presence = usePresence(deck.slice(0, 10).map((b) => b.profileId));
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = q;

  useEffect(() => {
    if (deck.length < REFILL_AT && hasNextPage && !isFetchingNextPage) fetchNextPage();
  }, [deck.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  // Saves the swipe at once; the card flies off, then leaves the deck. `blocked` is left out:
  // a stale card of a member blocked meanwhile must not unblock them.
  const { swipe, handlers, look, leaving } = useCardSwipe(
    top?.profileId,
    (direction, id) => {
      const likeType = swipeLikeType(direction);
      if (likeType === "ERROR") return false;
      save.mutate({ likerProfileId: props.myProfileId, likedProfileId: id, likeType });
      setAnnounce(announcement(direction, top!.profileName));
      return true;
    },
    (id) => setSwiped((s) => new Set(s).add(id)),
  );
  const atEnd = !top && !q.isPending && !hasNextPage && !q.isError;

  return (
    <div className="discovery swipe">
      <FilterPanel value={filter} onChange={setFilter} />
      <DiscoveryStatus query={q} count={briefs.length} />
      {!top && briefs.length > 0 && hasNextPage && (
        <p className="discovery-status" role="status">{DISCOVERY_TEXTS.loading}</p>
      )}
      <div className="deck" role="region" aria-label={UI_TEXTS.profilesNearby}>
        {deck[1] && <Card key={deck[1].profileId} brief={deck[1]} nsfw={nsfw} behind />}
        {top && (
          <Card
            key={top.profileId}
            brief={top}
            nsfw={nsfw}
            look={look}
            online={presence[top.profileId]?.online}
            {...handlers}
          />
        )}
        {atEnd && <p className="deck-end">{DISCOVERY_TEXTS.endOfDeck}</p>}
      </div>
      <SwipeButtons onSwipe={swipe} disabled={!top || !!leaving} />
      {top && (
        <a className="button view-profile" href={profileUrl(top.profileId)} {...inPageLink}>
          {DISCOVERY_TEXTS.viewProfileChat}
        </a>
      )}
      {save.isError && (
        <p className="error" role="alert">
          {DISCOVERY_TEXTS.swipeFailed} {save.error?.message ?? ""}
        </p>
      )}
      <p className="visually-hidden" role="status">{announce}</p>
      <p className="swipe-hint">{DISCOVERY_TEXTS.swipeHint}</p>
    </div>
  );
}

export default function SwipeDeck(props: DiscoveryProps) {
  return (
    <QueryProvider>
      <Deck {...props} />
    </QueryProvider>
  );
}
