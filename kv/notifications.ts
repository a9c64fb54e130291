/**
 * In-app notifications of a member (spec §2 Notifications). Creating one also bumps the member's
 * live version key (watched by the event stream) and enqueues a push job, in the atomic of the
 * change that caused it. They respect attention:
 *
 * - A conversation has at most one notification, "You have N new messages.", until the member
 *   reads the conversation or deletes the notification. Its key is fixed per sender, so two
 *   messages at once write the one record (no check, so a message never fails for it), and its
 *   count is a `Deno.KvU64` sum. It pushes when it is new, and for a later message only when its
 *   last push is CHAT_PUSH_EVERY_MS old; the push carries the notification's id as its tag, so a
 *   device replaces the earlier one instead of stacking.
 * - A profile like and a picture like tell the member once per liker in LIKE_NOTIFY_EVERY_MS
 *   (unlike and like again tells nothing new): a picture like by a marker per liker, a profile
 *   like by the time kept in its own record (kv/likes.ts), each checked by the like's atomic.
 */

import { getAll, getTogether, kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId, sha256Hex } from "./ids.ts";
import { now } from "./clock.ts";
import { enqueueJob } from "./jobs.ts";
import { addEvent } from "./events.ts";
import { NOTIFICATION_TEXTS } from "../domain/notifications.ts";
import type { Notification } from "../domain/shapes/notifications.ts";
import { type Locale, withLocale } from "../domain/i18n.ts";
import { profileUrl } from "../domain/format.ts";
import { setNewest } from "../domain/newest.ts";

/** As stored: a conversation's notification (`kind: "chat"`) keeps when it last pushed. */
interface StoredNotification extends Notification {
  kind?: "chat";
  /** The catalogue text it says: shown in the reader's language when read, not the cause's. */
  text?: NotificationText;
  tsPushed?: number;
}

/** The notification texts that are one sentence (NOTIFICATION_TEXTS). */
export type NotificationText =
  | "profileLiked"
  | "picLiked"
  | "cropSuggested"
  | "healthNotice"
  | "secretMessage"
  | "dungeonThirdStay"
  | "reportWaited"
  | "dungeonStay1"
  | "dungeonStay2"
  | "dungeonStay3";

/** What a notification of one of the catalogue's sentences holds: its text key and today's words. */
export function notificationOf(
  text: NotificationText,
  url?: string,
): { bodyText: string; text: NotificationText; url?: string } {
  return { bodyText: NOTIFICATION_TEXTS[text], text, ...(url ? { url } : {}) };
}

/** Notifications are kept for 30 days. */
export const NOTIFICATION_TTL_MS = 30 * 24 * 3_600_000;
/** A conversation's unread notification pushes again for a new message at most this often. */
export const CHAT_PUSH_EVERY_MS = 15 * 60_000;
/** A liker's likes (of the profile; of pictures) tell the member at most once in this long. */
export const LIKE_NOTIFY_EVERY_MS = 24 * 3_600_000;

/**
 * Adds a notification for a profile to an atomic operation (with its version bump and push job).
 * `bodyText` must stay discreet: it may show on a lock screen. A caller that knows the member has
 * no device to push to (kv/push.ts `pushReachable`) passes `push: false`: no job that would find none.
 */
export function addNotification(
  op: Deno.AtomicOperation,
  profileId: string,
  n: { bodyText: string; url?: string; text?: NotificationText },
  { push = true }: { push?: boolean } = {},
): Notification {
  const note: StoredNotification = { id: newId(), bodyText: n.bodyText.slice(0, 500), tsCreated: now() };
  if (n.url) note.url = n.url;
  if (n.text) note.text = n.text;
  op.set(keys.notification(profileId, note.id), note, { expireIn: NOTIFICATION_TTL_MS });
  addEvent(op, [profileId], { type: "notifications" });
  // No push job for a member with no device to push to (`push` false): it would find none.
  if (push) enqueueJob(op, { type: "push", profileId, notificationId: note.id }, { maxAttempts: 5 });
  return note;
}

/** Chat notification ids worked out, by sender: every message and every read needs its sender's. */
const chatNotificationIds = new Map<string, string>();
/** The most ids kept; past it the oldest goes. */
const CHAT_NOTIFICATION_IDS_MAX = 50_000;

/**
 * The id of the notification of `sender`'s messages (under each recipient): fixed per sender, and
 * starting with "f" so that in key order it comes before every time-ordered id (a bounded list
 * always holds the conversations). Worked out once per sender and kept (it never changes).
 */
async function chatNotificationId(sender: string): Promise<string> {
  let id = chatNotificationIds.get(sender);
  if (id === undefined) {
    id = "f" + (await sha256Hex(`chat-notification:${sender}`)).slice(0, 27);
    setNewest(chatNotificationIds, sender, id, CHAT_NOTIFICATION_IDS_MAX);
  }
  return id;
}

/**
 * Adds to a message's atomic the one notification of its conversation for `recipient`: new with
 * a count of 1 and a push, or the unread one with its count one up, its time the new message's,
 * and a push only when its last was CHAT_PUSH_EVERY_MS ago.
 */
export async function addChatNotification(op: Deno.AtomicOperation, recipient: string, sender: string): Promise<void> {
  chatNotificationOps(op, recipient, await readChatNotification(recipient, sender));
}

/** What a message's notification is written from: the conversation's notification for the recipient and its count. */
export interface ChatNotificationRead {
  sender: string;
  id: string;
  entry: Deno.KvEntryMaybe<StoredNotification>;
  count: Deno.KvEntryMaybe<Deno.KvU64>;
}

/** Reads what `chatNotificationOps` needs (one read: a message reads it beside its other reads). */
export async function readChatNotification(recipient: string, sender: string): Promise<ChatNotificationRead> {
  // Its keys at once when the sender's id is known: the read is then asked for in the same turn as
  // the reads begun beside it (a message's checks), and goes in their store call.
  const known = chatNotificationIds.get(sender);
  const at = known === undefined
    ? await chatNotificationKeys(recipient, sender)
    : chatNotificationKeysOf(recipient, sender, known);
  // One snapshot: without the record, a count found is one an expired notification left.
  return at.read(await getTogether(at.keys));
}

/**
 * The two keys of the conversation's notification for `recipient` (its record, then its count),
 * and `read`, which makes a `ChatNotificationRead` of their entries: for a caller that reads them
 * in one snapshot with keys of its own (kv/messages.ts `readConversation`).
 */
export async function chatNotificationKeys(recipient: string, sender: string): Promise<ChatNotificationKeys> {
  return chatNotificationKeysOf(recipient, sender, await chatNotificationId(sender));
}

/** The keys of a conversation's notification, and how to read their entries (`chatNotificationKeys`). */
interface ChatNotificationKeys {
  keys: [Deno.KvKey, Deno.KvKey];
  read(entries: readonly Deno.KvEntryMaybe<unknown>[]): ChatNotificationRead;
  /** The record's entry (the first key's) read alone, as clearing it needs it (`clearChatNotificationOps`). */
  record(entry: Deno.KvEntryMaybe<unknown>): ChatNotificationRecord;
}

/**
 * What clearing a conversation's notification needs of its read: the record as read (checked),
 * not its count, which goes by its key whatever it holds.
 */
export type ChatNotificationRecord = Pick<ChatNotificationRead, "id" | "entry">;

/** `chatNotificationKeys` with the sender's notification id worked out. */
function chatNotificationKeysOf(recipient: string, sender: string, id: string): ChatNotificationKeys {
  return {
    keys: [keys.notification(recipient, id), keys.notificationCount(recipient, id)],
    read: ([entry, count]) => ({
      sender,
      id,
      entry: entry as Deno.KvEntryMaybe<StoredNotification>,
      count: count as Deno.KvEntryMaybe<Deno.KvU64>,
    }),
    record: (entry) => ({ id, entry: entry as Deno.KvEntryMaybe<StoredNotification> }),
  };
}

/**
 * `addChatNotification` from a read made before (`readChatNotification`). A caller that knows the
 * recipient has no device to push to (kv/push.ts `pushReachable`) passes `push: false`: no job
 * that would find none, and the notification keeps the time of its last push.
 */
export function chatNotificationOps(
  op: Deno.AtomicOperation,
  recipient: string,
  read: ChatNotificationRead,
  { push: reachable = true }: { push?: boolean } = {},
): void {
  const { sender, id, entry, count } = read;
  const key = keys.notification(recipient, id);
  const countKey = keys.notificationCount(recipient, id);
  const old = entry.value;
  const t = now();
  const push = reachable && (!old || t - (old.tsPushed ?? 0) >= CHAT_PUSH_EVERY_MS);
  const tsPushed = push ? t : old?.tsPushed;
  const note: StoredNotification = {
    id,
    kind: "chat",
    bodyText: NOTIFICATION_TEXTS.messages(1),
    url: profileUrl(sender, "chat"),
    tsCreated: t,
    ...(tsPushed === undefined ? {} : { tsPushed }),
  };
  op.set(key, note, { expireIn: NOTIFICATION_TTL_MS });
  addEvent(op, [recipient], { type: "notifications" });
  // Each message adds one: a sum never conflicts, so messages at once all count and none fails for
  // its notification. A count an expired notification left is dropped first.
  if (!old && count.versionstamp !== null) op.delete(countKey);
  op.sum(countKey, 1n);
  if (push) {
    enqueueJob(op, { type: "push", profileId: recipient, notificationId: id, conversationWith: sender }, {
      maxAttempts: 5,
    });
  }
}

/**
 * Removes the notification of `sender`'s messages to `recipient` (they read the conversation);
 * false when there was none. A message arriving meanwhile keeps it: it is not read yet.
 */
export async function clearChatNotification(recipient: string, sender: string): Promise<boolean> {
  const read = await readChatNotification(recipient, sender);
  if (!read.entry.value) return false;
  const op = kv().atomic();
  clearChatNotificationOps(op, recipient, read);
  return (await op.commit()).ok;
}

/**
 * Adds to `op` the removal of the conversation's notification for `recipient` as `read` found
 * it (checked: a message arriving meanwhile fails the atomic), and tells them.
 */
export function clearChatNotificationOps(
  op: Deno.AtomicOperation,
  recipient: string,
  read: ChatNotificationRecord,
): void {
  op.check(read.entry).delete(read.entry.key).delete(keys.notificationCount(recipient, read.id));
  addEvent(op, [recipient], { type: "notifications" });
}

/**
 * Reads whether `profileId` was told about `who` for `scope` in the last LIKE_NOTIFY_EVERY_MS,
 * and returns the writes for the cause's atomic: the check of that marker (two likes at once
 * cannot both tell) and, unless told already, the marker and the notification. Deleting the
 * notification does not clear the marker: the point is that a liker cannot repeat it.
 */
export async function oncePerDayNotification(
  profileId: string,
  scope: "profile-like" | "pic-like",
  who: string,
  n: { bodyText: string; url?: string; text?: NotificationText },
): Promise<(op: Deno.AtomicOperation) => void> {
  return oncePerDayFrom(await kv().get<number>(keys.notificationOnce(profileId, scope, who)), profileId, n);
}

/** `oncePerDayNotification` with its `notificationOnce` entry already read (in one `getMany` with others). */
export function oncePerDayFrom(
  entry: Deno.KvEntryMaybe<number>,
  profileId: string,
  n: { bodyText: string; url?: string; text?: NotificationText },
): (op: Deno.AtomicOperation) => void {
  const told = entry.value !== null && now() - entry.value < LIKE_NOTIFY_EVERY_MS;
  return (op) => {
    op.check(entry);
    if (told) return;
    op.set(entry.key, now(), { expireIn: LIKE_NOTIFY_EVERY_MS });
    addNotification(op, profileId, n);
  };
}

/** Creates one notification on its own (a catalogue sentence: `notificationOf`, shown in the reader's language). */
export async function notify(
  profileId: string,
  n: { bodyText: string; url?: string; text?: NotificationText },
): Promise<Notification> {
  const op = kv().atomic();
  const note = addNotification(op, profileId, n);
  if (!(await op.commit()).ok) throw new Error("notification not stored");
  return note;
}

/**
 * What a member sees of stored notifications, in the language in use or `lang`: a conversation's
 * body says its count, a catalogue sentence reads in that language.
 */
async function shown(profileId: string, stored: StoredNotification[], lang?: Locale): Promise<Notification[]> {
  const chats = stored.filter((n) => n.kind === "chat");
  const counts = new Map<string, number>();
  // Every batch of ten counts read at once: one round trip.
  const entries = await getAll<Deno.KvU64>(chats.map((n) => keys.notificationCount(profileId, n.id)));
  chats.forEach((n, j) => counts.set(n.id, Math.max(1, Number(entries[j].value?.value ?? 1n))));
  const texts = () =>
    stored.map(({ kind, text, tsPushed: _, ...n }) => {
      if (text) return { ...n, bodyText: NOTIFICATION_TEXTS[text] };
      if (kind !== "chat") return n;
      const count = counts.get(n.id) ?? 1;
      return { ...n, bodyText: NOTIFICATION_TEXTS.messages(count), count };
    });
  return lang ? withLocale(lang, texts) : texts();
}

/** A member's notifications, newest first (a conversation's by its latest message). */
export async function listNotifications(profileId: string, limit = 100): Promise<Notification[]> {
  const stored: StoredNotification[] = [];
  const iter = kv().list<StoredNotification>({ prefix: keys.notificationsOf(profileId) }, { limit, reverse: true });
  for await (const e of iter) stored.push(e.value);
  return (await shown(profileId, stored)).sort((a, b) => b.tsCreated - a.tsCreated);
}

/** One notification of a member, as they see it, or null. */
export async function getNotification(profileId: string, id: string, lang?: Locale): Promise<Notification | null> {
  const n = (await kv().get<StoredNotification>(keys.notification(profileId, id))).value;
  return n && (await shown(profileId, [n], lang))[0];
}

/** Deletes a member's notification (a conversation's count with it); false if there was none with that id. */
export async function deleteNotification(profileId: string, id: string): Promise<boolean> {
  const key = keys.notification(profileId, id);
  const entry = await kv().get(key);
  if (!entry.value) return false;
  const op = kv().atomic().check(entry).delete(key).delete(keys.notificationCount(profileId, id));
  addEvent(op, [profileId], { type: "notifications" });
  await op.commit();
  return true;
}
