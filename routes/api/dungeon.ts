/**
 * Bad Boy Dungeon (kv/games/dungeon.ts): the caller's reform card and the count of members serving
 * (never who), the rules quiz that shortens a stay once, the one appeal; and for admins the stays
 * in force and the appeals waiting, the answer to an appeal, and the end of any stay.
 */

import { Hono } from "hono";
import type { AppEnv, Caller } from "../env.ts";
import { conflict, notFound } from "../errors.ts";
import { bodyOf, idempotencyKeyHeader, idSchema, parseWith } from "../validate.ts";
import { requireAdmin, requireCaller } from "../middleware.ts";
import { answer } from "../answer.ts";
import { appealStay, decideAppeal, dungeonAdminList, dungeonView, endStay, takeQuiz } from "../../kv/games/dungeon.ts";
import type { Moderator } from "../../kv/audit.ts";

const who = (c: Caller): Moderator & { profileId: string } => ({
  accountId: c.accountId,
  name: c.name,
  profileId: c.profileId,
});

const NO_STAY = "You are not in a time-out.";

export const dungeon = new Hono<AppEnv>()
  .get("/games/dungeon", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/games/dungeon", await dungeonView(caller.profileId));
  })
  .post("/games/dungeon/quiz", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/games/dungeon/quiz");
    // A retry of a quiz that passed (queued offline, its answer lost) gets the first answer.
    const writeKey = parseWith(idempotencyKeyHeader, c.req.header("idempotency-key"));
    const r = await takeQuiz(who(caller), body.answers, writeKey);
    if (!r.ok) {
      throw r.reason === "used"
        ? conflict("You already used the quiz for this stay.", "quiz_used")
        : conflict(NO_STAY, "no_stay");
    }
    return answer(
      c,
      "POST /api/games/dungeon/quiz",
      r.passed ? { passed: true, card: r.card } : { passed: false, wrong: r.wrong },
    );
  })
  .post("/games/dungeon/appeal", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/games/dungeon/appeal");
    const writeKey = parseWith(idempotencyKeyHeader, c.req.header("idempotency-key"));
    const r = await appealStay(who(caller), body.text, writeKey);
    if (!r.ok) {
      throw r.reason === "appealed"
        ? conflict("You already appealed this stay.", "already_appealed")
        : conflict(NO_STAY, "no_stay");
    }
    return answer(c, "POST /api/games/dungeon/appeal", { card: r.card });
  })
  .get("/admin/dungeon", async (c) => {
    requireAdmin(c);
    return answer(c, "GET /api/admin/dungeon", { items: await dungeonAdminList() });
  })
  .put("/admin/dungeon/appeals/:stayId", async (c) => {
    const caller = requireAdmin(c);
    const stayId = parseWith(idSchema, c.req.param("stayId"));
    const body = await bodyOf(c, "PUT /api/admin/dungeon/appeals/:stayId");
    const r = await decideAppeal(who(caller), stayId, body.decision === "UPHOLD");
    if (!r.ok) {
      throw r.reason === "decided"
        ? conflict("This appeal was already decided.", "decided")
        : notFound("No such appeal.");
    }
    return answer(c, "PUT /api/admin/dungeon/appeals/:stayId", r.stay);
  })
  .delete("/admin/dungeon/stays/:profileId", async (c) => {
    const caller = requireAdmin(c);
    const profileId = parseWith(idSchema, c.req.param("profileId"));
    const r = await endStay(who(caller), profileId);
    if (!r.ok) throw notFound("This member is not in a time-out.");
    return answer(c, "DELETE /api/admin/dungeon/stays/:profileId", r.stay);
  });
