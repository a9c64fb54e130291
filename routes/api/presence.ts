/**
 * Online now, last seen and typing (kv/presence.ts, kv/events.ts):
 *   GET  /api/presence?ids=a,b   → {id: {online, lastSeen} | null} (null: hidden, blocked, or I hide mine)
 *   PUT  /api/presence {hidden}  → hide or show my own status (hiding, I see no one's)
 *   POST /api/presence/looking {at}  → the conversation (a member's id) I have open in view now, or null:
 *                                  no push for it meanwhile (kv/presence.ts; the page says it again
 *                                  every LOOKING_EVERY_MS while it stays in view)
 *   POST /api/typing/{profileId} → tells that member I am typing (domain/typing.ts: passed on at most
 *                                  once per TYPING_SERVER_GAP_MS per pair)
 */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { notFound } from "../errors.ts";
import { bodyOf, idParam, queryOf } from "../validate.ts";
import { requireCaller } from "../middleware.ts";
import { hidesPresence, presenceOf, setLookingAt, setPresenceHidden } from "../../kv/presence.ts";
import { blockedSet, isBlockedEither } from "../../kv/blocks.ts";
import { publishEvent } from "../../kv/events.ts";
import { now } from "../../kv/clock.ts";
import { TYPING_SERVER_GAP_MS } from "../../domain/typing.ts";
import { answer } from "../answer.ts";

const lastTyping = new Map<string, number>();

export const presence = new Hono<AppEnv>()
  .get("/presence", async (c) => {
    const caller = requireCaller(c);
    const { ids } = queryOf(c, "GET /api/presence");
    const [all, blocked] = await Promise.all([presenceOf(caller.profileId, ids), blockedSet(caller.profileId)]);
    for (const id of ids) if (blocked.has(id)) all[id] = null;
    return answer(c, "GET /api/presence", all);
  })
  .put("/presence", async (c) => {
    const caller = requireCaller(c);
    const { hidden } = await bodyOf(c, "PUT /api/presence");
    await setPresenceHidden(caller.profileId, hidden);
    return answer(c, "PUT /api/presence", { hidden: await hidesPresence(caller.profileId) });
  })
  .post("/presence/looking", async (c) => {
    const caller = requireCaller(c);
    const { at } = await bodyOf(c, "POST /api/presence/looking");
    await setLookingAt(caller.profileId, at === caller.profileId ? null : at);
    return c.body(null, 204);
  })
  .post("/typing/:profileId", async (c) => {
    const caller = requireCaller(c);
    const other = idParam(c, "profileId");
    if (other === caller.profileId || await isBlockedEither(caller.profileId, other)) throw notFound("No such member.");
    const pair = `${caller.profileId}>${other}`, t = now();
    if (t - (lastTyping.get(pair) ?? 0) >= TYPING_SERVER_GAP_MS) {
      lastTyping.set(pair, t);
      if (lastTyping.size > 10_000) lastTyping.clear();
      await publishEvent([other], { type: "typing", from: caller.profileId });
    }
    return c.body(null, 204);
  });
