/**
 * Messages: one-to-one chat and Map Chat broadcasts (spec §2, §3).
 *
 * A private message is stored once (`messages/id`) and indexed on both sides of the
 * conversation (`conversations/me/other/id`), with each side's latest message in `chats/me/other`
 * for "Your Conversations" — all in the one atomic that also grants the recipient access to
 * the attached pictures (so they stay visible to them if the owner makes one private later) and
 * notifies them. Broadcasts live in their 1-degree sector of the
 * sender's SHOWN position (never the reported one) for a week.
 */

import { secretChatPartners } from "./secretChats.ts";
import { getAll, kv, maxChecksPerAtomic } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import {
  chatNotificationKeys,
  chatNotificationOps,
  type ChatNotificationRead,
  type ChatNotificationRecord,
  clearChatNotification,
  clearChatNotificationOps,
  readChatNotification,
} from "./notifications.ts";
import { countHitsOp, type ReadHit } from "./ratelimit.ts";
import { addEvent } from "./events.ts";
import { commitGrouped } from "./groupCommit.ts";
import { grantPictureAccessOp } from "./pictures.ts";
import { getProfile } from "./profiles.ts";
import { pushReachable } from "./push.ts";
import { getShownPosition } from "./positions/mod.ts";
import { forgetPastEarly, forgetPastEarlyHere } from "./spam.ts";
import { TEXTS } from "../domain/texts.ts";
import type { Message, MessagePage, People } from "../domain/shapes/messages.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

/**
 * How long a send's idempotency key is kept: a page that queued a message offline retries it for
 * at most this long (islands/queries/outbox.ts), so a late retry still finds the first copy.
 */
export const SEND_KEY_TTL_MS = 7 * 24 * 3_600_000;

/** Conversation pages and the first Map Chat page hold 20 messages (spec §9). */
export const PAGE_SIZE = 20;
/** Broadcasts stay a week. */
export const BROADCAST_TTL_MS = 7 * 24 * 3_600_000;

/**
 * Sends a private message; the attached pictures stay visible to the recipient (a grant each),
 * unless `viewOnce`: then they get no grant until they open the message, once (`openViewOnce`).
 */
export async function sendPrivateMessage(
  sender: string,
  recipient: string,
  bodyText: string,
  profilePicIds: string[],
  opts: {
    viewOnce?: boolean;
    held?: boolean;
    sendKey?: string;
    /** The sender's rate limits, read before and counted in the message's atomic (kv/ratelimit.ts). */
    counted?: readonly ReadHit[];
    /** The recipient's notification of the conversation, read beside the request's other reads. */
    notification?: ChatNotificationRead;
    /** Whether the recipient has a device to push to (kv/push.ts `pushReachable`), if read already. */
    reachable?: boolean;
  } = {},
): Promise<Message> {
  const m: Message = {
    id: newId(),
    senderProfileId: sender,
    recipientProfileId: recipient,
    bodyText,
    profilePicIds,
    tsCreated: now(),
    ...(opts.viewOnce ? { viewOnce: true as const } : {}),
    ...(opts.held ? { held: true as const } : {}),
  };
  const latest = { messageId: m.id, tsCreated: m.tsCreated };
  const [notification, reachable] = await Promise.all([
    opts.notification ?? readChatNotification(recipient, sender),
    opts.reachable ?? pushReachable(recipient),
  ]);
  // Written with other writes made meanwhile (kv/groupCommit.ts); its events (the message, the
  // recipient's notifications) go in the group's one log entry. Its notification and count are
  // derived from their read: no other write touching them shares its group.
  const touched = [...(opts.counted ?? []).map((h) => h.entry.key), notification.entry.key];
  return await commitOnce(
    touched,
    (op) => {
      op.set(keys.message(m.id), m)
        .set(keys.conversationMessage(sender, recipient, m.id), m.id)
        .set(keys.conversationMessage(recipient, sender, m.id), m.id)
        .set(keys.chat(sender, recipient), latest)
        .set(keys.chat(recipient, sender), latest);
      addEvent(op, [sender, recipient], { type: "message", id: m.id, from: sender, to: recipient });
      if (!opts.viewOnce) { for (const pic of profilePicIds) grantPictureAccessOp(op, pic, recipient); }
      if (opts.held) op.sum(keys.spamHeldCount(sender), 1n);
      if (opts.counted) countHitsOp(op, opts.counted);
      chatNotificationOps(op, recipient, notification, { push: reachable });
    },
    m,
    sender,
    opts.sendKey,
  );
}

/**
 * A message's atomic failed its checks: a count it was checked against moved (another send of the
 * same member at once). Nothing was stored; the caller reads again and retries.
 */
export class SendConflict extends Error {
  constructor() {
    super("message not stored: a count it was checked against changed");
  }
}

/**
 * Commits a new message's writes (`build`, which checks or derives from a read the keys
 * `touched`), grouped with other writes made meanwhile, with its idempotency key when the page sent
 * one: a second send with the key (a retry after a lost answer) stores nothing and gets the first
 * message back.
 */
async function commitOnce(
  touched: Deno.KvKey[],
  build: (op: Deno.AtomicOperation) => void,
  m: Message,
  sender: string,
  sendKey?: string,
): Promise<Message> {
  const key = sendKey ? keys.messageSendKey(sender, sendKey) : null;
  // A broadcast lives in its sector: the key's value names both.
  const ref = m.sector ? `${m.sector}/${m.id}` : m.id;
  // A message may wait a few milliseconds for others to share its commit (kv/groupCommit.ts).
  const written = await commitGrouped(key ? [...touched, key] : touched, (op) => {
    build(op);
    if (key) op.check({ key, versionstamp: null }).set(key, ref, { expireIn: SEND_KEY_TTL_MS });
  }, { linger: true });
  if (written) return m;
  const first = sendKey ? await messageBySendKey(sender, sendKey) : null;
  if (first) return first;
  throw new SendConflict();
}

/** The message `sender` already sent with this idempotency key, if any. */
export async function messageBySendKey(sender: string, sendKey: string): Promise<Message | null> {
  const ref = (await kv().get<string>(keys.messageSendKey(sender, sendKey))).value;
  if (!ref) return null;
  const [sector, broadcastId] = ref.split("/");
  const key = broadcastId ? keys.broadcast(sector, broadcastId) : keys.message(ref);
  return (await kv().get<Message>(key)).value;
}

/** Posts a broadcast to a sector (spec Map Chat). */
export async function sendBroadcast(
  sender: string,
  sector: string,
  bodyText: string,
  profilePicIds: string[],
  opts: { sendKey?: string; counted?: readonly ReadHit[] } = {},
): Promise<Message> {
  const m: Message = { id: newId(), senderProfileId: sender, sector, bodyText, profilePicIds, tsCreated: now() };
  return await commitOnce(
    (opts.counted ?? []).map((h) => h.entry.key),
    (op) => {
      op.set(keys.broadcast(sector, m.id), m, { expireIn: BROADCAST_TTL_MS });
      if (opts.counted) countHitsOp(op, opts.counted);
    },
    m,
    sender,
    opts.sendKey,
  );
}

/** The messages of `ids` that exist, in order: every batch of ten read at once (one round trip). */
async function messagesByIds(ids: string[]): Promise<Message[]> {
  const got = await getAll<Message>(ids.map((id) => keys.message(id)));
  return got.flatMap((e) => e.value ? [e.value] : []);
}

/** Paging of a conversation: newer than `since`, or older than `before`, else the newest. */
export interface Window {
  sinceMessageId?: string;
  beforeMessageId?: string;
}

/** Messages between `me` and `other`, newest first, one page. */
export async function conversation(
  me: string,
  other: string,
  w: Window = {},
): Promise<{ items: Message[]; hasMore: boolean }> {
  const prefix = keys.conversation(me, other);
  const selector: Deno.KvListSelector = w.sinceMessageId
    ? { start: [...prefix, w.sinceMessageId + "~"], end: [...prefix, "~"] }
    : w.beforeMessageId
    ? { start: [...prefix, ""], end: [...prefix, w.beforeMessageId] }
    : { prefix };
  // Newer than `since`: the oldest of them first, so a poll after a long pause misses none.
  const reverse = !w.sinceMessageId;
  const ids: string[] = [];
  for await (const e of kv().list<string>(selector, { reverse, limit: PAGE_SIZE + 1 })) ids.push(e.value);
  const hasMore = ids.length > PAGE_SIZE;
  const page = ids.slice(0, PAGE_SIZE);
  return { items: await messagesByIds(reverse ? page : page.reverse()), hasMore };
}

/**
 * The page of `me`'s conversations, newest first (`before` pages by message id): the latest
 * message id with each partner, read from the index alone, so the messages and the partners'
 * names can then be read at once.
 */
async function latestPerPartner(me: string, w: Window = {}): Promise<{ page: Latest[]; hasMore: boolean }> {
  let latest: Latest[] = [];
  for await (const e of kv().list<{ messageId: string }>({ prefix: keys.chatsOf(me) })) {
    latest.push({ partner: e.key[2] as string, messageId: e.value.messageId });
  }
  latest.sort((a, b) => (a.messageId < b.messageId ? 1 : a.messageId > b.messageId ? -1 : 0));
  if (w.beforeMessageId) latest = latest.filter((l) => l.messageId < w.beforeMessageId!);
  if (w.sinceMessageId) latest = latest.filter((l) => l.messageId > w.sinceMessageId!);
  return { page: latest.slice(0, PAGE_SIZE), hasMore: latest.length > PAGE_SIZE };
}

/** A conversation's entry in "Your Conversations": the partner and the latest message's id. */
interface Latest {
  partner: string;
  messageId: string;
}

/** True when `me` and `other` have exchanged a message before. */
export async function hasConversation(me: string, other: string): Promise<boolean> {
  return (await kv().get(keys.chat(me, other))).versionstamp !== null;
}

/** How many of a conversation's newest messages a read looks through at most for unread ones. */
const READ_SCAN = 200;

/**
 * `me` read the conversation with `other`: every unread message from `other` (newest first, up
 * to the first one read before, among the newest `READ_SCAN`) is marked read and the
 * conversation's notification for `me` cleared, in one atomic that tells `other` once (a read of
 * more messages than an atomic may check goes in several). Each message is checked, so an unsend
 * meanwhile is not undone; a message arriving meanwhile moves the notification, and the read goes
 * again, that message with it. Returns how many were marked.
 */
export async function readConversation(me: string, other: string): Promise<number> {
  const perAtomic = maxChecksPerAtomic() - 1;
  for (let attempt = 1;; attempt++) {
    const { unread, note } = await unreadFrom(me, other);
    if (unread.length === 0 && !note.entry.value) return 0;
    const t = now();
    const mark = (op: Deno.AtomicOperation, batch: Deno.KvEntry<Message>[]) => {
      for (const e of batch) op.check(e).set(e.key, { ...e.value, tsRecipientRead: t });
      if (batch.length) addEvent(op, [other], { type: "read", by: me, of: other });
      return op;
    };
    // The first atomic is written with other writes made meanwhile (kv/groupCommit.ts); its events
    // (the read, the reader's notifications) go in the group's one log entry.
    const first = unread.slice(0, perAtomic);
    const checked = [...first.map((e) => e.key), ...(note.entry.value ? [note.entry.key] : [])];
    const written = await commitGrouped(checked, (op) => {
      mark(op, first);
      if (note.entry.value) clearChatNotificationOps(op, me, note);
    }, { linger: true });
    if (!written) {
      if (attempt < 3) continue;
      return 0;
    }
    let marked = Math.min(unread.length, perAtomic);
    for (let i = perAtomic; i < unread.length; i += perAtomic) {
      const batch = unread.slice(i, i + perAtomic);
      if ((await mark(kv().atomic(), batch).commit()).ok) marked += batch.length;
    }
    return marked;
  }
}

/**
 * How many of a conversation's newest messages a read looks at first: in a conversation taking
 * turns, the one unread, the reader's own answer before it and the one read before that. The rest
 * are read ten at a time, only when these were all unread or the reader's own.
 */
const READ_FIRST = 3;

/**
 * The unread messages from `other` to `me`, newest first, up to the first one read before, and
 * the conversation's notification for `me` (its record: the read clears its count by key), read in
 * one snapshot with the first messages.
 */
async function unreadFrom(me: string, other: string): Promise<{
  unread: Deno.KvEntry<Message>[];
  note: ChatNotificationRecord;
}> {
  const unread: Deno.KvEntry<Message>[] = [];
  const noteAt = await chatNotificationKeys(me, other);
  let note: ChatNotificationRecord | undefined;
  let ids: string[] = [];
  // Their records read a few at a time (one getMany), the notification with the first; false once
  // a message read before is found.
  const take = async (): Promise<boolean> => {
    const asked = ids.map((id) => keys.message(id));
    const got = await kv().getMany<unknown[]>(note ? asked : [noteAt.keys[0], ...asked]);
    if (!note) note = noteAt.record(got.shift()!);
    ids = [];
    for (const e of got as Deno.KvEntryMaybe<Message>[]) {
      const m = e.value;
      if (!m || m.senderProfileId !== other) continue;
      if (m.tsRecipientRead) return false;
      unread.push(e as Deno.KvEntry<Message>);
    }
    return true;
  };
  // The newest few first (one small list), then the rest ten at a time from where they ended.
  const selector = { prefix: keys.conversation(me, other) };
  const first = kv().list<string>(selector, { reverse: true, limit: READ_FIRST });
  for await (const e of first) ids.push(e.value);
  const listed = ids.length;
  // Done at the first message read before, or when the conversation holds no more.
  if (!(await take()) || listed < READ_FIRST) return { unread, note: note! };
  const rest = kv().list<string>(selector, {
    reverse: true,
    limit: READ_SCAN - READ_FIRST,
    batchSize: 10,
    cursor: first.cursor,
  });
  for await (const e of rest) {
    ids.push(e.value);
    if (ids.length === 10 && !(await take())) return { unread, note: note! };
  }
  if (ids.length) await take();
  return { unread, note: note! };
}

/** The newest broadcasts of a sector: page n holds 20 × (n + 1), newest first (spec §4 paging). */
export async function broadcastsIn(sector: string, page = 0): Promise<{ items: Message[]; hasMore: boolean }> {
  const size = PAGE_SIZE * (page + 1);
  const items: Message[] = [];
  for await (const e of kv().list<Message>({ prefix: keys.broadcastsIn(sector) }, { reverse: true, limit: size + 1 })) {
    items.push(e.value);
  }
  return { items: items.slice(0, size), hasMore: items.length > size };
}

/**
 * A sector's broadcasts as `viewer` sees them (one page of `broadcastsIn`): their own always; of
 * others only while the sender is on the map, and none of `blocked`. A member who hides (or whose
 * position lapsed, 26 h after their last report) is in no shown index, and a post placed them in
 * its sector: their posts leave Map Chat for others until they show again, and then come back.
 * The check is the in-memory shown index, once per sender: no KV read per post.
 */
export async function broadcastsSeenBy(
  viewer: string,
  sector: string,
  page: number,
  blocked: ReadonlySet<string>,
): Promise<{ items: Message[]; hasMore: boolean }> {
  const res = await broadcastsIn(sector, page);
  const senders = [...new Set(res.items.map((m) => m.senderProfileId))]
    .filter((id) => id !== viewer && !blocked.has(id));
  const shown = new Set<string>([viewer]);
  await Promise.all(senders.map(async (id) => {
    if (await getShownPosition(id)) shown.add(id);
  }));
  return { items: res.items.filter((m) => shown.has(m.senderProfileId)), hasMore: res.hasMore };
}

/** Names and first public picture of the given profiles. */
export async function peopleOf(ids: Iterable<string>): Promise<People> {
  const people: People = {};
  const unique = [...new Set(ids)];
  // Every profile and tombstone in one batch of reads started together (10 keys a getMany).
  const found = await getAll<unknown>(unique.flatMap((pid) => [keys.profile(pid), keys.tombstone(pid)]));
  unique.forEach((pid, i) => {
    const p = found[2 * i].value as Profile | null;
    if (p) people[pid] = { profileName: p.profilename, picId: p.profilePicIds[0] ?? null };
    // A member who deleted their account (kv/memberData.ts): their conversations show an anonymous partner.
    else if (found[2 * i + 1].value) people[pid] = { profileName: TEXTS.deletedMember, picId: null };
  });
  return people;
}

/** The partner of `me` in a private message. */
function partnerOf(me: string, m: Message): string {
  return m.senderProfileId === me ? m.recipientProfileId! : m.senderProfileId;
}

/**
 * "Your Conversations" of `me`, blocked members left out, with their names. `blocked` may still be
 * on its way (read beside the index); the messages and the names are read together after it.
 */
export async function conversationsOf(
  me: string,
  blocked: Set<string> | Promise<Set<string>>,
  w: Window = {},
): Promise<MessagePage> {
  const [{ page, hasMore }, hidden] = await Promise.all([latestPerPartner(me, w), blocked]);
  const shown = page.filter((l) => !hidden.has(l.partner));
  const [messages, people, secret] = await Promise.all([
    messagesByIds(shown.map((l) => l.messageId)),
    peopleOf(shown.map((l) => l.partner)),
    secretChatPartners(me, shown.map((l) => l.partner)),
  ]);
  const items = messages.filter((m) => !hidden.has(partnerOf(me, m))).map((m) => seenBy(m, me));
  // Names only of the partners listed (an entry whose message is gone names no one).
  const listed = new Set(items.map((m) => partnerOf(me, m)));
  for (const id of Object.keys(people)) if (!listed.has(id)) delete people[id];
  // Which listed conversations have a secret chat beside them: that it exists, nothing of it.
  const secretWith = secret.filter((p) => listed.has(p));
  return { items, hasMore, people, ...(secretWith.length ? { secretWith } : {}) };
}

/** One page of the conversation of `me` with `other`, with both names (read beside the page). */
export async function conversationWith(me: string, other: string, w: Window = {}): Promise<MessagePage> {
  const [page, people] = await Promise.all([conversation(me, other, w), peopleOf([other, me])]);
  return { items: page.items.map((m) => seenBy(m, me)), hasMore: page.hasMore, people };
}

/** A message as `viewer` gets it: its sender is never told it was held as spam. */
export function seenBy(m: Message, viewer: string): Message {
  if (!m.held || m.senderProfileId !== viewer) return m;
  const { held: _, ...rest } = m;
  return rest;
}

// --- deleting

/** How long after sending a message can be deleted for both sides ("unsend"). */
export const UNSEND_WINDOW_MS = 10 * 60_000;

/** Why a deletion was refused. */
export type DeleteRefusal = "not_found" | "not_sender" | "too_late";

/**
 * Points `me`'s "Your Conversations" entry with `other` at the newest message left on `me`'s side,
 * or removes it when none is left; `gone` is the id being removed in the same atomic.
 */
async function latestAfterRemoval(op: Deno.AtomicOperation, me: string, other: string, gone: Set<string>) {
  const chatKey = keys.chat(me, other);
  const chat = await kv().get<{ messageId: string }>(chatKey);
  if (!chat.value || !gone.has(chat.value.messageId)) return;
  op.check(chat);
  for await (const e of kv().list<string>({ prefix: keys.conversation(me, other) }, { reverse: true, limit: 50 })) {
    if (gone.has(e.value)) continue;
    const m = (await kv().get<Message>(keys.message(e.value))).value;
    if (m) return void op.set(chatKey, { messageId: m.id, tsCreated: m.tsCreated });
  }
  op.delete(chatKey);
}

/**
 * Deletes a private message. `for: "me"` takes it off `me`'s side only (the other still has it);
 * `for: "both"` ("unsend") takes it off both sides, for its sender within `UNSEND_WINDOW_MS`, and
 * ends the grants of its pictures that are not public (a private picture unsent is unshared).
 * Both sides' open pages learn of it through their live version.
 */
export async function deleteMessage(
  me: string,
  id: string,
  scope: "me" | "both",
): Promise<{ ok: true } | { ok: false; reason: DeleteRefusal }> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const entry = await kv().get<Message>(keys.message(id));
    const m = entry.value;
    if (!m || !m.recipientProfileId || (m.senderProfileId !== me && m.recipientProfileId !== me)) {
      return { ok: false, reason: "not_found" };
    }
    const other = partnerOf(me, m);
    const mine = await kv().get(keys.conversationMessage(me, other, id));
    if (mine.versionstamp === null) return { ok: false, reason: "not_found" };
    if (scope === "both") {
      if (m.senderProfileId !== me) return { ok: false, reason: "not_sender" };
      if (now() - m.tsCreated > UNSEND_WINDOW_MS) return { ok: false, reason: "too_late" };
    }
    const op = kv().atomic().check(entry, mine).delete(mine.key);
    const told = [me];
    const gone = new Set([id]);
    await latestAfterRemoval(op, me, other, gone);
    const theirs = await kv().get(keys.conversationMessage(other, me, id));
    if (scope === "both" || theirs.versionstamp === null) {
      op.delete(entry.key);
      if (theirs.versionstamp !== null) {
        op.check(theirs).delete(theirs.key);
        told.push(other);
        await latestAfterRemoval(op, other, me, gone);
      }
      if (scope === "both") {
        const sender = await getProfile(me);
        for (const pic of m.profilePicIds) {
          if (!sender?.profilePicIds.includes(pic)) op.delete(keys.picGrant(pic, other));
        }
      }
    } else {
      op.set(entry.key, { ...m, [m.senderProfileId === me ? "tsSenderDeleted" : "tsRecipientDeleted"]: now() });
    }
    addEvent(op, told, { type: "message-deleted", id, with: other, scope });
    // With fewer messages, either side may be in its first messages again (kv/spam.ts).
    forgetPastEarly(op, me, other);
    if ((await op.commit()).ok) {
      forgetPastEarlyHere(me, other);
      return { ok: true };
    }
  }
  throw new Error("message deletion kept conflicting");
}

/**
 * Deletes `me`'s whole conversation with `other` from `me`'s side: every message leaves `me`'s
 * list (records the other side no longer holds are removed), and the entry leaves "Your
 * Conversations". A new message from either side starts it again. Returns how many messages left.
 */
export async function deleteConversation(me: string, other: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch: Deno.KvEntry<string>[] = [];
    // Two checks a message: as many as the store takes in one atomic (10 on a remote KV), 40 at most.
    const limit = Math.min(40, Math.floor(maxChecksPerAtomic() / 2));
    for await (const e of kv().list<string>({ prefix: keys.conversation(me, other) }, { limit })) batch.push(e);
    if (batch.length === 0) break;
    const records = await getAll<Message>(batch.map((e) => keys.message(e.value)));
    const theirs = await getAll(batch.map((e) => keys.conversationMessage(other, me, e.value)));
    const op = kv().atomic();
    batch.forEach((e, i) => {
      op.check(e).delete(e.key);
      const m = records[i].value;
      if (!m) return;
      op.check(records[i]);
      if (theirs[i].versionstamp === null) op.delete(records[i].key);
      else {op.set(records[i].key, {
          ...m,
          [m.senderProfileId === me ? "tsSenderDeleted" : "tsRecipientDeleted"]: now(),
        });}
    });
    forgetPastEarly(op, me, other);
    if ((await op.commit()).ok) {
      removed += batch.length;
      forgetPastEarlyHere(me, other);
    }
  }
  await clearChatNotification(me, other);
  const chat = await kv().get(keys.chat(me, other));
  // A message that arrived meanwhile keeps the conversation: only remove a pointer to a gone message.
  const latest = chat.value as { messageId: string } | null;
  const op = kv().atomic();
  if (latest && (await kv().get(keys.conversationMessage(me, other, latest.messageId))).versionstamp === null) {
    op.check(chat).delete(chat.key);
  }
  addEvent(op, [me], { type: "conversation-deleted", with: other });
  await op.commit();
  return removed;
}

/** How long a view-once message's pictures can be loaded after it is opened. */
export const VIEW_ONCE_MS = 60_000;

/**
 * Opens a view-once message for its recipient, once: its pictures are granted for
 * `VIEW_ONCE_MS` (to load them full screen), the message records when, and the sender's pages
 * learn it was opened. Null when there is nothing to open (not theirs, not view-once, opened).
 */
export async function openViewOnce(me: string, id: string): Promise<{ picIds: string[]; until: number } | null> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const entry = await kv().get<Message>(keys.message(id));
    const m = entry.value;
    if (!m || m.recipientProfileId !== me || !m.viewOnce || m.tsOpened) return null;
    const t = now(), until = t + VIEW_ONCE_MS;
    const op = kv().atomic().check(entry).set(entry.key, { ...m, tsOpened: t });
    for (const pic of m.profilePicIds) op.set(keys.picGrant(pic, me), { until }, { expireIn: VIEW_ONCE_MS });
    addEvent(op, [m.senderProfileId, me], { type: "opened", id });
    if ((await op.commit()).ok) return { picIds: m.profilePicIds, until };
  }
  throw new Error("opening kept conflicting");
}
