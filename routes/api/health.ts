/**
 * The Health Incident Report and its notices (kv/healthNotices.ts): a member's contacts of a
 * period, the report that tells them anonymously, the notices a member got, and totals for admins.
 * No answer, log line or error names a recipient after the report is queued; the sender's answer
 * holds counts only.
 */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError, forbidden, notFound } from "../errors.ts";
import { bodyOf, idSchema, parseWith, queryOf } from "../validate.ts";
import { requireAdmin, requireCaller } from "../middleware.ts";
import {
  healthContacts,
  healthCounts,
  listHealthNotices,
  oldEnough,
  reportHealthNoticeAbuse,
  reportsLeft,
  sendHealthReport,
} from "../../kv/healthNotices.ts";
import { GAME_TEXTS } from "../../domain/games.ts";
import { answer } from "../answer.ts";

export const health = new Hono<AppEnv>()
  .get("/games/healthreport/contacts", async (c) => {
    const caller = requireCaller(c);
    const q = queryOf(c, "GET /api/games/healthreport/contacts");
    const tooNew = !oldEnough(caller.accountCreated);
    const [items, remaining] = await Promise.all([
      tooNew ? Promise.resolve([]) : healthContacts(caller.profileId, q.days),
      reportsLeft(caller.profileId),
    ]);
    return answer(c, "GET /api/games/healthreport/contacts", { items, remaining, tooNew });
  })
  .post("/games/healthreport", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/games/healthreport");
    const r = await sendHealthReport(caller, body.condition, body.days, body.profileIds);
    if (!r.ok) {
      if (r.reason === "too_new") throw new ApiError(403, "account_too_new", GAME_TEXTS.health.tooNew);
      if (r.reason === "limit") throw new ApiError(429, "monthly_limit", GAME_TEXTS.health.limitReached);
      throw forbidden(GAME_TEXTS.health.notAContact);
    }
    return answer(c, "POST /api/games/healthreport", { queued: r.queued, credited: r.credited, credits: r.credits });
  })
  .get("/games/cooties", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/games/cooties", { items: await listHealthNotices(caller.profileId) });
  })
  .post("/games/cooties/:id/abuse", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("id"));
    if (!(await reportHealthNoticeAbuse(caller.profileId, id))) throw notFound("No such notice.");
    return answer(c, "POST /api/games/cooties/:id/abuse", { ok: true as const });
  })
  .get("/admin/games/healthreport", async (c) => {
    requireAdmin(c);
    return answer(c, "GET /api/admin/games/healthreport", await healthCounts());
  });
