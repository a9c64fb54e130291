/** Private notes and tags (spec §3 ProfileNote): written and read only by their author. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { pageOf, type PageRequest } from "./paging.ts";
import { cleanTags } from "../domain/tags.ts";
import type { ProfileNote } from "../domain/shapes/notes.ts";
import type { Page } from "../domain/shapes/paging.ts";

/** Notes per page of `GET /api/profile-notes`. */
export const NOTES_PAGE = 50;

/** The empty note: what the author sees before writing one. */
function emptyNote(authorProfileId: string, aboutProfileId: string): ProfileNote {
  return { authorProfileId, aboutProfileId, bodyText: "", privateTags: [], tsUpdated: 0 };
}

/** The note of `author` about `about`, or the empty note. */
export async function getNote(author: string, about: string): Promise<ProfileNote> {
  return (await kv().get<ProfileNote>(keys.profileNote(author, about))).value ?? emptyNote(author, about);
}

/** Saves a note (tags cleaned); an empty text with no tags deletes it. */
export async function putNote(
  author: string,
  about: string,
  bodyText: string,
  tags: readonly string[],
): Promise<ProfileNote> {
  const note: ProfileNote = {
    authorProfileId: author,
    aboutProfileId: about,
    bodyText,
    privateTags: cleanTags(tags),
    tsUpdated: now(),
  };
  if (!note.bodyText.trim() && note.privateTags.length === 0) {
    await kv().delete(keys.profileNote(author, about));
    return { ...note, bodyText: "", tsUpdated: 0 };
  }
  await kv().set(keys.profileNote(author, about), note);
  return note;
}

/** The author's notes, by the profile they are about. */
export function listNotes(
  author: string,
  req: PageRequest,
  hidden: ReadonlySet<string> = new Set(),
): Promise<Page<ProfileNote>> {
  return pageOf<ProfileNote, ProfileNote>(
    keys.profileNotesBy(author),
    req,
    ({ value }) => hidden.has(value.aboutProfileId) ? null : value,
    false,
  );
}
