/**
 * Client data of the map (spec §2 Map, §9): the members in the view
 * (`GET /api/profile-briefs/by-bounds`, size 800, refetched every 15 s) and the aggregate counts
 * per 1-degree sector (`GET /api/profile-positions/aggregates`, stale after 2 min).
 */

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, call } from "./api.ts";
import type { ApiAnswer } from "../../domain/contract.ts";
import { type BriefFilter, filterParams } from "../../components/FilterPanel.tsx";
import type { ViewBox } from "../map/markers.ts";
import type { PositionAggregate } from "../../domain/shapes/positions.ts";

export type { PositionAggregate };

/** The map refetches the members in view this often (spec §9: sectors every 15 s on the map). */
export const MAP_REFETCH_MS = 15_000;
/** At this many members in view the map shows none (spec §9 profile cap). */
export const MAP_PROFILE_CAP = 800;
/** Past this many 1-degree sectors in view the map shows aggregates instead (spec §9). */
export const MAP_MAX_SECTORS = 20;
/** Aggregate data is stale after 2 minutes (spec §9). */
export const AGGREGATES_STALE_MS = 120_000;
/** Every view is its own query: keep them briefly, so the persisted cache does not fill up. */
const VIEW_CACHE_MS = 60_000;

/** Rounded to about 1 m: views that differ by less share a query. */
const round = (x: number) => Math.round(x * 1e5) / 1e5;

/** The address of the members in a box (the box already clamped to the globe). */
function boundsPath(box: ViewBox, filter: BriefFilter): string {
  const p = filterParams(filter);
  p.set("latMin", String(round(box.latMin)));
  p.set("lonMin", String(round(box.lonMin)));
  p.set("latMax", String(round(box.latMax)));
  p.set("lonMax", String(round(box.lonMax)));
  p.set("page", "0");
  p.set("size", String(MAP_PROFILE_CAP));
  return `/api/profile-briefs/by-bounds?${p}`;
}

/** The members in `box` (none asked while `box` is null); the last answer stays while the next loads. */
export function useBoundsBriefs(box: ViewBox | null, filter: BriefFilter) {
  const path = box ? boundsPath(box, filter) : null;
  return useQuery({
    queryKey: ["profile-briefs", "by-bounds", path],
    queryFn: () => api<ApiAnswer<"GET /api/profile-briefs/by-bounds">>(path!),
    enabled: path !== null,
    refetchInterval: MAP_REFETCH_MS,
    staleTime: MAP_REFETCH_MS,
    gcTime: VIEW_CACHE_MS,
    placeholderData: keepPreviousData,
  });
}

/** Visible members per 1-degree sector, while `enabled`. */
export function useAggregates(enabled: boolean) {
  return useQuery({
    queryKey: ["profile-positions", "aggregates"],
    queryFn: () => call("GET /api/profile-positions/aggregates", {}),
    enabled,
    staleTime: AGGREGATES_STALE_MS,
    refetchInterval: enabled ? AGGREGATES_STALE_MS : false,
  });
}
