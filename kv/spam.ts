/**
 * Spam and scams in first messages. The first messages of a new conversation (up to
 * `EARLY_MESSAGES` from the sender before the other replies) are checked for links, phone
 * numbers, payment handles (domain/moderation.ts `spamSigns`) and the same text sent to many
 * members within an hour. A match is held for the recipient behind "This message may be spam:
 * show it?" and counted for moderation; ten identical first messages in an hour pause the
 * sender's sending until an admin looks (kv/moderation.ts).
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { sha256Hex } from "./ids.ts";
import { now } from "./clock.ts";
import { pauseSending } from "./moderation.ts";
import { forgetHere, forgetKept, keep, keptCopy, readBegins } from "./kept.ts";
import {
  EARLY_MESSAGES,
  SAME_TEXT_PAUSE,
  SAME_TEXT_RECIPIENTS,
  SPAM_WINDOW_MS,
  spamFingerprintText,
  type SpamSign,
  spamSigns,
} from "../domain/moderation.ts";
import type { Message } from "../domain/shapes/messages.ts";

/**
 * Is this message one of the first of its conversation: the other has not replied, and the sender
 * sent fewer than 3? A conversation found past them is kept so by the instance (no read of it at
 * each message) until a message of it is deleted (`forgetPastEarly`).
 */
export async function isEarlyMessage(sender: string, recipient: string): Promise<boolean> {
  if (knownPastEarly(sender, recipient)) return false;
  const began = readBegins();
  const early = await readEarly(sender, recipient);
  if (!early) keep("pastEarly", pairId(sender, recipient), true, began);
  return early;
}

/**
 * Does this instance know the conversation as `sender` sends in it to be past its first messages
 * (no store read)? Then `sender` has messages in it: they are talking.
 */
export function knownPastEarly(sender: string, recipient: string): boolean {
  return keptCopy<true>("pastEarly", pairId(sender, recipient)) === true;
}

/** The kept reads' id of a conversation as `sender` sends in it. */
const pairId = (sender: string, recipient: string) => `${sender}>${recipient}`;

/**
 * Adds to a deletion's atomic: every instance forgets that the conversation of `a` and `b` is past
 * its first messages (either side's may be again, with fewer messages left). Call
 * `forgetPastEarlyHere` once it committed.
 */
export function forgetPastEarly(op: Deno.AtomicOperation, a: string, b: string): void {
  forgetKept(op, "pastEarly", [pairId(a, b), pairId(b, a)]);
}

/** `forgetPastEarly` on this instance at once (the deleting one, right after its commit). */
export function forgetPastEarlyHere(a: string, b: string): void {
  forgetHere("pastEarly", [pairId(a, b), pairId(b, a)]);
}

/** `isEarlyMessage` read from the conversation (never kept). */
async function readEarly(sender: string, recipient: string): Promise<boolean> {
  const ids: string[] = [];
  for await (
    const e of kv().list<string>({ prefix: keys.conversation(sender, recipient) }, {
      reverse: true,
      limit: EARLY_MESSAGES,
    })
  ) ids.push(e.value);
  if (ids.length === 0) return true;
  // Three messages or more: not early, whoever sent them (no need to read them: a round trip saved on remote KV).
  if (ids.length >= EARLY_MESSAGES) return false;
  const msgs = await kv().getMany<Message[]>(ids.map(keys.message));
  if (msgs.some((m) => m.value?.senderProfileId === recipient)) return false;
  return ids.length < EARLY_MESSAGES;
}

/** What the check found: the signs (empty: a plain message), and whether sending is now paused. */
export interface SpamVerdict {
  signs: SpamSign[];
  paused: boolean;
}

/**
 * Checks a first message before it is sent (the caller decides it is one: `isEarlyMessage`), and
 * records its text's fingerprint for the same-text count.
 */
export async function checkFirstMessage(sender: string, recipient: string, text: string): Promise<SpamVerdict> {
  const signs = spamSigns(text);
  const reduced = spamFingerprintText(text);
  if (reduced.length < 8) return { signs, paused: false };
  const print = (await sha256Hex(reduced)).slice(0, 24);
  await kv().set(keys.spamPrint(sender, print, recipient), now(), { expireIn: SPAM_WINDOW_MS });
  let n = 0;
  const since = now() - SPAM_WINDOW_MS;
  for await (const e of kv().list<number>({ prefix: keys.spamPrintsOf(sender, print) })) if (e.value > since) n++;
  if (n >= SAME_TEXT_RECIPIENTS) signs.push("repeated");
  const paused = n >= SAME_TEXT_PAUSE;
  if (paused) await pauseSending(sender, `${n} identical first messages within an hour`);
  return { signs, paused };
}
