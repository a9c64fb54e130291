/**
 * Profile tiles (spec §2 Tiles): nearby members' pictures, nearest first, 30 per page, more on
 * 'Load More' or when the end scrolls into view; each tile shows the distance at top right and
 * the name (12 characters) at the bottom, and opens the profile.
 */

import { QueryProvider } from "./queries/client.tsx";
import {
  briefsOf,
  type DiscoveryProps,
  TILES_PAGE_SIZE,
  TILES_REFETCH_MS,
  useBriefFilter,
  useNearestBriefs,
  useReportedLocation,
} from "./queries/briefs.ts";
import { useShowsNsfw } from "./useShowsNsfw.ts";
import { FilterPanel } from "../components/FilterPanel.tsx";
import { BriefPicture } from "../components/BriefPicture.tsx";
import { LoadMore } from "../components/LoadMore.tsx";
import { DiscoveryStatus } from "../components/DiscoveryStatus.tsx";
import { formatDistance, shortName } from "../components/format.ts";
import { DISCOVERY_TEXTS } from "../components/discovery.ts";

/** Tiles above this index load their picture at once (the first screenful). */
const EAGER_TILES = 8;

function Tiles({ myProfileId, known, initial }: DiscoveryProps) {
  const [filter, setFilter] = useBriefFilter();
  const nsfw = useShowsNsfw();
  const q = useNearestBriefs({ size: TILES_PAGE_SIZE, filter, refetchMs: TILES_REFETCH_MS, initial });
  const briefs = briefsOf(q.data?.pages);
  useReportedLocation(myProfileId, known, briefs.length === 0);
  return (
    <div className="discovery">
      <FilterPanel value={filter} onChange={setFilter} />
      <DiscoveryStatus query={q} count={briefs.length} />
      <ul className="tiles">
        {briefs.map((b, i) => (
          <li key={b.profileId}>
            <a className="tile" href={`/profile/${encodeURIComponent(b.profileId)}`}>
              <BriefPicture
                picId={b.profilePicIds[0]}
                name={b.profileName}
                scale={256}
                nsfw={nsfw}
                eager={i < EAGER_TILES}
              />
              <span className="tile-distance">{formatDistance(b.distanceMeters)}</span>
              <span className="tile-name">{shortName(b.profileName)}</span>
            </a>
          </li>
        ))}
      </ul>
      {briefs.length > 0 && (
        <LoadMore
          hasMore={!!q.hasNextPage}
          loading={q.isFetchingNextPage}
          failed={q.isFetchNextPageError}
          onMore={() => q.fetchNextPage()}
          button
          endText={DISCOVERY_TEXTS.endOfList}
        />
      )}
      <p className="discovery-footer">{DISCOVERY_TEXTS.nearYou}</p>
    </div>
  );
}

export default function ProfileTiles(props: DiscoveryProps) {
  return (
    <QueryProvider>
      <Tiles {...props} />
    </QueryProvider>
  );
}
