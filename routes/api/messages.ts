/**
 * Messages (spec §7): GET /api/messages/most-recent-with/{profileId},
 * GET /api/messages/between/{a}/{b}, POST /api/message, GET /api/messages/by-sector/{sector},
 * and PUT /api/messages/read/{otherProfileId} (read receipts: no state change on GET); deleting:
 * DELETE /api/message/{id}?for=me|both (both: "unsend", its sender within 10 minutes) and
 * DELETE /api/messages/with/{otherProfileId} (the whole conversation, from my side).
 * Lists answer `{items, hasMore, people}`; `people` names each sender or partner once.
 */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { ApiError, badRequest, conflict, dailyLimit, forbidden, notFound, tooMany } from "../errors.ts";
import { jsonBody, parseWith, queryOf } from "../validate.ts";
import { requireCaller } from "../middleware.ts";
import { refuseIfRestricted } from "../policy.ts";
import { MAX_TEXT } from "../../domain/texts.ts";
import {
  broadcastsSeenBy,
  conversationsOf,
  conversationWith,
  deleteConversation,
  deleteMessage,
  type DeleteRefusal,
  hasConversation,
  markRead,
  messageBySendKey,
  openViewOnce,
  peopleOf,
  seenBy,
  sendBroadcast,
  sendPrivateMessage,
} from "../../kv/messages.ts";
import { getProfile, isVerified } from "../../kv/profiles.ts";
import { onlyVerifiedMessages } from "../../kv/games/identify.ts";
import { VERIFIED_TEXTS } from "../../domain/verified.ts";
import { clearChatNotification } from "../../kv/notifications.ts";
import { blockedSet, isBlockedEither } from "../../kv/blocks.ts";
import { getShownPosition } from "../../kv/positions.ts";
import { isId } from "../../kv/ids.ts";
import { hit, hitNewMember, hitStandard, STANDARD_LIMIT_MESSAGE } from "../../kv/ratelimit.ts";
import { sendingPause } from "../../kv/moderation.ts";
import { checkFirstMessage, isEarlyMessage } from "../../kv/spam.ts";
import { MODERATION_TEXTS } from "../../domain/moderation.ts";
import { phrase } from "../../domain/phrases.ts";

const id = z.string().refine(isId, "must be a valid id");
export const windowQuery = z.object({ sinceMessageId: id.optional(), beforeMessageId: id.optional() })
  .refine((w) => !(w.sinceMessageId && w.beforeMessageId), "use sinceMessageId or beforeMessageId, not both");
const sectorParam = z.string().regex(/^-?\d{1,2}:-?\d{1,3}$/, "a sector is lat:lon in whole degrees")
  .refine((s) => {
    const [lat, lon] = s.split(":").map(Number);
    return lat >= -90 && lat <= 90 && lon >= -180 && lon < 180;
  }, "sector out of range");

/** A page's idempotency key for one send (islands/queries/outbox.ts makes them). */
export const sendKeyHeader = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "A bad Idempotency-Key header.").optional();

export const messageBody = z.object({
  recipientProfileId: id.nullish(),
  senderProfileId: id,
  bodyText: z.string().max(MAX_TEXT + 1000).default(""),
  profilePicIds: z.array(id).max(10).default([]),
  tsCreated: z.number().optional(),
  viewOnce: z.boolean().optional(),
});

const DELETE_REFUSALS: Record<DeleteRefusal, () => Error> = {
  not_found: () => notFound("No such message."),
  not_sender: () => forbidden("Only its sender can delete a message for both sides."),
  too_late: () => conflict("A message can be deleted for both sides within 10 minutes of sending.", "too_late"),
};

export const deleteMessageQuery = z.object({ for: z.enum(["me", "both"]).default("me") });

export const sectorPageQuery = z.object({ page: z.coerce.number().int().min(0).max(50).default(0) });

export const messages = new Hono<AppEnv>()
  .delete("/message/:id", async (c) => {
    const caller = requireCaller(c);
    const messageId = parseWith(id, c.req.param("id"));
    const { for: scope } = queryOf(c, deleteMessageQuery);
    const res = await deleteMessage(caller.profileId, messageId, scope);
    if (!res.ok) throw DELETE_REFUSALS[res.reason]();
    return c.json({ deleted: scope });
  })
  .post("/message/:id/open", async (c) => {
    const caller = requireCaller(c);
    const opened = await openViewOnce(caller.profileId, parseWith(id, c.req.param("id")));
    if (!opened) throw notFound("Nothing to open: this picture was viewed already.");
    return c.json(opened);
  })
  .delete("/messages/with/:profileId", async (c) => {
    const caller = requireCaller(c);
    const other = parseWith(id, c.req.param("profileId"));
    return c.json({ deleted: await deleteConversation(caller.profileId, other) });
  })
  .get("/messages/most-recent-with/:profileId", async (c) => {
    const caller = requireCaller(c);
    if (c.req.param("profileId") !== caller.profileId) throw forbidden();
    const w = queryOf(c, windowQuery);
    return c.json(await conversationsOf(caller.profileId, await blockedSet(caller.profileId), w));
  })
  .get("/messages/between/:a/:b", async (c) => {
    const caller = requireCaller(c);
    const a = parseWith(id, c.req.param("a")), b = parseWith(id, c.req.param("b"));
    if (a !== caller.profileId && b !== caller.profileId) throw forbidden();
    const other = a === caller.profileId ? b : a;
    if (await isBlockedEither(caller.profileId, other)) throw notFound("No such conversation.");
    return c.json(await conversationWith(caller.profileId, other, queryOf(c, windowQuery)));
  })
  .put("/messages/read/:other", async (c) => {
    const caller = requireCaller(c);
    const other = parseWith(id, c.req.param("other"));
    const marked = await markRead(caller.profileId, other);
    // Reading the conversation resets its one notification: the next message starts a new one.
    await clearChatNotification(caller.profileId, other);
    return c.json({ marked });
  })
  .post("/message", async (c) => {
    const caller = requireCaller(c);
    const body = await jsonBody(c, messageBody);
    if (body.senderProfileId !== caller.profileId) throw forbidden("You can only send as yourself.");
    // A retry of a send that was stored (its answer lost, or queued offline) gets the first copy.
    const sendKey = parseWith(sendKeyHeader, c.req.header("idempotency-key"));
    const text = body.bodyText.trim();
    const recipient = body.recipientProfileId;
    // Every read the checks below need, started together: one wait for the store, not one each.
    // Nothing is written until a retry is ruled out and the checks before each write have passed.
    const toOther = recipient && recipient !== caller.profileId ? recipient : null;
    const [sentBefore, me, paused, them, blocked, talking, verifiedOnly, early] = await Promise.all([
      sendKey ? messageBySendKey(caller.profileId, sendKey) : null,
      getProfile(caller.profileId),
      sendingPause(caller.profileId),
      toOther && getProfile(toOther),
      toOther && isBlockedEither(caller.profileId, toOther),
      toOther && hasConversation(caller.profileId, toOther),
      toOther && onlyVerifiedMessages(toOther),
      toOther && text ? isEarlyMessage(caller.profileId, toOther) : false,
    ]);
    if (sentBefore) return c.json(seenBy(sentBefore, caller.profileId), 201);
    if (text.length > MAX_TEXT) throw badRequest(`A message has at most ${MAX_TEXT} characters.`);
    if (!text && body.profilePicIds.length === 0) throw badRequest("Write something or choose a picture.");
    const pics = [...new Set(body.profilePicIds)];
    const own = new Set([...me!.profilePicIds, ...me!.profilePicIdsPrivate]);
    if (pics.some((p) => !own.has(p))) throw forbidden("You can only send your own pictures.");
    if (paused) throw new ApiError(403, "sending_paused", MODERATION_TEXTS.sendingPaused);
    if (recipient) {
      const counted = await Promise.all([
        hit("messageByAccount", caller.accountId),
        hitNewMember("newMemberMessages", caller),
      ]);
      if (counted.includes(false)) throw tooMany();
      if (recipient === caller.profileId) throw badRequest("You cannot message yourself.");
      if (!them || blocked) throw notFound("No such member.");
      // "Only verified members can message me": a new conversation needs the Verified badge. The
      // page keeps the refused message in its outbox (islands/queries/outbox.ts) to send again.
      if (!talking && !isVerified(me!) && verifiedOnly) {
        throw new ApiError(403, "recipient_verified_only", VERIFIED_TEXTS.recipientVerifiedOnly);
      }
      if (!talking) {
        await refuseIfRestricted(caller.profileId, "first_message");
        const [standard, newcomer] = await Promise.all([
          hitStandard("newConversationsPerDay", caller),
          hitNewMember("newMemberConversations", caller),
        ]);
        if (!standard) throw dailyLimit(phrase(STANDARD_LIMIT_MESSAGE));
        if (!newcomer) throw tooMany();
      }
      if (body.viewOnce && (pics.length === 0 || pics.some((p) => !me!.profilePicIdsPrivate.includes(p)))) {
        throw badRequest("View once is for private pictures.", "view_once_private_only");
      }
      // The first messages of a conversation are checked for spam; a match is held for the recipient.
      const held = early && (await checkFirstMessage(caller.profileId, recipient, text)).signs.length > 0;
      const m = await sendPrivateMessage(caller.profileId, recipient, text, pics, {
        viewOnce: body.viewOnce,
        held,
        sendKey,
      });
      return c.json(seenBy(m, caller.profileId), 201);
    }
    if (pics.some((p) => me!.profilePicIdsPrivate.includes(p))) {
      throw forbidden("Private pictures cannot be posted to Map Chat.");
    }
    await refuseIfRestricted(caller.profileId, "map_chat");
    const shown = await getShownPosition(caller.profileId);
    if (!shown) throw conflict("Share your location first: Map Chat posts to the area around you.", "no_position");
    if (!(await hit("broadcastByAccount", caller.accountId)) || !(await hitNewMember("newMemberBroadcasts", caller))) {
      throw tooMany();
    }
    return c.json(await sendBroadcast(caller.profileId, shown.sector, text, pics, { sendKey }), 201);
  })
  .get("/messages/by-sector/:sector", async (c) => {
    const caller = requireCaller(c);
    const sector = parseWith(sectorParam, c.req.param("sector"));
    const { page } = queryOf(c, sectorPageQuery);
    // Blocked members, and members who hide (or are off the map), are left out (kv/messages.ts).
    const res = await broadcastsSeenBy(caller.profileId, sector, page, await blockedSet(caller.profileId));
    return c.json({ ...res, people: await peopleOf(res.items.map((m) => m.senderProfileId)) });
  });
