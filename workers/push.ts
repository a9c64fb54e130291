/**
 * The push job: delivers a notification to every device of the member. Requests are built with
 * web-push's generateRequestDetails and sent with fetch (no redirects followed); a 404 or 410
 * answer removes the dead subscription. The payload stays discreet on a lock screen, and carries
 * the notification's id as its tag: a conversation's later push (kv/notifications.ts: at most one
 * per CHAT_PUSH_EVERY_MS while it stays unread) replaces the earlier one on the device, with the
 * count as it is when sent.
 */

import webpush from "web-push";
import type { Job } from "../kv/jobs.ts";
import { getNotification } from "../kv/notifications.ts";
import { getProfile } from "../kv/profiles.ts";
import { allowedEndpoint, listPushSubscriptions, removePushSubscription, vapidKeys } from "../kv/push.ts";
import { config } from "../config/config.ts";
import { getAccount } from "../kv/accounts.ts";

type PushJob = Extract<Job, { type: "push" }>;

/** Push time to live: a notification older than a day is not worth showing. */
const PUSH_TTL_S = 86_400;

/** Sends one notification to each subscribed device. Safe to run twice (a device may show it twice). */
export async function pushJob(job: PushJob): Promise<void> {
  const profile = await getProfile(job.profileId);
  if (!profile) return;
  // In the recipient's language (their setting), not that of whoever caused it.
  const language = (await getAccount(profile.accountId))?.language ?? "en";
  const note = await getNotification(job.profileId, job.notificationId, language);
  if (!note) return;
  const subs = await listPushSubscriptions(profile.accountId);
  if (subs.length === 0) return;
  const keysPair = await vapidKeys();
  const payload = JSON.stringify({
    title: "Lambda",
    body: note.bodyText,
    url: note.url ?? "/notifications",
    tag: note.id,
  });
  const failures: string[] = [];
  for (const sub of subs) {
    if (!allowedEndpoint(sub.endpoint)) {
      await removePushSubscription(profile.accountId, sub.id);
      continue;
    }
    const req = webpush.generateRequestDetails(
      { endpoint: sub.endpoint, keys: { auth: sub.auth_base64, p256dh: sub.p256dh_base64 } },
      payload,
      {
        TTL: PUSH_TTL_S,
        vapidDetails: { subject: config.publicOrigin ?? "mailto:admin@localhost", ...keysPair },
      },
    );
    const res = await fetch(req.endpoint, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      body: req.body as Uint8Array<ArrayBuffer>,
      redirect: "manual",
    });
    await res.body?.cancel();
    if (res.status === 404 || res.status === 410) await removePushSubscription(profile.accountId, sub.id);
    else if (res.status >= 500 || res.status === 429) failures.push(`${new URL(sub.endpoint).host}: ${res.status}`);
  }
  // Retry later when a push service was unavailable; devices that got it may show it twice.
  if (failures.length) throw new Error(`push failed: ${failures.join(", ")}`);
}
