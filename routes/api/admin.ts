/**
 * Admin calls, ADMIN role only: role counts, the 'Create 20 Users' test action, and moderation
 * (kv/moderation.ts): the queue, member search, a member's file, actions and their lifting, the
 * end of a review, resuming a paused sender, notes, and the audit log (read only: no call edits it).
 */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv, Caller } from "../env.ts";
import { requireAdmin } from "../middleware.ts";
import { createAccount, roleCounts } from "../../kv/accounts.ts";
import { getProfile } from "../../kv/profiles.ts";
import { randomToken } from "../../kv/ids.ts";
import { badRequest, conflict, notFound } from "../errors.ts";
import { bodyOf, idSchema, parseWith, queryOf } from "../validate.ts";
import {
  addModNote,
  endReview,
  liftAction,
  listAudit,
  memberFile,
  moderationQueue,
  type Moderator,
  resumeSending,
  searchMembers,
  takeAction,
} from "../../kv/moderation.ts";
import { getReport } from "../../kv/games/arbitration.ts";
import { answer } from "../answer.ts";

const moderator = (c: Caller): Moderator => ({ accountId: c.accountId, name: c.name });

const NAMES = ["Alex", "Sam", "Jordan", "Robin", "Casey", "Drew", "Jamie", "Kai", "Lee", "Morgan", "Noa", "Quinn"];

export const admin = new Hono<AppEnv>()
  .get("/dashboard/userRoleCounts", async (c) => {
    requireAdmin(c);
    return answer(c, "GET /api/admin/dashboard/userRoleCounts", await roleCounts());
  })
  .post("/testUsersCreate/:count", async (c) => {
    requireAdmin(c);
    const count = parseWith(z.coerce.number().int().min(1).max(100), c.req.param("count"));
    let created = 0;
    for (let i = 0; i < count; i++) {
      const tag = randomToken(6).toLowerCase().replace(/[^a-z0-9]/g, "x");
      const a = await createAccount({
        email: `test-${tag}@test.invalid`,
        name: `${NAMES[i % NAMES.length]} ${tag.slice(0, 4)}`,
        roles: ["USER", "TEST"],
      });
      if (a) created++;
    }
    return answer(c, "POST /api/admin/testUsersCreate/:count", { created });
  })
  .get("/moderation/queue", async (c) => {
    requireAdmin(c);
    return answer(c, "GET /api/admin/moderation/queue", { items: await moderationQueue() });
  })
  .get("/audit", async (c) => {
    requireAdmin(c);
    const { limit } = queryOf(c, "GET /api/admin/audit");
    return answer(c, "GET /api/admin/audit", { items: await listAudit(limit) });
  })
  .get("/members", async (c) => {
    requireAdmin(c);
    const { q } = queryOf(c, "GET /api/admin/members");
    return answer(c, "GET /api/admin/members", { items: await searchMembers(q) });
  })
  .get("/members/:profileId", async (c) => {
    requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    const file = await memberFile(id);
    if (!file) throw notFound("No such member.");
    return answer(c, "GET /api/admin/members/:profileId", file);
  })
  .post("/members/:profileId/actions", async (c) => {
    const caller = requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    const body = await bodyOf(c, "POST /api/admin/members/:profileId/actions");
    if (body.kind === "SUSPENSION" && !body.days) throw badRequest("A suspension needs its days: 1, 7 or 30.", "days");
    if (body.kind !== "SUSPENSION" && body.days) throw badRequest("Only a suspension has days.", "days");
    if (id === caller.profileId) throw badRequest("You cannot act on your own account.", "own_account");
    if (body.reportId) {
      const report = await getReport(body.reportId);
      if (!report || report.reportedProfileId !== id) throw notFound("No such report about this member.");
    }
    const r = await takeAction(moderator(caller), id, body);
    if (!r.ok) throw notFound("No such member.");
    return answer(c, "POST /api/admin/members/:profileId/actions", r.action);
  })
  .delete("/members/:profileId/actions/:actionId", async (c) => {
    const caller = requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    const actionId = parseWith(idSchema, c.req.param("actionId"));
    const r = await liftAction(moderator(caller), id, actionId);
    if (!r.ok && r.reason === "lifted") throw conflict("This action was already lifted.", "lifted");
    if (!r.ok) throw notFound("No such action.");
    return answer(c, "DELETE /api/admin/members/:profileId/actions/:actionId", r.action);
  })
  .delete("/members/:profileId/review", async (c) => {
    const caller = requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    if (!(await endReview(moderator(caller), id))) throw notFound("No such member.");
    return answer(c, "DELETE /api/admin/members/:profileId/review", { ok: true });
  })
  .delete("/members/:profileId/sending-pause", async (c) => {
    const caller = requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    if (!(await resumeSending(moderator(caller), id))) throw notFound("This member's sending is not paused.");
    return answer(c, "DELETE /api/admin/members/:profileId/sending-pause", { ok: true });
  })
  .post("/members/:profileId/notes", async (c) => {
    const caller = requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    const body = await bodyOf(c, "POST /api/admin/members/:profileId/notes");
    if (!(await memberExists(id))) throw notFound("No such member.");
    return answer(c, "POST /api/admin/members/:profileId/notes", await addModNote(moderator(caller), id, body.text));
  });

async function memberExists(profileId: string): Promise<boolean> {
  return (await getProfile(profileId)) !== null;
}
