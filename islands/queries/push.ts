/**
 * Push on this device (spec §2 Account settings, §8 push messages): the service worker, the
 * browser's subscription and the server's list of devices.
 */

import { call } from "./api.ts";
import { TEXTS } from "../../domain/texts.ts";
import { deviceOf } from "../../domain/device.ts";
import type { ApiAnswer } from "../../domain/contract.ts";

/** A device as the settings list shows it. */
export type PushDevice = ApiAnswer<"GET /api/settings">["pushSubscriptions"][number];

/** Why push cannot work here, or null when it can. */
export function pushUnsupported(): string | null {
  if (typeof Notification === "undefined") return TEXTS.pushNotSupported;
  if (!("serviceWorker" in navigator) || typeof PushManager === "undefined") return TEXTS.pushMessagingNotSupported;
  return null;
}

/** The endpoint of this browser's current subscription, or null. */
export async function currentEndpoint(): Promise<string | null> {
  if (pushUnsupported()) return null;
  try {
    const reg = await navigator.serviceWorker.getRegistration("/");
    return (await reg?.pushManager.getSubscription())?.endpoint ?? null;
  } catch (e) {
    throw new Error(TEXTS.pushGetSubscriptionFailed + " " + (e instanceof Error ? e.message : String(e)));
  }
}

function toBase64Url(buf: ArrayBuffer | null): string {
  const bytes = new Uint8Array(buf ?? new ArrayBuffer(0));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(s: string): Uint8Array<ArrayBuffer> {
  const b = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(b, (ch) => ch.charCodeAt(0));
}

/** Asks permission, subscribes this browser and stores the device on the server. */
export async function subscribeThisDevice(applicationServerKey: string): Promise<PushDevice> {
  const why = pushUnsupported();
  if (why) throw new Error(why);
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error(TEXTS.pushDenied);
  let sub: PushSubscription;
  try {
    const reg = await navigator.serviceWorker.register("/static/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    sub = await reg.pushManager.getSubscription() ??
      await reg.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: fromBase64Url(applicationServerKey),
      });
  } catch (e) {
    throw new Error(TEXTS.pushSubscribeFailed + (e instanceof Error ? e.message : String(e)));
  }
  return await call("POST /api/push-subscriptions", {}, {
    json: {
      deviceName: deviceOf(navigator.userAgent),
      endpoint: sub.endpoint,
      expirationTime: sub.expirationTime ?? 0,
      auth_base64: toBase64Url(sub.getKey("auth")),
      p256dh_base64: toBase64Url(sub.getKey("p256dh")),
    },
  });
}

/** Removes a device; when it is this browser, unsubscribes it too. */
export async function removeDevice(device: PushDevice): Promise<void> {
  await call("DELETE /api/push-subscriptions/:id", { id: device.id });
  if (await currentEndpoint().catch(() => null) === device.endpoint) {
    const reg = await navigator.serviceWorker.getRegistration("/");
    await (await reg?.pushManager.getSubscription())?.unsubscribe();
  }
}
