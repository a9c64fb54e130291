/**
 * Online now and last seen. A member is online while a page of theirs holds the live stream open
 * (each stream, which reconnects at least every minute, writes the time); last seen is the last
 * such time, kept 30 days. A member may hide their own status, and then sees no one's.
 */

import { getAll, kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { commitGrouped } from "./groupCommit.ts";
import { LOOKING_KEEP_MS } from "../domain/quietHours.ts";
import { roughlySeen } from "../domain/presence.ts";

/** A stream writes its member's time this often at most... */
export const PRESENCE_WRITE_MS = 30_000;
/** ...and a member counts as online this long after the last write (a stream lives 55 s). */
export const ONLINE_MS = 90_000;
const KEEP_MS = 30 * 24 * 3_600_000;

/** What a viewer may know of a member: online now, and when last seen, roughly (null: never, or hidden). */
export interface Presence {
  online: boolean;
  lastSeen: number | null;
}

/** Notes that a member has the app open now (unless they hide their status). */
export async function markSeen(profileId: string): Promise<void> {
  const [hidden, last] = await kv().getMany<[boolean, number]>([
    keys.presenceHidden(profileId),
    keys.presence(profileId),
  ]);
  if (hidden.value) return;
  if (last.value && now() - last.value < PRESENCE_WRITE_MS) return;
  // Shares a commit with other writes made meanwhile, and may wait a little for them (kv/groupCommit.ts).
  const key = keys.presence(profileId);
  await commitGrouped([key], (op) => op.set(key, now(), { expireIn: KEEP_MS }), { linger: true });
}

/** Does the member hide their online status? */
export async function hidesPresence(profileId: string): Promise<boolean> {
  return (await kv().get<boolean>(keys.presenceHidden(profileId))).value === true;
}

/** Hides or shows a member's online status; hiding forgets their last-seen time. */
export async function setPresenceHidden(profileId: string, hidden: boolean): Promise<void> {
  const op = kv().atomic();
  if (hidden) op.set(keys.presenceHidden(profileId), true).delete(keys.presence(profileId));
  else op.delete(keys.presenceHidden(profileId));
  await op.commit();
}

/**
 * The presence of `ids` as `viewer` may see it: nothing (null) for a viewer who hides their own,
 * or for a member who hides theirs; another member's last seen told roughly.
 */
export async function presenceOf(viewer: string, ids: readonly string[]): Promise<Record<string, Presence | null>> {
  const out: Record<string, Presence | null> = {};
  if (await hidesPresence(viewer)) {
    for (const id of ids) out[id] = null;
    return out;
  }
  const [seen, hidden] = await Promise.all([
    getAll<number>(ids.map((id) => keys.presence(id))),
    getAll<boolean>(ids.map((id) => keys.presenceHidden(id))),
  ]);
  const t = now();
  ids.forEach((id, i) => {
    const last = seen[i].value;
    if (hidden[i].value) return void (out[id] = null);
    // Another member is told roughly how long ago (domain/presence.ts), never the exact time.
    const told = last === null || id === viewer ? last : roughlySeen(last, t);
    out[id] = { online: last !== null && t - last < ONLINE_MS, lastSeen: told };
  });
  return out;
}

/** What `lookingAt` keeps: the member a conversation is with, and when the page last said so. */
interface LookingAt {
  with: string;
  ts: number;
}

/**
 * Notes that the member has the conversation with `other` open and in view now, or (null) no
 * longer: pushes for it are held back meanwhile (workers/push.ts), as the page shows it live.
 */
export async function setLookingAt(profileId: string, other: string | null): Promise<void> {
  if (other === null) await kv().delete(keys.lookingAt(profileId));
  else await kv().set(keys.lookingAt(profileId), { with: other, ts: now() }, { expireIn: LOOKING_KEEP_MS });
}

/** Has the member the conversation with `other` in view now? */
export async function isLookingAt(profileId: string, other: string): Promise<boolean> {
  const v = (await kv().get<LookingAt>(keys.lookingAt(profileId))).value;
  return !!v && v.with === other && now() - v.ts < LOOKING_KEEP_MS;
}
