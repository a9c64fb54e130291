/**
 * Private notes and tags (spec §7): `GET/PUT /api/profile-note`, `GET /api/profile-notes`. Only
 * the author reads or writes them: any other caller gets 403 whether or not a note exists.
 */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { idSchema, jsonBody, queryOf } from "../validate.ts";
import { ownTowards } from "../policy.ts";
import { requireCaller, requireOwnProfile } from "../middleware.ts";
import { MAX_TEXT } from "../../domain/texts.ts";
import { getNote, listNotes, NOTES_PAGE, putNote } from "../../kv/notes.ts";
import { MAX_TAG_LENGTH, MAX_TAGS } from "../../domain/tags.ts";
import { blockedSet } from "../../kv/blocks.ts";
import { answer } from "../answer.ts";

export const noteBody = z.object({
  authorProfileId: idSchema,
  aboutProfileId: idSchema,
  bodyText: z.string().max(MAX_TEXT),
  privateTags: z.array(z.string().trim().max(MAX_TAG_LENGTH)).max(MAX_TAGS).default([]),
});

export const noteQuery = z.object({ authorProfileId: idSchema, aboutProfileId: idSchema });

export const notesQuery = z.object({ authorProfileId: idSchema, cursor: z.string().max(500).optional() });

export const notes = new Hono<AppEnv>()
  .get("/profile-note", async (c) => {
    requireCaller(c);
    const q = queryOf(c, noteQuery);
    await ownTowards(c, q.authorProfileId, q.aboutProfileId);
    return answer(c, "GET /api/profile-note", await getNote(q.authorProfileId, q.aboutProfileId));
  })
  .put("/profile-note", async (c) => {
    requireCaller(c);
    const body = await jsonBody(c, noteBody);
    await ownTowards(c, body.authorProfileId, body.aboutProfileId);
    return answer(
      c,
      "PUT /api/profile-note",
      await putNote(body.authorProfileId, body.aboutProfileId, body.bodyText, body.privateTags),
    );
  })
  .get("/profile-notes", async (c) => {
    requireCaller(c);
    const q = queryOf(c, notesQuery);
    await requireOwnProfile(c, q.authorProfileId);
    const hidden = await blockedSet(q.authorProfileId);
    return answer(
      c,
      "GET /api/profile-notes",
      await listNotes(q.authorProfileId, { cursor: q.cursor, limit: NOTES_PAGE }, hidden),
    );
  });
