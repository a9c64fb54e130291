/**
 * Client data of the discovery screens: nearby profile briefs, paged by the API's page counter
 * (`GET /api/profile-briefs/nearest?page=&size=`), the shared filter remembered on this device,
 * and saving a swipe (`PUT /api/profile-like`).
 */

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "./api.ts";
import { type KnownLocation, REPORT_DEBOUNCE_MS, useLocation } from "./location.ts";
import type { BriefsPage, ProfileBrief } from "../../kv/briefs.ts";
import { type BriefFilter, cleanFilter, filterParams, NO_FILTER } from "../../components/FilterPanel.tsx";

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

/** The address of one page of nearest briefs. */
export function nearestPath(page: number, size: number, filter: BriefFilter): string {
  const p = filterParams(filter);
  p.set("page", String(page));
  p.set("size", String(size));
  return `/api/profile-briefs/nearest?${p}`;
}

export interface NearestOptions {
  size: number;
  filter: BriefFilter;
  /** Spec §9 refetch interval of the screen; the list is also stale after it. */
  refetchMs: number;
  /** The first page rendered by the server, when it had one for this filter. */
  initial?: BriefsPage | null;
}

/**
 * The nearest briefs, page by page: `pages` grows with `fetchNextPage()` while the last page
 * `hasMore`. The list is refetched every `refetchMs`.
 */
export function useNearestBriefs({ size, filter, refetchMs, initial }: NearestOptions) {
  const params = filterParams(filter).toString();
  return useInfiniteQuery({
    queryKey: [...NEAREST_KEY, size, params],
    queryFn: ({ pageParam }) => api<BriefsPage>(nearestPath(pageParam, size, filter)),
    initialPageParam: 0,
    getNextPageParam: (last: BriefsPage) => last.hasMore ? last.page + 1 : undefined,
    initialData: initial && params === "" ? { pages: [initial], pageParams: [0] } : undefined,
    staleTime: refetchMs,
    refetchInterval: refetchMs,
  });
}

/** Every brief of the loaded pages, each member once (a refetch between pages may shift people). */
export function briefsOf(pages: readonly BriefsPage[] | undefined): ProfileBrief[] {
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
}

/**
 * After a new position, the nearest briefs are asked for again this long after the reporter's
 * debounce; while the list stays empty (a newcomer whose first report is slow to land), again
 * after each further delay.
 */
export const REFRESH_AFTER_REPORT_MS = [1500, 4000, 10_000] as const;

/**
 * Runs the page's location reporter (islands/queries/location.ts) for the viewer, and asks for
 * the nearest briefs again once a new position has been reported: a newcomer's first report,
 * a point restored from this device that differs from the server's, a GPS move or hiding.
 * `known` is the viewer's own last report from the server (null for none); `empty` tells
 * whether the screen has nobody to show.
 */
export function useReportedLocation(profileId: string, known: KnownLocation | null, empty: boolean): void {
  const loc = useLocation(profileId, known);
  const qc = useQueryClient();
  const first = useRef(true);
  const isEmpty = useRef(empty);
  isEmpty.current = empty;
  useEffect(() => {
    if (!loc.ready || loc.paused) return;
    const unchanged = first.current && known !== null && known.lat === loc.lat && known.lon === loc.lon &&
      known.hide === loc.hide;
    first.current = false;
    if (unchanged) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const refresh = (attempt: number) => {
      timer = setTimeout(() => {
        if (attempt > 0 && !isEmpty.current) return;
        qc.invalidateQueries({ queryKey: NEAREST_KEY });
        if (attempt + 1 < REFRESH_AFTER_REPORT_MS.length) refresh(attempt + 1);
      }, (attempt === 0 ? REPORT_DEBOUNCE_MS : 0) + REFRESH_AFTER_REPORT_MS[attempt]);
    };
    refresh(0);
    return () => clearTimeout(timer);
  }, [loc.ready, loc.paused, loc.lat, loc.lon, loc.hide]);
}

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
      localStorage.setItem(FILTER_STORAGE_KEY, JSON.stringify(f));
    } catch { /* storage full or disabled: the filter lasts for this page */ }
  }, []);
  return [filter, change];
}

/** What a swipe saves (spec §4): right LIKE, left DISLIKE, down UNDETERMINED. */
export type SwipeDirection = "left" | "right" | "down";

/** The like type of each swipe direction (spec §4). */
export const SWIPE_LIKE_TYPE = { left: "DISLIKE", right: "LIKE", down: "UNDETERMINED" } as const;

/** Saves swipes of `likerProfileId` (the viewer's own profile) with `PUT /api/profile-like`. */
export function useSaveSwipe(likerProfileId: string) {
  return useMutation({
    mutationFn: ({ likedProfileId, direction }: { likedProfileId: string; direction: SwipeDirection }) =>
      api("/api/profile-like", {
        method: "PUT",
        json: {
          likerProfileId,
          likedProfileId,
          likeType: SWIPE_LIKE_TYPE[direction],
          blocked: false,
          tsCreated: Date.now(),
        },
      }),
    retry: 2,
  });
}
