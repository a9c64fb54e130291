/**
 * Client data of profiles (spec §7): `GET /api/profile/{id}` (cached 1 hour, spec §9),
 * `GET /api/profiles/mine` and `PUT /api/profile`.
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call, NAVIGATION } from "./api.ts";
import { useServerData } from "./client.tsx";
import type { ProfileChange, ProfileView } from "../../domain/shapes/profiles.ts";

export type { ProfileChange, ProfileView };

/** Profile cache lifetime (spec §9). */
export const PROFILE_CACHE_MS = 60 * 60_000;

/** Query key of one profile as the caller sees it. */
export const profileKey = (id: string) => ["profile", id] as const;

/**
 * A profile; `initial` is what the server rendered, which seeds the cache (useServerData): a
 * profile restored from the device's cache, older than the page, would make hydration differ.
 */
export function useProfileQuery(id: string, initial?: ProfileView) {
  useServerData(profileKey(id), initial);
  return useQuery({
    queryKey: profileKey(id),
    queryFn: () => call("GET /api/profile/:id", { id }),
    staleTime: PROFILE_CACHE_MS,
    meta: NAVIGATION,
  });
}

/** The caller's own profile (the editor), fresh from `/api/profiles/mine`; `initial` as the server rendered it. */
export function useMyProfile(initial: ProfileView): ProfileView {
  useServerData(profileKey(initial.id), initial);
  return useQuery({
    queryKey: profileKey(initial.id),
    queryFn: async () => (await call("GET /api/profiles/mine", {}))[0],
    staleTime: PROFILE_CACHE_MS,
  }).data ?? initial;
}

/** Saves fields of the caller's own profile; the cache takes the saved profile. */
export function useProfileMutation(id: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (change: ProfileChange) => call("PUT /api/profile", {}, { json: { id, ...change } }),
    onSuccess: (saved) => qc.setQueryData(profileKey(id), saved),
  });
}
