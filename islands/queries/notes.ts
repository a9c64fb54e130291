/**
 * Client data of private notes and tags (spec §7): `GET/PUT /api/profile-note`. Only the author
 * reads them. Notes are cached 1 hour (spec §9); a failed save is only logged (spec §8).
 */

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call } from "./api.ts";
import { writeThroughOutbox } from "./outbox.ts";
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

type NoteChange = Pick<ProfileNote, "authorProfileId" | "aboutProfileId" | "bodyText" | "privateTags">;

/**
 * Saves a note; the cache takes the saved note. Without a connection the note waits in the
 * device's outbox (outbox.ts), the cache takes it as written, and it is sent later. A refusal is
 * only logged (spec §8) and shown by the panel.
 */
export function useNoteMutation() {
  const qc = useQueryClient();
  return useMutation({
    networkMode: "always",
    // Kept on the device only without a connection: a server in trouble is said at once (the panel keeps the text).
    mutationFn: (note: NoteChange) => writeThroughOutbox("PUT /api/profile-note", { ...note }, { offlineOnly: true }),
    onSuccess: (saved, note) =>
      qc.setQueryData(
        noteKey(note.authorProfileId, note.aboutProfileId),
        saved ?? { ...note, tsUpdated: Date.now() },
      ),
    onError: (e) => console.error("note save failed:", e),
  });
}
