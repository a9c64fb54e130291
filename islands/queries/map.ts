/**
 * Client data of the map (spec §2 Map, §9): the members in the view as markers
 * (`GET /api/profile-briefs/map`, the compact answer of the spec's by-bounds call with size 800:
 * decision 0129; refetched every 15 s) and the aggregate counts per 1-degree sector
 * (`GET /api/profile-positions/aggregates`, stale after 2 min).
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
/** Past this many 1-degree sectors in view the map shows aggregates instead (spec §9). */
export const MAP_MAX_SECTORS = 20;
/** Aggregate data is stale after 2 minutes (spec §9). */
export const AGGREGATES_STALE_MS = 120_000;
/** Every view is its own query: keep them briefly, so the persisted cache does not fill up. */
const VIEW_CACHE_MS = 60_000;

/** Rounded to about 1 m: views that differ by less share a query. */
const round = (x: number) => Math.round(x * 1e5) / 1e5;

/** The address of the members in a box (the box already clamped to the globe). */
function mapViewPath(box: ViewBox, filter: BriefFilter): string {
  const p = filterParams(filter);
  p.set("latMin", String(round(box.latMin)));
  p.set("lonMin", String(round(box.lonMin)));
  p.set("latMax", String(round(box.latMax)));
  p.set("lonMax", String(round(box.lonMax)));
  return `/api/profile-briefs/map?${p}`;
}

/**
 * The members in `box` as marker rows, or `tooMany` (none asked while `box` is null); the last
 * answer stays while the next loads.
 */
export function useMapView(box: ViewBox | null, filter: BriefFilter) {
  const path = box ? mapViewPath(box, filter) : null;
  return useQuery({
    queryKey: ["profile-briefs", "map", path],
    queryFn: () => api<ApiAnswer<"GET /api/profile-briefs/map">>(path!),
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
