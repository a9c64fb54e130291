/**
 * Community games (design.md): GPT Buster, The Rating Game, Community Arbitration, and the admin
 * calls that read their results. Every game action earns a volunteer credit (kv/games.ts).
 */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { conflict, dailyLimit, notFound } from "../errors.ts";
import { jsonBody, parseWith } from "../validate.ts";
import { requireAdmin, requireCaller } from "../middleware.ts";
import { hitStandard, STANDARD_LIMIT_MESSAGE } from "../../kv/ratelimit.ts";
import { LIKE_TYPES, picVisibleTo, putPicLike } from "../../kv/likes.ts";
import { isBlockedEither } from "../../kv/blocks.ts";
import { getProfile } from "../../kv/profiles.ts";
import {
  ARB_DECISIONS,
  ARB_VERDICTS,
  arbCase,
  castArbVote,
  castGptVote,
  creditRating,
  decideReport,
  getCredits,
  getReport,
  GPT_VERDICTS,
  gptTally,
  listGptFlagged,
  listReportCases,
  mayJudge,
  nextArbItem,
  nextGptItem,
  ratingDeck,
} from "../../kv/games.ts";
import { idSchema, reachableProfile } from "./likes.ts";
import { blockedSet } from "../../kv/blocks.ts";

const gptBody = z.object({ verdict: z.enum(GPT_VERDICTS) });
const ratingBody = z.object({
  profilePicId: idSchema,
  profilePicProfileId: idSchema,
  likeType: z.enum(LIKE_TYPES),
});
const arbBody = z.object({ verdict: z.enum(ARB_VERDICTS) });
const decisionBody = z.object({ decision: z.enum(ARB_DECISIONS) });

export const games = new Hono<AppEnv>()
  .get("/games/credits", async (c) => {
    const caller = requireCaller(c);
    return c.json({ credits: await getCredits(caller.profileId) });
  })
  // GPT Buster: the next profile text to judge, and the vote on it.
  .get("/games/gptbuster/next", async (c) => {
    const caller = requireCaller(c);
    const [item, credits] = await Promise.all([nextGptItem(caller.profileId), getCredits(caller.profileId)]);
    return c.json({ item, credits });
  })
  .put("/games/gptbuster/:profileId", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    const body = await jsonBody(c, gptBody);
    const target = await reachableProfile(caller.profileId, id);
    if (await isBlockedEither(caller.profileId, id)) throw notFound("No such profile.");
    if (!target.description.trim()) throw notFound("That profile has no text to judge.");
    const r = await castGptVote(caller.profileId, id, body.verdict);
    if (!r.ok) throw conflict("You already judged this profile.", "already_voted");
    return c.json({ tally: r.tally, credited: r.credited, credits: r.credits });
  })
  // The Rating Game: a deck of nearby pictures; a rating is a picture like plus a credit.
  .get("/games/ratinggame/deck", async (c) => {
    const caller = requireCaller(c);
    const [items, credits] = await Promise.all([ratingDeck(caller.profileId), getCredits(caller.profileId)]);
    return c.json({ items, credits });
  })
  .put("/games/ratinggame", async (c) => {
    const caller = requireCaller(c);
    const body = await jsonBody(c, ratingBody);
    const owner = await reachableProfile(caller.profileId, body.profilePicProfileId);
    if (await isBlockedEither(caller.profileId, owner.id)) throw notFound("No such picture.");
    if (!(await picVisibleTo(caller.profileId, owner, body.profilePicId))) throw notFound("No such picture.");
    if (body.likeType === "LIKE" && !(await hitStandard("likesPerDay", caller))) {
      throw dailyLimit(STANDARD_LIMIT_MESSAGE);
    }
    const { like } = await putPicLike(caller.profileId, owner.id, body.profilePicId, body.likeType);
    const credit = await creditRating(caller.profileId, body.profilePicId);
    return c.json({ like, ...credit });
  })
  // Community Arbitration: the next open report for this juror, and the vote on it.
  .get("/games/arbitration/next", async (c) => {
    const caller = requireCaller(c);
    const [item, credits] = await Promise.all([nextArbItem(caller.profileId), getCredits(caller.profileId)]);
    return c.json({ item, credits });
  })
  .put("/games/arbitration/:reportId", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("reportId"));
    const body = await jsonBody(c, arbBody);
    const report = await getReport(id);
    if (!report) throw notFound("No such report.");
    if (!mayJudge(caller.profileId, report, await blockedSet(caller.profileId))) {
      throw conflict("You cannot judge a report about yourself or by yourself.", "not_a_juror");
    }
    const r = await castArbVote(caller.profileId, id, body.verdict);
    if (!r.ok) {
      throw r.reason === "voted"
        ? conflict("You already judged this report.", "already_voted")
        : conflict("This report is closed.", "closed");
    }
    return c.json({ case: r.case, credited: r.credited, credits: r.credits });
  })
  // Admins: flagged profiles, and reports with their tallies, confirmed or dismissed.
  .get("/admin/games/gptbuster/flagged", async (c) => {
    requireAdmin(c);
    return c.json({ items: await listGptFlagged() });
  })
  .get("/admin/games/gptbuster/:profileId", async (c) => {
    requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    if (!(await getProfile(id))) throw notFound("No such profile.");
    return c.json(await gptTally(id));
  })
  .get("/admin/reports", async (c) => {
    requireAdmin(c);
    return c.json({ items: await listReportCases() });
  })
  .put("/admin/reports/:reportId", async (c) => {
    const caller = requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("reportId"));
    const body = await jsonBody(c, decisionBody);
    if (!(await getReport(id))) throw notFound("No such report.");
    const decided = await decideReport(id, caller.profileId, body.decision);
    if (!decided) throw conflict("This report is already closed.", "closed");
    return c.json({ id, case: decided });
  })
  .get("/admin/reports/:reportId", async (c) => {
    requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("reportId"));
    const report = await getReport(id);
    if (!report) throw notFound("No such report.");
    return c.json({ ...report, case: await arbCase(id) });
  });
