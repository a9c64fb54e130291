/**
 * Client data of private notes and tags (spec §7): `GET/PUT /api/profile-note`. Only the author
 * reads them. Notes are cached 1 hour (spec §9); a failed save is only logged (spec §8).
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "./api.ts";
import { useServerData } from "./client.tsx";
import type { ProfileNote } from "../../domain/shapes/notes.ts";

export type { ProfileNote };

/** Note cache lifetime (spec §9). */
export const NOTE_CACHE_MS = 60 * 60_000;

/** Query key of one note. */
const noteKey = (author: string, about: string) => ["profile-note", author, about] as const;

/** The author's note about a profile; `initial` is what the server rendered. */
export function useNoteQuery(author: string, about: string, initial?: ProfileNote) {
  const key = noteKey(author, about);
  useServerData(key, initial);
  return useQuery({
    queryKey: key,
    queryFn: () => call("GET /api/profile-note", {}, { query: { authorProfileId: author, aboutProfileId: about } }),
    staleTime: NOTE_CACHE_MS,
  });
}

/** Saves a note; the cache takes the saved note. A failure is only logged (spec §8). */
export function useNoteMutation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (note: Pick<ProfileNote, "authorProfileId" | "aboutProfileId" | "bodyText" | "privateTags">) =>
      call("PUT /api/profile-note", {}, { json: note }),
    onSuccess: (saved) => qc.setQueryData(noteKey(saved.authorProfileId, saved.aboutProfileId), saved),
    onError: (e) => console.error("note save failed:", e),
  });
}
