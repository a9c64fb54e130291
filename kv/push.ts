/**
 * Push subscriptions of an account's devices and the server's VAPID keys. Endpoints are accepted
 * only on https port 443 of known push services (design.md); `PUSH_EXTRA_ORIGINS` adds others
 * (tests point it at a local receiver).
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import { commitForgetting, forgetHere, forgetKept, keptInStep, keptRead, onForget } from "./kept.ts";
import { viewedProfile } from "./profiles.ts";
import { pushMarked } from "./pushReach.ts";
import { config } from "../config/config.ts";
import { firstUse } from "../domain/firstUse.ts";
import { detached } from "./roundTrips.ts";
import { EVENT_LOG_TTL_MS } from "./events.ts";

/**
 * web-push, loaded when the first VAPID key pair is made or the first push is sent rather than with
 * the app (domain/firstUse.ts): a process that sends no push never loads it.
 */
export const webPush = firstUse(async () => (await import("web-push")).default);

/** A device's push subscription (spec §3). */
export interface PushSubscription {
  id: string;
  deviceName: string;
  endpoint: string;
  expirationTime: number;
  auth_base64: string;
  p256dh_base64: string;
  tsCreated: number;
  /** The device was in discreet mode when it subscribed: its notifications name neither the app nor what happened. */
  discreet?: boolean;
  /** Deliveries in a row the push service refused for a while (429, 5xx, no answer); reset by one that goes through. */
  failures?: number;
}

/** A device whose push service failed this many deliveries in a row is dropped (Settings no longer lists it). */
export const PUSH_DEVICE_MAX_FAILURES = 5;
/** A conversation's notification pushes at most once in this long, whatever else happens. */
export const CONVERSATION_PUSH_EVERY_MS = 60_000;

/** Hosts of the browsers' push services. */
const PUSH_HOSTS = [
  /^fcm\.googleapis\.com$/,
  /^android\.googleapis\.com$/,
  /^updates\.push\.services\.mozilla\.com$/,
  /^push\.services\.mozilla\.com$/,
  /^web\.push\.apple\.com$/,
  /^[a-z0-9-]+\.push\.apple\.com$/,
  /^[a-z0-9-]+\.notify\.windows\.com$/,
];

/** True for an endpoint the server may send to. */
export function allowedEndpoint(endpoint: string): boolean {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return false;
  }
  if (config.pushExtraOrigins.includes(url.origin)) return true;
  return url.protocol === "https:" && (url.port === "" || url.port === "443") && !url.username &&
    PUSH_HOSTS.some((re) => re.test(url.hostname));
}

/** The VAPID key pair: from env, else generated once and kept in KV. */
export async function vapidKeys(): Promise<{ publicKey: string; privateKey: string }> {
  const set = config.vapidKeys;
  if (set) return set;
  const stored = await kv().get<{ publicKey: string; privateKey: string }>(keys.vapidKeys());
  if (stored.value) return stored.value;
  const made = (await webPush.load()).generateVAPIDKeys();
  await kv().atomic().check(stored).set(keys.vapidKeys(), made).commit();
  return (await kv().get<{ publicKey: string; privateKey: string }>(keys.vapidKeys())).value!;
}

/** Stores a device's subscription; the same endpoint again replaces the old record. */
export async function addPushSubscription(
  accountId: string,
  s: Omit<PushSubscription, "id" | "tsCreated" | "failures">,
): Promise<PushSubscription> {
  const existing = (await listPushSubscriptions(accountId)).find((x) => x.endpoint === s.endpoint);
  const sub: PushSubscription = { ...s, id: existing?.id ?? newId(), tsCreated: now() };
  const op = kv().atomic().set(keys.pushSubscription(accountId, sub.id), sub);
  // The member is reachable: a new versionstamp of the marker also fails a removal that read it before.
  const profileId = await markedProfileOf(accountId);
  if (profileId) {
    forgetKept(op, "pushReach", [profileId]);
    op.set(keys.pushReachable(profileId), true);
  }
  if (!(await commitForgetting(op, "pushDevices", [accountId]))) throw new Error("push subscription not stored");
  if (profileId) forgetHere("pushReach", [profileId]);
  return sub;
}

/**
 * Has the account a device to push to? Kept a few seconds by the instance, forgotten everywhere
 * when a device subscribes or leaves: a device that subscribed on another instance less than
 * KEPT_REVOKE_MS ago may miss one push (its notification is stored all the same).
 */
export function hasPushDevice(accountId: string): Promise<boolean> {
  return keptRead("pushDevices", accountId, async () => {
    for await (const _ of kv().list({ prefix: keys.pushSubscriptionsOf(accountId) }, { limit: 1 })) return true;
    return false;
  });
}

/**
 * Has the member of profile `profileId` a device to push to? Their marker (kv/pushReach.ts), a
 * single key read with whatever else is read in the same turn; on a store not yet marked, their
 * devices listed (`hasPushDevice`).
 */
export async function pushReachable(profileId: string): Promise<boolean> {
  const db = kv();
  if (pushMarked(db)) {
    // What this instance knows of every member's marker; else its kept read of this member, or a read
    // of it, kept a minute (kv/kept.ts): every write of the marker forgets it (`forgetKept`).
    const known = knownMarker(db, profileId);
    if (known !== undefined) return known;
    return await keptRead(
      "pushReach",
      profileId,
      async () => (await kv().get<boolean>(keys.pushReachable(profileId))).value === true,
    );
  }
  const p = await viewedProfile(profileId);
  return !!p && await hasPushDevice(p.accountId);
}

/**
 * Every member's push marker as this instance knows them: listed once, when the instance keeps
 * reads and its tail of the change log is in step, then kept in step by the forgets every write of
 * a marker sends (`forgetKept(op, "pushReach", …)`: a device stored, the last one removed or
 * dropped, the member's deletion). A member forgotten since the listing began is read key by key
 * again (`keptRead`), and nothing known is used while the tail is out of step, as kept copies are
 * not: a like or a message to a member whose marker no write touched reads nothing. A store with
 * more markers than `KNOWN_MARKERS_MAX` is not listed (each member read as before); a listing is
 * used for `KNOWN_MARKERS_LIFE_MS`, then made again.
 */
interface KnownMarkers {
  /** The members with a marker, once listed. */
  ids: Set<string> | null;
  /** The members whose marker was forgotten since the listing began. */
  forgotten: Set<string>;
  /** The listing (tests wait for it). */
  listed: Promise<void>;
  /** When the listing began (`performance.now()`). */
  began: number;
}
const knownMarkers = new WeakMap<Deno.Kv, KnownMarkers>();
/** The most markers an instance keeps in memory (about 100 bytes each). */
const KNOWN_MARKERS_MAX = 200_000;
/** Past this many forgotten since the listing, the instance lists again (a forgotten member costs a read). */
const FORGOTTEN_MAX = 10_000;
/**
 * A listing's life: the forgets that keep it in step come through the change log, whose entries
 * live `EVENT_LOG_TTL_MS`; a tail held up longer than that would miss some, and kept copies are
 * bounded by their own life, so what is known is listed again before the log's entries can expire.
 */
const KNOWN_MARKERS_LIFE_MS = EVENT_LOG_TTL_MS / 2;

onForget("pushReach", (ids) => {
  const known = knownMarkers.get(kv());
  if (!known) return;
  for (const id of ids) known.forgotten.add(id);
  if (known.forgotten.size > FORGOTTEN_MAX) knownMarkers.delete(kv());
});

/** What this instance knows of `profileId`'s marker, or undefined (not known: read it). */
function knownMarker(db: Deno.Kv, profileId: string): boolean | undefined {
  if (!keptInStep()) return undefined;
  const kept = knownMarkers.get(db);
  const known = kept && performance.now() - kept.began < KNOWN_MARKERS_LIFE_MS ? kept : listMarkers(db);
  if (known.ids === null || known.forgotten.has(profileId)) return undefined;
  return known.ids.has(profileId);
}

/** Starts listing every marker of the store behind `db` (once; a listing that fails or runs over the bound is given up). */
function listMarkers(db: Deno.Kv): KnownMarkers {
  const known: KnownMarkers = { ids: null, forgotten: new Set(), listed: Promise.resolve(), began: performance.now() };
  knownMarkers.set(db, known);
  known.listed = detached(async () => {
    const ids = new Set<string>();
    for await (const e of db.list<boolean>({ prefix: keys.pushReachableAll() }, { batchSize: 1000 })) {
      if (e.value === true) ids.add(e.key[1] as string);
      if (ids.size > KNOWN_MARKERS_MAX) return;
    }
    known.ids = ids;
  }).catch(() => {});
  return known;
}

/** The listing of every marker this instance started, done (tests). */
export async function markersKnown(): Promise<void> {
  await knownMarkers.get(kv())?.listed;
}

/** The profile whose marker (`keys.pushReachable`) says `accountId` has a device, or null without an account. */
async function markedProfileOf(accountId: string): Promise<string | null> {
  const account = (await kv().get<{ defaultProfileId: string }>(keys.account(accountId))).value;
  return account ? account.defaultProfileId : null;
}

/** The most other devices a removal checks (a remote store takes 10 checks an atomic: its own, the marker's, these). */
const OTHER_DEVICES_CHECKED = 8;

/**
 * Commits `op`, which deletes the account's device `id`, with the delete of the profile's marker
 * when no other device is left; false when a device came or went meanwhile (read again and retry).
 * The marker is read before the devices and checked: a device added after that read sets it again.
 * The other devices seen are checked too, so two devices removed at once do not both leave the
 * marker to the other (at most `OTHER_DEVICES_CHECKED`: an account with more keeps some however
 * many go at once).
 */
async function commitDeviceGone(accountId: string, id: string, op: Deno.AtomicOperation): Promise<boolean> {
  const profileId = await markedProfileOf(accountId);
  let markerGone = false;
  if (profileId) {
    const markerKey = keys.pushReachable(profileId);
    const marker = await kv().get(markerKey);
    const others: Deno.KvEntry<unknown>[] = [];
    const devices = kv().list({ prefix: keys.pushSubscriptionsOf(accountId) }, { limit: OTHER_DEVICES_CHECKED + 1 });
    for await (const e of devices) if (e.key.at(-1) !== id) others.push(e);
    op.check(marker, ...others.slice(0, OTHER_DEVICES_CHECKED));
    if (others.length === 0) {
      forgetKept(op, "pushReach", [profileId]);
      op.delete(markerKey);
      markerGone = true;
    }
  }
  const ok = await commitForgetting(op, "pushDevices", [accountId]);
  if (ok && markerGone) forgetHere("pushReach", [profileId!]);
  return ok;
}

/** An account's subscriptions, oldest first. */
export async function listPushSubscriptions(accountId: string): Promise<PushSubscription[]> {
  const out: PushSubscription[] = [];
  for await (const e of kv().list<PushSubscription>({ prefix: keys.pushSubscriptionsOf(accountId) })) {
    out.push(e.value);
  }
  return out;
}

/** Removes one of the account's subscriptions; false if it is not theirs. */
export async function removePushSubscription(accountId: string, id: string): Promise<boolean> {
  const key = keys.pushSubscription(accountId, id);
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv().get(key);
    if (!entry.value) return attempt > 0;
    if (await commitDeviceGone(accountId, id, kv().atomic().check(entry).delete(key))) return true;
  }
  throw new Error("push subscription kept changing");
}

/**
 * Counts a failed delivery to a device; at PUSH_DEVICE_MAX_FAILURES in a row the device is
 * removed. Returns "dropped" then, else "kept" ("gone" when it was removed meanwhile).
 */
export async function notePushFailure(accountId: string, id: string): Promise<"kept" | "dropped" | "gone"> {
  const key = keys.pushSubscription(accountId, id);
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv().get<PushSubscription>(key);
    if (!entry.value) return "gone";
    const failures = (entry.value.failures ?? 0) + 1;
    if (failures >= PUSH_DEVICE_MAX_FAILURES) {
      if (await commitDeviceGone(accountId, id, kv().atomic().check(entry).delete(key))) return "dropped";
      continue;
    }
    if ((await kv().atomic().check(entry).set(key, { ...entry.value, failures }).commit()).ok) return "kept";
  }
  return "kept";
}

/** A delivery to the device went through: its run of failures starts again from none. */
export async function notePushSuccess(accountId: string, id: string): Promise<void> {
  const key = keys.pushSubscription(accountId, id);
  const entry = await kv().get<PushSubscription>(key);
  if (!entry.value?.failures) return;
  const { failures: _, ...rest } = entry.value;
  await kv().atomic().check(entry).set(key, rest).commit();
}

/** One device of an account, or null. */
export async function getPushSubscription(accountId: string, id: string): Promise<PushSubscription | null> {
  return (await kv().get<PushSubscription>(keys.pushSubscription(accountId, id))).value;
}

/**
 * Takes the turn of a conversation's notification to push: false when it pushed less than
 * CONVERSATION_PUSH_EVERY_MS ago (two messages a few seconds apart, read in between, push once).
 */
export async function takeConversationPushTurn(profileId: string, notificationId: string): Promise<boolean> {
  const key = keys.pushSent(profileId, notificationId);
  const entry = await kv().get<number>(key);
  if (entry.value !== null && now() - entry.value < CONVERSATION_PUSH_EVERY_MS) return false;
  const res = await kv().atomic().check(entry).set(key, now(), { expireIn: CONVERSATION_PUSH_EVERY_MS }).commit();
  return res.ok;
}
