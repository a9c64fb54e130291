/**
 * The push job: delivers a notification to every device of the member (RFC 8030), its payload
 * encrypted to each device's keys (RFC 8291, aes128gcm) and signed for with the server's VAPID
 * key (RFC 8292). Requests are built with web-push's generateRequestDetails and sent with fetch
 * (no redirects followed).
 *
 * What a member sees: the notification's text in their language; a device in discreet mode, or a
 * member where being gay is a crime (domain/safety.ts), gets a neutral "Notes" notification that
 * names neither the app nor what happened. Its tag is the notification's id: a conversation's later
 * push replaces the earlier one on the device.
 *
 * Quiet when it should be: no push during the member's do-not-disturb hours, none for the
 * conversation they have open in view (kv/presence.ts `isLookingAt`), and a conversation's
 * notification pushes at most once a minute (kv/push.ts `takeConversationPushTurn`).
 *
 * What a push service answers: 2xx delivered (the device's run of failures ends); 404 or 410 the
 * subscription is gone, the device is removed; 429 or 5xx (or no answer) the device is tried again
 * alone, after the service's `Retry-After` when it gives one, and a device that fails
 * PUSH_DEVICE_MAX_FAILURES deliveries in a row is removed (Settings no longer lists it). Other 4xx
 * (a request the service will never take) count as a failure without a retry.
 */

import { backoffMs, enqueueJobNow, type Job } from "../kv/jobs.ts";
import { getNotification } from "../kv/notifications.ts";
import { getProfile } from "../kv/profiles.ts";
import {
  allowedEndpoint,
  listPushSubscriptions,
  notePushFailure,
  notePushSuccess,
  type PushSubscription,
  removePushSubscription,
  takeConversationPushTurn,
  vapidKeys,
  webPush,
} from "../kv/push.ts";
import { config } from "../config/config.ts";
import { getAccount } from "../kv/accounts.ts";
import { isLookingAt } from "../kv/presence.ts";
import { safetyPlace } from "../kv/safety.ts";
import { now } from "../kv/clock.ts";
import { inQuietHours } from "../domain/quietHours.ts";
import { withLocale } from "../domain/i18n.ts";
import { TEXTS } from "../domain/texts.ts";
import { NOTIFICATION_TEXTS } from "../domain/notifications.ts";

type PushJob = Extract<Job, { type: "push" }>;

/** Push time to live: a notification older than a day is not worth showing. */
export const PUSH_TTL_S = 86_400;
/** A `Retry-After` is honoured within these bounds (a service asking for a day would hold a device's news for ever). */
const RETRY_AFTER_MIN_MS = 1_000;
const RETRY_AFTER_MAX_MS = 3_600_000;
/** How long one push service may take to answer. */
const SEND_TIMEOUT_MS = 15_000;

/** What the service worker gets (islands/sw/worker.ts shows it). */
export interface PushPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
  icon: string;
}

/** The app's and the neutral notification icons. */
const ICON = "/static/icons/icon-192.png";
const NEUTRAL_ICON = "/static/icons/neutral-192.png";

/**
 * The delay a `Retry-After` header asks for (RFC 9110: seconds, or an HTTP date), bounded; null
 * when there is none or it cannot be read.
 */
export function retryAfterMs(header: string | null, at = now()): number | null {
  if (!header) return null;
  const v = header.trim();
  let ms: number;
  if (/^\d+$/.test(v)) ms = Number(v) * 1000;
  else {
    const date = Date.parse(v);
    if (Number.isNaN(date)) return null;
    ms = date - at;
  }
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, ms));
}

/** Sends the notification to the member's devices (or, for a retry, the one device). Safe to run twice. */
export async function pushJob(job: PushJob): Promise<void> {
  const profile = await getProfile(job.profileId);
  if (!profile) return;
  const account = await getAccount(profile.accountId);
  if (!account) return;
  // Do not disturb: the notification waits in the app.
  if (inQuietHours(account.quietHours, now())) return;
  // The member has this conversation in view: the page shows the message as it comes.
  if (job.conversationWith && await isLookingAt(job.profileId, job.conversationWith)) return;
  // In the recipient's language (their setting), not that of whoever caused it.
  const language = account.language ?? "en";
  const note = await getNotification(job.profileId, job.notificationId, language);
  if (!note) return; // read or deleted meanwhile
  const subs = (await listPushSubscriptions(profile.accountId))
    .filter((s) => !job.subscriptionId || s.id === job.subscriptionId);
  if (subs.length === 0) return;
  // One push per conversation a minute (a retry to one device is the same push, not another).
  if (job.conversationWith && !job.subscriptionId && !(await takeConversationPushTurn(job.profileId, note.id))) {
    return;
  }
  const atRisk = (await safetyPlace(job.profileId)).atRisk;
  const url = note.url ?? "/notifications";
  const plain: PushPayload = { title: "Lambda", body: note.bodyText, url, tag: note.id, icon: ICON };
  const neutral: PushPayload = withLocale(language, () => ({
    title: TEXTS.neutralTitle,
    body: NOTIFICATION_TEXTS.neutral,
    url,
    tag: note.id,
    icon: NEUTRAL_ICON,
  }));
  const keysPair = await vapidKeys();
  const urgency = job.conversationWith ? "high" : "normal";
  for (const sub of subs) {
    if (!allowedEndpoint(sub.endpoint)) {
      await removePushSubscription(profile.accountId, sub.id);
      continue;
    }
    const payload = atRisk || sub.discreet ? neutral : plain;
    const outcome = await deliver(sub, JSON.stringify(payload), keysPair, urgency);
    if (outcome.kind === "delivered") await notePushSuccess(profile.accountId, sub.id);
    else if (outcome.kind === "gone") await removePushSubscription(profile.accountId, sub.id);
    else {
      const state = await notePushFailure(profile.accountId, sub.id);
      if (state === "kept" && outcome.kind === "later") {
        const failures = (sub.failures ?? 0) + 1;
        await enqueueJobNow(
          { ...job, subscriptionId: sub.id },
          { delayMs: outcome.retryAfterMs ?? backoffMs(failures), maxAttempts: 5 },
        );
      }
    }
  }
}

/** What became of one delivery. */
type Outcome =
  | { kind: "delivered" }
  | { kind: "gone" }
  | { kind: "later"; retryAfterMs: number | null }
  | { kind: "refused"; status: number };

/** Sends one encrypted push to one device's push service and reads its answer. */
async function deliver(
  sub: PushSubscription,
  payload: string,
  keysPair: { publicKey: string; privateKey: string },
  urgency: "high" | "normal",
): Promise<Outcome> {
  const req = (await webPush.load()).generateRequestDetails(
    { endpoint: sub.endpoint, keys: { auth: sub.auth_base64, p256dh: sub.p256dh_base64 } },
    payload,
    {
      TTL: PUSH_TTL_S,
      urgency,
      contentEncoding: "aes128gcm",
      vapidDetails: { subject: config.vapidSubject, ...keysPair },
    },
  );
  let res: Response;
  try {
    res = await fetch(req.endpoint, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.body as Uint8Array<ArrayBuffer>,
      redirect: "manual",
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch {
    return { kind: "later", retryAfterMs: null }; // no answer: the service may be back soon
  }
  await res.body?.cancel();
  if (res.status >= 200 && res.status < 300) return { kind: "delivered" };
  if (res.status === 404 || res.status === 410) return { kind: "gone" };
  if (res.status === 429 || res.status >= 500) {
    return { kind: "later", retryAfterMs: retryAfterMs(res.headers.get("retry-after")) };
  }
  console.warn(`push: ${new URL(sub.endpoint).host} refused a delivery: ${res.status}`);
  return { kind: "refused", status: res.status };
}
