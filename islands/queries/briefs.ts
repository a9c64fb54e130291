/**
 * Client data of the discovery screens: nearby profile briefs, paged by the API's page counter
 * (`GET /api/profile-briefs/nearest?page=&size=`), the shared filter remembered on this device,
 * and the location reporter the list depends on.
 */

import { type QueryClient, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { api, keepLocally } from "./api.ts";
import { useServerData } from "./client.tsx";
import type { ApiAnswer } from "../../domain/contract.ts";
import { apiPath } from "../../domain/apiPath.ts";
import { type KnownLocation, useLocation } from "./location.ts";
import { type BriefFilter, cleanFilter, filterParams, NO_FILTER } from "../../components/FilterPanel.tsx";
import type { BriefsPage, ProfileBrief } from "../../domain/shapes/briefs.ts";

export type { BriefsPage, ProfileBrief };

/** Tiles: 30 per page (spec §9). */
export const TILES_PAGE_SIZE = 30;
/** Profile list: ten more per scroll (spec §9). */
export const LIST_PAGE_SIZE = 10;
/** Swipe: cards fetched per page. */
export const SWIPE_PAGE_SIZE = 30;

/** Refetch intervals of spec §9: tiles 2 min, swipe 1 h, profile list 5 min. */
export const TILES_REFETCH_MS = 2 * 60_000;
export const SWIPE_REFETCH_MS = 60 * 60_000;
export const LIST_REFETCH_MS = 5 * 60_000;

/** The query-key root of every nearest-briefs list; a change of likes or position invalidates it. */
export const NEAREST_KEY = ["profile-briefs", "nearest"] as const;

/**
 * A like changed: only brief lists filtered by likes can change, and they load again when next
 * shown, so a swipe does not refetch the deck it came from.
 */
export function invalidateLikeFilteredBriefs(qc: QueryClient): Promise<void> {
  return qc.invalidateQueries({
    queryKey: ["profile-briefs"],
    predicate: (q) => q.queryKey.some((part) => typeof part === "string" && part.includes("likes=")),
    refetchType: "none",
  });
}

/** The address of one page of nearest briefs (`ratedBefore`: leave out whom I rated before then). */
function nearestPath(page: number, size: number, filter: BriefFilter, ratedBefore?: number): string {
  const p = filterParams(filter);
  if (ratedBefore !== undefined) p.set("ratedBefore", String(ratedBefore));
  p.set("page", String(page));
  p.set("size", String(size));
  return `${apiPath("GET /api/profile-briefs/nearest", {})}?${p}`;
}

export interface NearestOptions {
  size: number;
  filter: BriefFilter;
  /** Spec §9 refetch interval of the screen; the list is also stale after it. */
  refetchMs: number;
  /** The first page rendered by the server, when it had one for this filter. */
  initial?: BriefsPage | null;
  /** Leave out members rated before this time (the swipe deck). */
  ratedBefore?: number;
  /** False while the viewer has no position yet: nothing is asked (default true). */
  enabled?: boolean;
}

/**
 * The nearest briefs, page by page: `pages` grows with `fetchNextPage()` while the last page
 * `hasMore`. The list is refetched every `refetchMs`.
 */
function useNearestBriefs({ size, filter, refetchMs, initial, ratedBefore, enabled = true }: NearestOptions) {
  const params = filterParams(filter).toString();
  const queryKey = [...NEAREST_KEY, size, params, ratedBefore ?? null];
  // The server's first page (unfiltered) seeds the cache: pages restored from the device's cache,
  // older than the page, would make hydration differ from what the server rendered.
  useServerData(queryKey, initial && params === "" ? { pages: [initial], pageParams: [0] } : undefined);
  return useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }): Promise<BriefsPage> =>
      api<ApiAnswer<"GET /api/profile-briefs/nearest">>(nearestPath(pageParam, size, filter, ratedBefore)),
    initialPageParam: 0,
    getNextPageParam: (last: BriefsPage) => last.hasMore ? last.page + 1 : undefined,
    staleTime: refetchMs,
    refetchInterval: refetchMs,
    enabled,
  });
}

/** Every brief of the loaded pages, each member once (a refetch between pages may shift people). */
function briefsOf(pages: readonly BriefsPage[] | undefined): ProfileBrief[] {
  const seen = new Set<string>();
  const out: ProfileBrief[] = [];
  for (const p of pages ?? []) {
    for (const b of p.items) {
      if (!seen.has(b.profileId)) {
        seen.add(b.profileId);
        out.push(b);
      }
    }
  }
  return out;
}

/** What the page hands each discovery island. */
export interface DiscoveryProps {
  /** The viewer's own profile (the reporter's and the swipes' profile). */
  myProfileId: string;
  /** The viewer's own last report, if valid (their own record only). */
  known: KnownLocation | null;
  /** The first page rendered by the server (no filter), or null to ask the API. */
  initial: BriefsPage | null;
  /** The swipe deck's session start: members rated before it are left out (the server's clock). */
  ratedBefore?: number;
  /**
   * Distances as the server wrote them, by metres (the tiles): the first page's and the filter's
   * choices. Hydration shows these texts rather than making the language's number formats, whose
   * first costs a phone tens of milliseconds in one task. A distance not in it is written in the
   * browser.
   */
  distanceTexts?: Record<string, string>;
}

/**
 * Runs the page's location reporter (islands/queries/location.ts) for the viewer, and asks for
 * the nearest briefs again each time the server accepted a report from another point than the
 * one the lists were measured from: a newcomer's first report, a point restored from this device
 * that differs from the server's, a move. `known` is the viewer's own last report from the
 * server (null for none). True once the viewer has a position to measure from (the server knew
 * one, or a report was accepted): before that, "nobody near you" would be a guess.
 */
function useReportedLocation(profileId: string, known: KnownLocation | null): boolean {
  const loc = useLocation(profileId, known);
  const qc = useQueryClient();
  const measuredFrom = useRef(known && { lat: known.lat, lon: known.lon });
  useEffect(() => {
    if (loc.reported === 0) return;
    const from = measuredFrom.current;
    measuredFrom.current = { lat: loc.lat, lon: loc.lon };
    if (from?.lat === loc.lat && from.lon === loc.lon) return;
    qc.invalidateQueries({ queryKey: NEAREST_KEY });
  }, [loc.reported]);
  return known !== null || loc.reported > 0;
}

/** The tab's session-storage key of the grid's order when a tile is opened (the profile steps through it). */
export const GRID_ORDER_KEY = "grid-order";

/** The local-storage key of the discovery filter, shared by tiles, swipe, list and map. */
export const FILTER_STORAGE_KEY = "discovery-filter";

/**
 * The discovery filter of this device: empty on the server and at hydration, then the stored
 * one; every change is stored, so the three screens (and the map) share it.
 */
export function useBriefFilter(): [BriefFilter, (f: BriefFilter) => void] {
  const [filter, setFilter] = useState<BriefFilter>(NO_FILTER);
  useEffect(() => {
    try {
      const raw = localStorage.getItem(FILTER_STORAGE_KEY);
      if (raw) setFilter(cleanFilter(JSON.parse(raw)));
    } catch { /* a broken value is no filter */ }
  }, []);
  const change = useCallback((f: BriefFilter) => {
    setFilter(f);
    try {
      keepLocally(FILTER_STORAGE_KEY, JSON.stringify(f));
    } catch { /* storage full or disabled: the filter lasts for this page */ }
  }, []);
  return [filter, change];
}

/**
 * Everything a discovery screen lists: the device's filter, the nearest briefs in pages of
 * `size` refetched every `refetchMs`, every brief loaded so far, and the location reporter.
 */
export function useDiscovery(
  { myProfileId, known, initial, ratedBefore }: DiscoveryProps,
  size: number,
  refetchMs: number,
) {
  const [filter, setFilter] = useBriefFilter();
  const located = useReportedLocation(myProfileId, known);
  // A newcomer's first report takes a moment: the list stays 'loading' until it is in.
  const query = useNearestBriefs({ size, filter, refetchMs, initial, ratedBefore, enabled: located });
  const briefs = briefsOf(query.data?.pages);
  return { filter, setFilter, query, briefs };
}
