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
import { bodyOf, idempotencyKeyHeader, parseWith, queryOf } from "../validate.ts";
import { requireCaller } from "../middleware.ts";
import { refuseRestricted } from "../policy.ts";
import { restrictionOf } from "../../kv/games/dungeon.ts";
import { MAX_TEXT } from "../../domain/texts.ts";
import { deleteMySecretPicturesWith } from "../../kv/secretChats.ts";
import {
  broadcastsSeenBy,
  conversationsOf,
  conversationWith,
  deleteConversation,
  deleteMessage,
  type DeleteRefusal,
  hasConversation,
  messageBySendKey,
  openViewOnce,
  peopleOf,
  readConversation,
  seenBy,
  sendBroadcast,
  SendConflict,
  sendPrivateMessage,
} from "../../kv/messages.ts";
import { getProfile, isVerified } from "../../kv/profiles.ts";
import { pushReachable } from "../../kv/push.ts";
import { onlyVerifiedMessages } from "../../kv/games/identify.ts";
import { VERIFIED_TEXTS } from "../../domain/verified.ts";
import { blockedSet, isBlockedEither } from "../../kv/blocks.ts";
import { getShownPosition } from "../../kv/positions/mod.ts";
import { storeId as id } from "../../domain/requestParts.ts";
import {
  type LimitName,
  newMemberApplies,
  type ReadHit,
  readHits,
  STANDARD_LIMIT_MESSAGE,
  standardApplies,
  withinLimit,
} from "../../kv/ratelimit.ts";
import { readChatNotification } from "../../kv/notifications.ts";
import { sendingPause } from "../../kv/moderation.ts";
import { checkFirstMessage, isEarlyMessage, knownPastEarly } from "../../kv/spam.ts";
import { MODERATION_TEXTS } from "../../domain/moderation.ts";
import { phrase } from "../../domain/phrases.ts";
import { answer } from "../answer.ts";

const sectorParam = z.string().regex(/^-?\d{1,2}:-?\d{1,3}$/, "a sector is lat:lon in whole degrees")
  .refine((s) => {
    const [lat, lon] = s.split(":").map(Number);
    return lat >= -90 && lat <= 90 && lon >= -180 && lon < 180;
  }, "sector out of range");

const DELETE_REFUSALS: Record<DeleteRefusal, () => Error> = {
  not_found: () => notFound("No such message."),
  not_sender: () => forbidden("Only its sender can delete a message for both sides."),
  too_late: () => conflict("A message can be deleted for both sides within 10 minutes of sending.", "too_late"),
};

/** The limits a new conversation counts (beside every message's). */
const CONVERSATION_LIMITS = ["newConversationsPerDay", "newMemberConversations"] as const;
/** The limits every message counts. */
const MESSAGE_LIMITS = ["messageByAccount", "newMemberMessages"] as const;
/**
 * Tries of a send whose counts moved under it (the same member sending at once, from several
 * instances or tabs). Each retry first waits a random part of a doubling pause (full jitter), so
 * sends that met come back apart instead of meeting again.
 */
const SEND_ATTEMPTS = 10;

/** The pause before retry `attempt` of a send whose counts moved: up to 2, 4, 8 … 64 ms. */
function sendRetryPause(attempt: number): Promise<void> {
  return new Promise((r) => setTimeout(r, Math.random() * 2 ** Math.min(attempt, 6)));
}

/**
 * The limits that apply to a private message of `caller` (the conversation's counted only if it is
 * new); `going`: the conversation is known to be under way, so its new-conversation counts are not
 * even read.
 */
function privateLimits(
  caller: { accountId: string; roles: readonly string[]; accountCreated: number },
  going: boolean,
) {
  const out: { name: LimitName; who: string }[] = [{ name: "messageByAccount", who: caller.accountId }];
  if (newMemberApplies(caller)) out.push({ name: "newMemberMessages", who: caller.accountId });
  if (going) return out;
  if (standardApplies(caller)) out.push({ name: "newConversationsPerDay", who: caller.accountId });
  if (newMemberApplies(caller)) out.push({ name: "newMemberConversations", who: caller.accountId });
  return out;
}

/** The limits that apply to a Map Chat post of `caller`. */
function broadcastLimits(caller: { accountId: string; accountCreated: number }) {
  const out: { name: LimitName; who: string }[] = [{ name: "broadcastByAccount", who: caller.accountId }];
  if (newMemberApplies(caller)) out.push({ name: "newMemberBroadcasts", who: caller.accountId });
  return out;
}

/** Are the every-message limits of the read counts within bounds? */
const withinMessageLimit = (hits: readonly ReadHit[]) =>
  withinLimit(hits.filter((h) => (MESSAGE_LIMITS as readonly string[]).includes(h.name)));

export const messages = new Hono<AppEnv>()
  .delete("/message/:id", async (c) => {
    const caller = requireCaller(c);
    const messageId = parseWith(id, c.req.param("id"));
    const { for: scope } = queryOf(c, "DELETE /api/message/:id");
    const res = await deleteMessage(caller.profileId, messageId, scope);
    if (!res.ok) throw DELETE_REFUSALS[res.reason]();
    return answer(c, "DELETE /api/message/:id", { deleted: scope });
  })
  .post("/message/:id/open", async (c) => {
    const caller = requireCaller(c);
    const opened = await openViewOnce(caller.profileId, parseWith(id, c.req.param("id")));
    if (!opened) throw notFound("Nothing to open: this picture was viewed already.");
    return answer(c, "POST /api/message/:id/open", opened);
  })
  .delete("/messages/with/:profileId", async (c) => {
    const caller = requireCaller(c);
    const other = parseWith(id, c.req.param("profileId"));
    const deleted = await deleteConversation(caller.profileId, other);
    // The pictures they sent in their secret chat with that member leave the server too.
    await deleteMySecretPicturesWith(caller.profileId, other);
    return answer(c, "DELETE /api/messages/with/:profileId", { deleted });
  })
  .get("/messages/most-recent-with/:profileId", async (c) => {
    const caller = requireCaller(c);
    if (c.req.param("profileId") !== caller.profileId) throw forbidden();
    const w = queryOf(c, "GET /api/messages/most-recent-with/:profileId");
    // The block lists are read beside the conversations' index, not before it.
    return answer(
      c,
      "GET /api/messages/most-recent-with/:profileId",
      await conversationsOf(caller.profileId, blockedSet(caller.profileId), w),
    );
  })
  .get("/messages/between/:a/:b", async (c) => {
    const caller = requireCaller(c);
    const a = parseWith(id, c.req.param("a")), b = parseWith(id, c.req.param("b"));
    if (a !== caller.profileId && b !== caller.profileId) throw forbidden();
    const other = a === caller.profileId ? b : a;
    const w = queryOf(c, "GET /api/messages/between/:a/:b");
    // The page is read beside the block check (one wait, not two) and dropped unseen when blocked.
    const [blocked, page] = await Promise.all([
      isBlockedEither(caller.profileId, other),
      conversationWith(caller.profileId, other, w),
    ]);
    if (blocked) throw notFound("No such conversation.");
    return answer(c, "GET /api/messages/between/:a/:b", page);
  })
  .put("/messages/read/:other", async (c) => {
    const caller = requireCaller(c);
    const other = parseWith(id, c.req.param("other"));
    // Reading the conversation also resets its one notification: the next message starts a new one.
    const marked = await readConversation(caller.profileId, other);
    return answer(c, "PUT /api/messages/read/:other", { marked });
  })
  .post("/message", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/message");
    if (body.senderProfileId !== caller.profileId) throw forbidden("You can only send as yourself.");
    // A retry of a send that was stored (its answer lost, or queued offline) gets the first copy.
    const sendKey = parseWith(idempotencyKeyHeader, c.req.header("idempotency-key"));
    const text = body.bodyText.trim();
    const recipient = body.recipientProfileId;
    // Every read the checks below need, started together: one wait for the store, not one each.
    // Nothing is written until a retry is ruled out and the checks before each write have passed;
    // the rate limits' counts are read here and counted in the message's own atomic.
    const toOther = recipient && recipient !== caller.profileId ? recipient : null;
    // A conversation this instance knows to be past its first messages is one they are in: what
    // decides a new conversation or a first message is not read again.
    const going = toOther !== null && knownPastEarly(caller.profileId, toOther);
    const limits = recipient ? privateLimits(caller, going) : broadcastLimits(caller);
    const readCounts = () =>
      Promise.all([readHits(limits), toOther ? readChatNotification(toOther, caller.profileId) : undefined]);
    // The sender's own profile is read with the others when the message carries pictures (are they
    // theirs?); a first message to a member who takes only verified senders reads it after.
    const withPictures = body.profilePicIds.length > 0;
    const [sentBefore, mine, paused, them, blocked, talking, verifiedOnly, early, firstCounts, restriction, reachable] =
      await Promise.all([
        sendKey ? messageBySendKey(caller.profileId, sendKey) : null,
        withPictures ? getProfile(caller.profileId) : null,
        sendingPause(caller.profileId),
        toOther && getProfile(toOther),
        toOther && isBlockedEither(caller.profileId, toOther),
        going || (toOther && hasConversation(caller.profileId, toOther)),
        !going && toOther && onlyVerifiedMessages(toOther),
        !going && toOther && text ? isEarlyMessage(caller.profileId, toOther) : false,
        readCounts(),
        // A member in a time-out may not start conversations nor post in Map Chat (Bad Boy Dungeon).
        going ? null : restrictionOf(caller.profileId),
        // No push job for a recipient with no device to push to.
        toOther ? pushReachable(toOther) : false,
      ]);
    if (sentBefore) return answer(c, "POST /api/message", seenBy(sentBefore, caller.profileId));
    if (text.length > MAX_TEXT) throw badRequest(`A message has at most ${MAX_TEXT} characters.`);
    if (!text && body.profilePicIds.length === 0) throw badRequest("Write something or choose a picture.");
    const pics = [...new Set(body.profilePicIds)];
    const own = new Set([...mine?.profilePicIds ?? [], ...mine?.profilePicIdsPrivate ?? []]);
    if (pics.some((p) => !own.has(p))) throw forbidden("You can only send your own pictures.");
    const me = async () => mine ?? await getProfile(caller.profileId);
    if (paused) throw new ApiError(403, "sending_paused", MODERATION_TEXTS.sendingPaused);
    if (recipient) {
      // The hits this message counts: every message's, and a new conversation's.
      const counted = (hits: ReadHit[]) =>
        hits.filter((h) => !talking || !(CONVERSATION_LIMITS as readonly string[]).includes(h.name));
      // The message limit is told before the recipient is looked at; a new conversation's after.
      const refusal = (hits: ReadHit[]) => {
        if (!withinMessageLimit(hits)) return tooMany();
        if (talking) return null;
        if (!withinLimit(hits.filter((h) => h.name === "newConversationsPerDay"))) {
          return dailyLimit(phrase(STANDARD_LIMIT_MESSAGE));
        }
        return withinLimit(hits.filter((h) => h.name === "newMemberConversations")) ? null : tooMany();
      };
      if (!withinMessageLimit(firstCounts[0])) throw tooMany();
      if (recipient === caller.profileId) throw badRequest("You cannot message yourself.");
      if (!them || blocked) throw notFound("No such member.");
      // "Only verified members can message me": a new conversation needs the Verified badge. The
      // page keeps the refused message in its outbox (islands/queries/outbox.ts) to send again.
      if (!talking && verifiedOnly && !isVerified((await me())!)) {
        throw new ApiError(403, "recipient_verified_only", VERIFIED_TEXTS.recipientVerifiedOnly);
      }
      if (!talking) refuseRestricted(restriction, "first_message");
      const over = refusal(firstCounts[0]);
      if (over) throw over;
      if (body.viewOnce && (pics.length === 0 || pics.some((p) => !mine!.profilePicIdsPrivate.includes(p)))) {
        throw badRequest("View once is for private pictures.", "view_once_private_only");
      }
      // The first messages of a conversation are checked for spam; a match is held for the recipient.
      const held = early && (await checkFirstMessage(caller.profileId, recipient, text)).signs.length > 0;
      let [hits, notification] = firstCounts;
      for (let attempt = 1;; attempt++) {
        try {
          const m = await sendPrivateMessage(caller.profileId, recipient, text, pics, {
            viewOnce: body.viewOnce,
            held,
            sendKey,
            counted: counted(hits),
            notification,
            reachable,
          });
          return answer(c, "POST /api/message", seenBy(m, caller.profileId));
        } catch (e) {
          // Another send of this member moved a count meanwhile: read the counts again and retry.
          if (!(e instanceof SendConflict) || attempt >= SEND_ATTEMPTS) throw e;
          await sendRetryPause(attempt);
          [hits, notification] = await readCounts();
          const again = refusal(hits);
          if (again) throw again;
        }
      }
    }
    if (pics.some((p) => mine!.profilePicIdsPrivate.includes(p))) {
      throw forbidden("Private pictures cannot be posted to Map Chat.");
    }
    refuseRestricted(restriction, "map_chat");
    const shown = await getShownPosition(caller.profileId);
    if (!shown) throw conflict("Share your location first: Map Chat posts to the area around you.", "no_position");
    let [hits] = firstCounts;
    for (let attempt = 1;; attempt++) {
      if (!withinLimit(hits)) throw tooMany();
      try {
        return answer(
          c,
          "POST /api/message",
          await sendBroadcast(caller.profileId, shown.sector, text, pics, { sendKey, counted: hits }),
        );
      } catch (e) {
        if (!(e instanceof SendConflict) || attempt >= SEND_ATTEMPTS) throw e;
        await sendRetryPause(attempt);
        [hits] = await readCounts();
      }
    }
  })
  .get("/messages/by-sector/:sector", async (c) => {
    const caller = requireCaller(c);
    const sector = parseWith(sectorParam, c.req.param("sector"));
    const { page } = queryOf(c, "GET /api/messages/by-sector/:sector");
    // Blocked members, and members who hide (or are off the map), are left out (kv/messages.ts).
    const res = await broadcastsSeenBy(caller.profileId, sector, page, await blockedSet(caller.profileId));
    return answer(c, "GET /api/messages/by-sector/:sector", {
      ...res,
      people: await peopleOf(res.items.map((m) => m.senderProfileId)),
    });
  });
