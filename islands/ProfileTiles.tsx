/**
 * Profile tiles (spec §2 Tiles): nearby members' pictures, nearest first, 30 per page, more on
 * 'Load More' or when the end scrolls into view; each tile shows the distance at top right and
 * the name (12 characters) at the bottom, and opens the profile. The footer reads 'near you'.
 */

import { Images } from "../components/icons.ts";
import { useEffect, useRef } from "react";
import { QueryProvider } from "./queries/client.tsx";
import {
  type DiscoveryProps,
  GRID_ORDER_KEY,
  TILES_PAGE_SIZE,
  TILES_REFETCH_MS,
  useDiscovery,
} from "./queries/briefs.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { usePresence } from "./queries/presence.ts";
import { OnlineDot } from "../components/OnlineDot.tsx";
import { VerifiedBadge } from "../components/VerifiedBadge.tsx";
import { TEXTS } from "../domain/texts.ts";
import { DiscoveryFrame } from "../components/DiscoveryFrame.tsx";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { distanceText, profileUrl, shortName } from "../domain/format.ts";
import { DISCOVERY_TEXTS } from "../domain/discovery.ts";
import { fetchAheadInView, inPageLink, onInPageClick } from "./inPage.ts";

/** Tiles before this index load their picture at once (the first screenful). */
const EAGER_TILES = 8;
/** Tiles before this index, the first row on a phone, are the page's largest paint: fetched first. */
const FIRST_ROW = 3;

function Tiles(props: DiscoveryProps) {
  const { filter, setFilter, query, briefs } = useDiscovery(props, TILES_PAGE_SIZE, TILES_REFETCH_MS);
  const nsfw = useShowsNsfw();
  const presence = usePresence(briefs.slice(0, 50).map((b) => b.profileId));
  // The profiles in view are fetched ahead; a tap opens one in this page (islands/inPage.ts).
  const list = useRef<HTMLUListElement>(null);
  useEffect(() => list.current ? fetchAheadInView(list.current) : undefined, [briefs]);
  return (
    <>
      <DiscoveryFrame
        filter={filter}
        onFilter={setFilter}
        query={query}
        count={briefs.length}
        loadMoreButton
        distanceTexts={props.distanceTexts}
      >
        <ul className="tiles" ref={list}>
          {briefs.map((b, i) => (
            <li key={b.profileId}>
              <a
                className="tile"
                href={profileUrl(b.profileId)}
                {...inPageLink}
                onClick={(e) => {
                  try {
                    sessionStorage.setItem(GRID_ORDER_KEY, JSON.stringify(briefs.map((x) => x.profileId)));
                  } catch { /* storage off: the profile shows no next and previous */ }
                  onInPageClick(e);
                }}
              >
                <BriefPicture
                  picId={b.profilePicIds[0]}
                  name={b.profileName}
                  scale={256}
                  nsfw={nsfw}
                  eager={i < EAGER_TILES}
                  first={i < FIRST_ROW}
                />
                {/* One row at the top: the distance at the end, "New" at the start, on a row of its own under it when both do not fit. */}
                <span className="tile-top">
                  <span className="tile-distance">
                    {props.distanceTexts?.[String(b.distanceMeters)] ?? distanceText(b.distanceMeters)}
                  </span>
                  {b.isNew && <span className="tile-new">{TEXTS.newMark}</span>}
                </span>
                <span className="tile-caption">
                  <span className="tile-name badged">
                    <OnlineDot online={presence[b.profileId]?.online} />
                    <span className="name-cut">{shortName(b.profileName)}</span>
                    {b.verified && <VerifiedBadge />}
                  </span>
                  {b.profileAge !== null && <span className="tile-age">{b.profileAge}</span>}
                  {b.profilePicIds.length > 1 && (
                    <span className="tile-pics" role="img" aria-label={TEXTS.pictureCount(b.profilePicIds.length)}>
                      <Images className="icon" aria-hidden="true" /> {b.profilePicIds.length}
                    </span>
                  )}
                </span>
              </a>
            </li>
          ))}
        </ul>
      </DiscoveryFrame>
      <p className="discovery-footer">{DISCOVERY_TEXTS.nearYou}</p>
    </>
  );
}

export default function ProfileTiles(props: DiscoveryProps) {
  return (
    <QueryProvider>
      <Tiles {...props} />
    </QueryProvider>
  );
}
