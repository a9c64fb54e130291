/**
 * The frame of a paged discovery list (tiles, profile list): the filter on top, what to say while
 * there is nobody to show, the list, and the paging at its end.
 */

import type { ReactNode } from "react";
import { type BriefFilter, FilterPanel } from "./FilterPanel.tsx";
import { formatDistance } from "../domain/format.ts";
import { DiscoveryStatus, type ListQueryState } from "./DiscoveryStatus.tsx";
import { LoadMore } from "./LoadMore.tsx";
import { DISCOVERY_TEXTS } from "../domain/discovery.ts";

/** The parts of an infinite list query the frame needs. */
export interface PagedQueryState extends ListQueryState {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => unknown;
}

export interface DiscoveryFrameProps {
  filter: BriefFilter;
  onFilter: (f: BriefFilter) => void;
  query: PagedQueryState;
  /** How many profiles the list shows. */
  count: number;
  /** Show 'Load More' besides the scroll trigger. */
  loadMoreButton?: boolean;
  /** Distances as the server wrote them, by metres, for the filter's choices (FilterPanel `written`). */
  distanceTexts?: Record<string, string>;
  children: ReactNode;
}

/** Filter, status, the list (children) and the paging at its end. */
export function DiscoveryFrame(
  { filter, onFilter, query, count, loadMoreButton, distanceTexts, children }: DiscoveryFrameProps,
) {
  return (
    <div className="discovery">
      <FilterPanel
        value={filter}
        onChange={onFilter}
        distance={distanceTexts && ((m) => distanceTexts[m] ?? formatDistance(m))}
      />
      <DiscoveryStatus query={query} count={count} />
      {children}
      {count > 0 && (
        <LoadMore
          hasMore={query.hasNextPage}
          loading={query.isFetchingNextPage}
          failed={query.isFetchNextPageError}
          onMore={() => query.fetchNextPage()}
          button={loadMoreButton}
          endText={DISCOVERY_TEXTS.endOfList}
        />
      )}
    </div>
  );
}
