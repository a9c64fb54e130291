/**
 * In-app notifications of a member (spec §2 Notifications). Creating one also bumps the member's
 * live version key (watched by the event stream) and enqueues a push job, in one atomic.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import { enqueueJob } from "./jobs.ts";

/** A notification (spec §3). */
export interface Notification {
  id: string;
  bodyText: string;
  url?: string;
  tsCreated: number;
}

/** Notifications are kept for 30 days. */
export const NOTIFICATION_TTL_MS = 30 * 24 * 3_600_000;

/**
 * Adds a notification for a profile to an atomic operation (with its version bump and push job).
 * `bodyText` must stay discreet: it may show on a lock screen.
 */
export function addNotification(
  op: Deno.AtomicOperation,
  profileId: string,
  n: { bodyText: string; url?: string },
): Notification {
  const note: Notification = { id: newId(), bodyText: n.bodyText.slice(0, 500), tsCreated: now() };
  if (n.url) note.url = n.url;
  op.set(keys.notification(profileId, note.id), note, { expireIn: NOTIFICATION_TTL_MS })
    .sum(keys.memberVersion(profileId), 1n);
  enqueueJob(op, { type: "push", profileId, notificationId: note.id }, { maxAttempts: 5 });
  return note;
}

/** Creates one notification on its own. */
export async function notify(profileId: string, n: { bodyText: string; url?: string }): Promise<Notification> {
  const op = kv().atomic();
  const note = addNotification(op, profileId, n);
  if (!(await op.commit()).ok) throw new Error("notification not stored");
  return note;
}

/** A member's notifications, newest first. */
export async function listNotifications(profileId: string, limit = 100): Promise<Notification[]> {
  const out: Notification[] = [];
  const iter = kv().list<Notification>({ prefix: keys.notificationsOf(profileId) }, { limit, reverse: true });
  for await (const e of iter) out.push(e.value);
  return out;
}

/** One notification of a member, or null. */
export async function getNotification(profileId: string, id: string): Promise<Notification | null> {
  return (await kv().get<Notification>(keys.notification(profileId, id))).value;
}

/** Deletes a member's notification; false if there was none with that id. */
export async function deleteNotification(profileId: string, id: string): Promise<boolean> {
  const key = keys.notification(profileId, id);
  const entry = await kv().get(key);
  if (!entry.value) return false;
  await kv().atomic().check(entry).delete(key).sum(keys.memberVersion(profileId), 1n).commit();
  return true;
}
