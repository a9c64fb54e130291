/**
 * Hot or Not (docs/decisions/0154-hot-or-not.md): a member tests 2 to 4 of their public pictures
 * and alone reads the result; voters pick the better of two pictures of one anonymous member
 * (a counted vote earns a volunteer credit); 'Keep my best picture first' and its Undo.
 */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { badRequest, conflict, forbidden, notFound } from "../errors.ts";
import { bodyOf, idSchema, parseWith, queryOf } from "../validate.ts";
import { requireAdmin, requireCaller } from "../middleware.ts";
import { answer } from "../answer.ts";
import { getCredits } from "../../kv/games/credits.ts";
import { isBlockedEither } from "../../kv/blocks.ts";
import {
  castVote,
  dealtPicture,
  getTest,
  hotOrNotCounts,
  hotOrNotState,
  nextPair,
  putBestFirst,
  setKeepBest,
  startTest,
  stopTest,
  testView,
  undoKeepBest,
} from "../../kv/games/hotOrNot.ts";
import { loadVariant } from "../../workers/pictures.ts";

/** A dealt picture is the voter's for a while only: never kept by a cache. */
const NO_STORE = { "Cache-Control": "no-store, private", "X-Content-Type-Options": "nosniff" };

/** The caller's own test, or 404 (a test of someone else is answered as missing: results are private). */
async function ownTest(owner: string, id: string) {
  const test = await getTest(id);
  if (!test || test.ownerProfileId !== owner) throw notFound("No such test.");
  return test;
}

export const hotOrNot = new Hono<AppEnv>()
  .get("/games/hotornot", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/games/hotornot", await hotOrNotState(caller.profileId));
  })
  .post("/games/hotornot/tests", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/games/hotornot/tests");
    const r = await startTest(caller.profileId, body.picIds);
    if (!r.ok) {
      if (r.reason === "running") throw conflict("You already have a test running.", "test_running");
      if (r.reason === "repeated") throw badRequest("Each picture only once.");
      throw badRequest("Pick only your own public pictures.", "not_your_picture");
    }
    return answer(c, "POST /api/games/hotornot/tests", { test: await testView(r.test) });
  })
  .get("/games/hotornot/tests/:testId", async (c) => {
    const caller = requireCaller(c);
    const test = await ownTest(caller.profileId, parseWith(idSchema, c.req.param("testId")));
    return answer(c, "GET /api/games/hotornot/tests/:testId", { test: await testView(test) });
  })
  .delete("/games/hotornot/tests/:testId", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("testId"));
    await ownTest(caller.profileId, id);
    const stopped = await stopTest(caller.profileId, id);
    if (!stopped) throw conflict("This test has already ended.", "test_ended");
    return answer(c, "DELETE /api/games/hotornot/tests/:testId", { test: await testView(stopped) });
  })
  .post("/games/hotornot/tests/:testId/best-first", async (c) => {
    const caller = requireCaller(c);
    const id = parseWith(idSchema, c.req.param("testId"));
    await ownTest(caller.profileId, id);
    const r = await putBestFirst(caller.profileId, id);
    if (!r.ok) {
      if (r.reason === "running") throw conflict("The test is still running.", "test_running");
      throw conflict("That picture is no longer among your public pictures.", "picture_gone");
    }
    return answer(c, "POST /api/games/hotornot/tests/:testId/best-first", { profilePicIds: r.profilePicIds });
  })
  // Voting: a pair of one anonymous member's pictures, and the vote (queued on the device when offline).
  .get("/games/hotornot/next", async (c) => {
    const caller = requireCaller(c);
    const q = queryOf(c, "GET /api/games/hotornot/next");
    const [item, credits] = await Promise.all([
      nextPair(caller.profileId, q.nsfw === "1"),
      getCredits(caller.profileId),
    ]);
    return answer(c, "GET /api/games/hotornot/next", { item, credits });
  })
  // A picture of the pair dealt to the caller, served through the deal: the voter never learns its id.
  .get("/games/hotornot/pair/:testId/:side", async (c) => {
    const caller = requireCaller(c);
    const testId = parseWith(idSchema, c.req.param("testId"));
    const side = parseWith(z.enum(["left", "right"]), c.req.param("side"));
    const test = await getTest(testId);
    if (!test || await isBlockedEither(caller.profileId, test.ownerProfileId)) throw notFound("No such picture.");
    const dealt = await dealtPicture(caller.profileId, testId, side);
    const served = dealt && await loadVariant(dealt.pic, { size: 512, blur: dealt.blur });
    if (!served) throw notFound("No such picture.");
    return c.body(served.bytes as Uint8Array<ArrayBuffer>, 200, { "Content-Type": served.type, ...NO_STORE });
  })
  .put("/games/hotornot/vote", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "PUT /api/games/hotornot/vote");
    // A member blocked either way (or withdrawn) is answered as if the test did not exist.
    const test = await getTest(body.testId);
    if (!test || await isBlockedEither(caller.profileId, test.ownerProfileId)) throw notFound("No such test.");
    const r = await castVote(caller.profileId, body);
    if (!r.ok) {
      if (r.reason === "own_test") throw forbidden("You cannot vote on your own test.");
      if (r.reason === "ended") throw conflict("That test has ended.", "test_ended");
      if (r.reason === "not_dealt") throw conflict("That pair was not dealt to you.", "not_dealt");
      throw notFound("No such test.");
    }
    const { ok: _, ...vote } = r;
    return answer(c, "PUT /api/games/hotornot/vote", vote);
  })
  .put("/games/hotornot/keep-best", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "PUT /api/games/hotornot/keep-best");
    return answer(c, "PUT /api/games/hotornot/keep-best", { keepBest: await setKeepBest(caller.profileId, body.on) });
  })
  .post("/games/hotornot/keep-best/undo", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "POST /api/games/hotornot/keep-best/undo", await undoKeepBest(caller.profileId));
  })
  // Admins: counts only, never a picture, a member or a share.
  .get("/admin/games/hotornot", async (c) => {
    requireAdmin(c);
    return answer(c, "GET /api/admin/games/hotornot", await hotOrNotCounts());
  });
