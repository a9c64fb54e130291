/** Online now / last seen of members (GET /api/presence), refreshed every minute. */

import { useEffect, useState } from "react";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api } from "./api.ts";

/** What a viewer may know of a member (null: hidden by them, blocked, or I hide mine). */
export type PresenceView = { online: boolean; lastSeen: number | null } | null;

/**
 * The presence of up to 50 members, by id (empty while loading). Empty on the first render too:
 * the server renders no presence, and a cache restored from local storage must not make the
 * hydrating render differ from it.
 */
export function usePresence(ids: readonly string[]): Record<string, PresenceView> {
  const list = [...new Set(ids)].slice(0, 50).sort();
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const { data } = useQuery({
    queryKey: ["presence", list.join(",")],
    queryFn: () => api<Record<string, PresenceView>>(`/api/presence?ids=${list.map(encodeURIComponent).join(",")}`),
    enabled: list.length > 0,
    // Asked again on every page: a presence restored from the device's cache may be from before
    // the member came online (the cache's default would keep it a minute).
    staleTime: 0,
    refetchInterval: 60_000,
    // A list that changed (more tiles, a new order after a position report) keeps the dots it had
    // while the new ids are asked for, rather than blinking them all off.
    placeholderData: keepPreviousData,
  });
  return (hydrated && data) || {};
}
