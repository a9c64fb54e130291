/**
 * Push subscriptions of an account's devices and the server's VAPID keys. Endpoints are accepted
 * only on https port 443 of known push services (design.md); `PUSH_EXTRA_ORIGINS` adds others
 * (tests point it at a local receiver).
 */

import webpush from "web-push";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import { commitForgetting, keptRead } from "./kept.ts";
import { viewedProfile } from "./profiles.ts";

/** A device's push subscription (spec §3). */
export interface PushSubscription {
  id: string;
  deviceName: string;
  endpoint: string;
  expirationTime: number;
  auth_base64: string;
  p256dh_base64: string;
  tsCreated: number;
}

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
  const extra = (Deno.env.get("PUSH_EXTRA_ORIGINS") ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  if (extra.includes(url.origin)) return true;
  return url.protocol === "https:" && (url.port === "" || url.port === "443") && !url.username &&
    PUSH_HOSTS.some((re) => re.test(url.hostname));
}

/** The VAPID key pair: from env, else generated once and kept in KV. */
export async function vapidKeys(): Promise<{ publicKey: string; privateKey: string }> {
  const pub = Deno.env.get("VAPID_PUBLIC_KEY"), priv = Deno.env.get("VAPID_PRIVATE_KEY");
  if (pub && priv) return { publicKey: pub, privateKey: priv };
  const stored = await kv().get<{ publicKey: string; privateKey: string }>(keys.vapidKeys());
  if (stored.value) return stored.value;
  const made = webpush.generateVAPIDKeys();
  await kv().atomic().check(stored).set(keys.vapidKeys(), made).commit();
  return (await kv().get<{ publicKey: string; privateKey: string }>(keys.vapidKeys())).value!;
}

/** Stores a device's subscription; the same endpoint again replaces the old record. */
export async function addPushSubscription(
  accountId: string,
  s: Omit<PushSubscription, "id" | "tsCreated">,
): Promise<PushSubscription> {
  const existing = (await listPushSubscriptions(accountId)).find((x) => x.endpoint === s.endpoint);
  const sub: PushSubscription = { ...s, id: existing?.id ?? newId(), tsCreated: now() };
  const op = kv().atomic().set(keys.pushSubscription(accountId, sub.id), sub);
  if (!(await commitForgetting(op, "pushDevices", [accountId]))) throw new Error("push subscription not stored");
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

/** Has the member of profile `profileId` a device to push to (see `hasPushDevice`)? */
export async function pushReachable(profileId: string): Promise<boolean> {
  const p = await viewedProfile(profileId);
  return !!p && await hasPushDevice(p.accountId);
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
  if (!(await kv().get(key)).value) return false;
  await commitForgetting(kv().atomic().delete(key), "pushDevices", [accountId]);
  return true;
}
