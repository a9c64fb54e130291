/**
 * Private notes and tags (spec §7): `GET/PUT /api/profile-note`, `GET /api/profile-notes`. Only
 * the author reads or writes them: any other caller gets 403 whether or not a note exists.
 */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { bodyOf, queryOf } from "../validate.ts";
import { ownTowards } from "../policy.ts";
import { requireCaller, requireOwnProfile } from "../middleware.ts";
import { getNote, listNotes, NOTES_PAGE, putNote } from "../../kv/notes.ts";
import { blockedSet } from "../../kv/blocks.ts";
import { answer } from "../answer.ts";

export const notes = new Hono<AppEnv>()
  .get("/profile-note", async (c) => {
    requireCaller(c);
    const q = queryOf(c, "GET /api/profile-note");
    await ownTowards(c, q.authorProfileId, q.aboutProfileId);
    return answer(c, "GET /api/profile-note", await getNote(q.authorProfileId, q.aboutProfileId));
  })
  .put("/profile-note", async (c) => {
    requireCaller(c);
    const body = await bodyOf(c, "PUT /api/profile-note");
    await ownTowards(c, body.authorProfileId, body.aboutProfileId);
    return answer(
      c,
      "PUT /api/profile-note",
      await putNote(body.authorProfileId, body.aboutProfileId, body.bodyText, body.privateTags),
    );
  })
  .get("/profile-notes", async (c) => {
    requireCaller(c);
    const q = queryOf(c, "GET /api/profile-notes");
    await requireOwnProfile(c, q.authorProfileId);
    const hidden = await blockedSet(q.authorProfileId);
    return answer(
      c,
      "GET /api/profile-notes",
      await listNotes(q.authorProfileId, { cursor: q.cursor, limit: NOTES_PAGE }, hidden),
    );
  });
