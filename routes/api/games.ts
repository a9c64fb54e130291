/**
 * Community games (design.md): GPT Buster, The Rating Game, Community Arbitration, Help my Photos,
 * the caller's standing toward the volunteer role, and the admin calls that read the results. A
 * real judgement earns a volunteer credit (kv/games/credits.ts): Nice or Meh, a vote, a crop its owner used.
 */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError, badRequest, conflict, notFound } from "../errors.ts";
import { bodyOf, idSchema, parseWith, queryOf } from "../validate.ts";
import { requireAdmin, requireCaller } from "../middleware.ts";
import { picVisibleTo, putPicLike } from "../../kv/likes.ts";
import { isBlockedEither } from "../../kv/blocks.ts";
import { getProfile } from "../../kv/profiles.ts";
import { getCredits, volunteerStatus } from "../../kv/games/credits.ts";
import { castGptVote, gptTally, listGptFlagged, nextGptItem } from "../../kv/games/gptBuster.ts";
import { creditRating, ratingDeck, ratingWrites } from "../../kv/games/ratingGame.ts";
import { hotLiked } from "../../kv/games/hotOrNot.ts";
import {
  arbCase,
  castArbVote,
  decideReport,
  getReport,
  listReportCases,
  mayJudge,
  nextArbItem,
} from "../../kv/games/arbitration.ts";
import {
  acceptCropSuggestion,
  cropProblem,
  getCropSuggestion,
  listCropSuggestions,
  nextCropItem,
  removeCropSuggestion,
  suggestCrop,
  suggestionToBox,
} from "../../kv/games/helpPhotos.ts";
import { countLike, reachableProfile } from "../policy.ts";
import { adminConfirmed, juryDecides } from "../../kv/games/dungeon.ts";
import { getPic } from "../../kv/pictures.ts";
import { cropOwnPicture } from "../../workers/pictures.ts";
import { PictureRejected } from "../../images/pipeline.ts";
import { blockedSet } from "../../kv/blocks.ts";
import { answer } from "../answer.ts";

export const games = new Hono<AppEnv>()
  .get("/games/credits", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/games/credits", { credits: await getCredits(caller.profileId) });
  })
  // The caller's credits of the last 30 days and their earned VOLUNTEER role's end (null: none now).
  .get("/games/volunteer", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/games/volunteer", await volunteerStatus(caller.profileId, caller.accountId));
  })
  // GPT Buster: the next profile text to judge, and the vote on it.
  .get("/games/gptbuster/next", async (c) => {
    const caller = requireCaller(c);
    const [item, credits] = await Promise.all([nextGptItem(caller.profileId), getCredits(caller.profileId)]);
    return answer(c, "GET /api/games/gptbuster/next", { item, credits });
  })
  .put("/games/gptbuster/:profileId", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    const body = await bodyOf(c, "PUT /api/games/gptbuster/:profileId");
    const target = await reachableProfile(caller.profileId, id);
    if (await isBlockedEither(caller.profileId, id)) throw notFound("No such profile.");
    if (!target.description.trim()) throw notFound("That profile has no text to judge.");
    const r = await castGptVote(caller.profileId, id, body.verdict);
    if (!r.ok) throw conflict("You already judged this profile.", "already_voted");
    return answer(c, "PUT /api/games/gptbuster/:profileId", {
      tally: r.tally,
      credited: r.credited,
      credits: r.credits,
    });
  })
  // The Rating Game: a deck of nearby pictures; a rating is a picture like plus a credit.
  .get("/games/ratinggame/deck", async (c) => {
    const caller = requireCaller(c);
    const [items, credits] = await Promise.all([ratingDeck(caller.profileId), getCredits(caller.profileId)]);
    return answer(c, "GET /api/games/ratinggame/deck", { items, credits });
  })
  .put("/games/ratinggame", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "PUT /api/games/ratinggame");
    const owner = await reachableProfile(caller.profileId, body.profilePicProfileId);
    if (await isBlockedEither(caller.profileId, owner.id)) throw notFound("No such picture.");
    if (!(await picVisibleTo(caller.profileId, owner, body.profilePicId))) throw notFound("No such picture.");
    await countLike(caller, body.likeType);
    // The like, the game's record of the rating and its credit are one atomic; the same like again
    // writes no like, and then the record and credit are their own atomic. A Skip earns nothing.
    const judged = body.likeType !== "UNDETERMINED";
    const writes = ratingWrites(caller.profileId, body.profilePicId, judged);
    const { like, changed } = await putPicLike(
      caller.profileId,
      owner.id,
      body.profilePicId,
      body.likeType,
      writes.prepare,
    );
    if (!changed) {
      return answer(c, "PUT /api/games/ratinggame", {
        like,
        ...await creditRating(caller.profileId, body.profilePicId, judged),
      });
    }
    if (body.likeType === "LIKE") await hotLiked(owner.id, body.profilePicId);
    return answer(c, "PUT /api/games/ratinggame", {
      like,
      credited: writes.result.credited,
      credits: await getCredits(caller.profileId),
    });
  })
  // Community Arbitration: the next open report for this juror, and the vote on it.
  .get("/games/arbitration/next", async (c) => {
    const caller = requireCaller(c);
    const [item, credits] = await Promise.all([nextArbItem(caller.profileId), getCredits(caller.profileId)]);
    return answer(c, "GET /api/games/arbitration/next", { item, credits });
  })
  .put("/games/arbitration/:reportId", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("reportId"));
    const body = await bodyOf(c, "PUT /api/games/arbitration/:reportId");
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
    // A strong jury on a small violation decides at once: its member goes to the dungeon.
    const stay = await juryDecides(id);
    const closed = stay ? { ...r.case, status: "CONFIRMED" as const } : r.case;
    return answer(c, "PUT /api/games/arbitration/:reportId", {
      case: closed,
      credited: r.credited,
      credits: r.credits,
    });
  })
  // Help my Photos: suggest a crop for another member's public picture; the owner accepts or dismisses.
  .get("/games/photocrop/next", async (c) => {
    const caller = requireCaller(c);
    const { skip } = queryOf(c, "GET /api/games/photocrop/next");
    const skipped = new Set((skip ?? "").split(",").filter(Boolean).slice(0, 50));
    const [item, credits] = await Promise.all([
      nextCropItem(caller.profileId, skipped),
      getCredits(caller.profileId),
    ]);
    return answer(c, "GET /api/games/photocrop/next", { item, credits });
  })
  .put("/games/photocrop/:picId", async (c) => {
    const caller = requireCaller(c);
    const picId = parseWith(idSchema, c.req.param("picId"));
    const body = await bodyOf(c, "PUT /api/games/photocrop/:picId");
    const pic = await getPic(picId);
    if (!pic) throw notFound("No such picture.");
    const owner = await reachableProfile(caller.profileId, pic.profileId);
    if (await isBlockedEither(caller.profileId, owner.id) || !owner.profilePicIds.includes(picId)) {
      throw notFound("No such picture.");
    }
    if (body.gen !== pic.gen) throw conflict("The picture changed meanwhile. Please look again.", "picture_changed");
    const { gen: _, ...box } = body;
    const problem = cropProblem(box, pic.width, pic.height);
    if (problem) throw badRequest(problem);
    const r = await suggestCrop(caller.profileId, owner.id, pic, box);
    if (!r) throw conflict("You already suggested a crop for this picture.", "already_suggested");
    return answer(c, "PUT /api/games/photocrop/:picId", {
      id: r.suggestion.id,
      credited: r.credited,
      credits: r.credits,
    });
  })
  // The suggestions for the caller's own pictures (never who made them).
  .get("/games/photocrop/suggestions", async (c) => {
    const caller = requireCaller(c);
    const items = await listCropSuggestions(caller.profileId);
    return answer(c, "GET /api/games/photocrop/suggestions", {
      items: items.map(({ suggesterProfileId: _, ...s }) => s),
    });
  })
  .put("/games/photocrop/suggestions/:id", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("id"));
    const body = await bodyOf(c, "PUT /api/games/photocrop/suggestions/:id");
    const s = await getCropSuggestion(caller.profileId, id);
    if (!s) throw notFound("No such suggestion.");
    if (body.action === "DISMISS") {
      await removeCropSuggestion(caller.profileId, id);
      return answer(c, "PUT /api/games/photocrop/suggestions/:id", { id, action: body.action });
    }
    const pic = await getPic(s.picId);
    if (!pic || pic.profileId !== caller.profileId) {
      await removeCropSuggestion(caller.profileId, id);
      throw notFound("That picture is gone.");
    }
    if (pic.gen !== s.gen) {
      await removeCropSuggestion(caller.profileId, id);
      throw conflict("The picture was cropped since this suggestion; it no longer fits.", "picture_changed");
    }
    try {
      const res = await cropOwnPicture(caller.profileId, s.picId, suggestionToBox(pic, s.box));
      if (!res.ok) throw notFound("That picture is gone.");
      // Used: now its suggester earns the credit.
      await acceptCropSuggestion(caller.profileId, id);
      return answer(c, "PUT /api/games/photocrop/suggestions/:id", {
        id,
        action: body.action,
        pic: { id: res.pic.id, gen: res.pic.gen },
      });
    } catch (e) {
      if (e instanceof PictureRejected) throw new ApiError(422, "unreadable_picture", e.reasons.join(" "));
      throw e;
    }
  })
  // Admins: flagged profiles, and reports with their tallies, confirmed or dismissed.
  .get("/admin/games/gptbuster/flagged", async (c) => {
    requireAdmin(c);
    return answer(c, "GET /api/admin/games/gptbuster/flagged", { items: await listGptFlagged() });
  })
  .get("/admin/games/gptbuster/:profileId", async (c) => {
    requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("profileId"));
    if (!(await getProfile(id))) throw notFound("No such profile.");
    return answer(c, "GET /api/admin/games/gptbuster/:profileId", await gptTally(id));
  })
  .get("/admin/reports", async (c) => {
    requireAdmin(c);
    return answer(c, "GET /api/admin/reports", { items: await listReportCases() });
  })
  .put("/admin/reports/:reportId", async (c) => {
    const caller = requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("reportId"));
    const body = await bodyOf(c, "PUT /api/admin/reports/:reportId");
    if (!(await getReport(id))) throw notFound("No such report.");
    const decided = await decideReport(id, caller.profileId, body.decision);
    if (!decided) throw conflict("This report is already closed.", "closed");
    // A small violation confirmed: a time-out in the dungeon (a severe one waits for the admin's action).
    if (body.decision === "CONFIRM") await adminConfirmed(id, { accountId: caller.accountId, name: caller.name });
    return answer(c, "PUT /api/admin/reports/:reportId", { id, case: decided });
  })
  .get("/admin/reports/:reportId", async (c) => {
    requireAdmin(c);
    const id = parseWith(idSchema, c.req.param("reportId"));
    const report = await getReport(id);
    if (!report) throw notFound("No such report.");
    return answer(c, "GET /api/admin/reports/:reportId", { ...report, case: await arbCase(id) });
  });
