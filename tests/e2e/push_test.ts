/**
 * Push notifications in a real browser: the app's push worker sends to a push service on loopback
 * (tests/pushService.ts), which decrypts what it got; that payload is then delivered to the page's
 * service worker over the DevTools protocol (`ServiceWorker.deliverPushMessage`), as a browser's
 * push service would. The notification shown is read back with `registration.getNotifications()`,
 * and tapping it opens the conversation, or the likes tab, in the app's open tab.
 */

import assert from "node:assert/strict";
import type { BrowserContext, CDPSession, Page, Worker } from "playwright-core";
import { logInThroughApi, startHarness } from "./harness.ts";
import { startPushService, type TestSubscription } from "../pushService.ts";
import { resetClock, shiftClock } from "../../kv/clock.ts";
import { isLookingAt } from "../../kv/presence.ts";
import { TEXTS } from "../../domain/texts.ts";
import { listNotifications } from "../../kv/notifications.ts";
import { jobStats } from "../../kv/jobs.ts";
import { until } from "../wait.ts";

/** Has the member an unread conversation's notification? */
const unreadChat = async (profileId: string) =>
  (await listNotifications(profileId)).some((n) => n.url?.endsWith("#chat"));

/** Notifications the page's service worker shows now. */
const shown = (page: Page) =>
  page.evaluate(async () =>
    (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
      title: n.title,
      body: n.body,
      icon: n.icon,
      tag: n.tag,
      url: (n.data as { url?: string } | null)?.url,
    }))
  );

/** The id of the page's service worker registration, as the DevTools protocol names it. */
async function registrationId(cdp: CDPSession, origin: string): Promise<string> {
  const { promise, resolve } = Promise.withResolvers<string>();
  cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
    const reg = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
    if (reg) resolve(reg.registrationId);
  });
  await cdp.send("ServiceWorker.enable");
  return await promise;
}

/** The app's service worker in `context`, once it runs. */
async function serviceWorker(context: BrowserContext): Promise<Worker> {
  return context.serviceWorkers()[0] ?? await context.waitForEvent("serviceworker");
}

/** Taps the notification with `tag`: a notificationclick in the worker, as the system sends one. */
async function tap(worker: Worker, tag: string): Promise<void> {
  await worker.evaluate(async (tag) => {
    const scope = self as unknown as EventTarget & { registration: ServiceWorkerRegistration };
    const [n] = await scope.registration.getNotifications({ tag });
    if (!n) throw new Error(`no notification tagged ${tag}`);
    const E = (self as unknown as { NotificationEvent: typeof Event }).NotificationEvent as unknown as new (
      type: string,
      init: { notification: Notification },
    ) => Event;
    scope.dispatchEvent(new E("notificationclick", { notification: n }));
  }, tag);
}

/** `f`'s answer once it has one (not undefined), asked every 100 ms for up to `ms`. */
function waitFor<T>(what: string, f: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  return until(async () => (await f()) ?? null, what, { timeoutMs: ms, everyMs: 100 }) as Promise<T>;
}

Deno.test("e2e phone - push: a message and a like reach the service worker as one notification each, replaced not stacked; tapping opens them in the open tab; none for the conversation in view", async () => {
  const service = startPushService();
  Deno.env.set("PUSH_EXTRA_ORIGINS", service.origin);
  // The full browser: the headless shell shows none of these pushes (its service worker's
  // notifications stay empty), where the full one shows them as a phone would.
  const h = await startHarness({ fullBrowser: true });
  try {
    // A only calls the API: a browser context for A's session, and no page.
    const a = { context: await h.browser.newContext() }, b = await h.newPage("phone", { serviceWorkers: "allow" });
    await b.context.grantPermissions(["notifications"], { origin: h.origin });
    const aId = (await logInThroughApi(a.context, h.origin, "push-a@example.com")).profileId;
    const bId = (await logInThroughApi(b.context, h.origin, "push-b@example.com")).profileId;
    // A writes through the API with A's session (A's screens are not what this test looks at).
    const send = async (bodyText: string) =>
      (await a.context.request.post(`${h.origin}/api/message`, {
        headers: { origin: h.origin },
        data: { senderProfileId: aId, recipientProfileId: bId, bodyText, profilePicIds: [], tsCreated: 0 },
      })).status();

    // B's page registers the service worker and is controlled by it.
    await b.page.goto("/notifications");
    await b.page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 30_000 });
    const worker = await serviceWorker(b.context);

    // Chromium subscribes through a push service of its own (Google's), which a test machine cannot
    // reach: the subscription is made at the test's push service and stored through the API instead.
    const browserSub = await b.page.evaluate(async () => {
      try {
        const settings = await fetch("/api/settings").then((r) => r.json());
        const key = Uint8Array.from(
          atob(settings.applicationServerKey.replace(/-/g, "+").replace(/_/g, "/")),
          (c) => c.charCodeAt(0),
        );
        const reg = await navigator.serviceWorker.ready;
        const sub = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
        return sub.endpoint;
      } catch (e) {
        return `failed: ${e instanceof Error ? e.message : e}`;
      }
    });
    console.log(`browser's own subscription: ${browserSub}`);
    const sub: TestSubscription = await service.subscribe();
    const stored = await b.page.evaluate((s) =>
      fetch("/api/push-subscriptions", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ deviceName: "Chromium", expirationTime: 0, ...s }),
      }).then((r) => r.status), sub);
    assert.equal(stored, 201);

    const cdp = await b.context.newCDPSession(b.page);
    const regId = await registrationId(cdp, h.origin);
    const deliver = (payload: Record<string, string>) =>
      cdp.send("ServiceWorker.deliverPushMessage", {
        origin: h.origin,
        registrationId: regId,
        data: JSON.stringify(payload),
      });
    /**
     * Delivers a push and waits until the notifications shown pass `check`. A worker the browser
     * was still waking may miss a delivery: it is delivered again (its tag makes that harmless).
     */
    const deliverUntil = async (
      payload: Record<string, string>,
      check: (list: Awaited<ReturnType<typeof shown>>) => boolean,
    ) => {
      for (let i = 0; i < 5; i++) {
        await deliver(payload);
        const list = await until(
          async () => {
            const list = await shown(b.page);
            return check(list) ? list : null;
          },
          "the notification shown",
          { timeoutMs: 3_000, everyMs: 100 },
        ).catch(() => null);
        if (list) return list;
      }
      throw new Error(`the notification was not shown: ${JSON.stringify(await shown(b.page))}`);
    };

    // A writes: the worker pushes it to the push service, which hands it to B's service worker.
    assert.equal(await send("Hi! Coffee later?"), 201);
    const first = await waitFor("the first push", () => service.to(sub.endpoint)[0]);
    assert.equal(first.urgency, "high");
    const one = await deliverUntil(first.payload, (list) => list.length === 1);
    assert.deepEqual(one, [{
      title: "Lambda",
      body: "You have a new message.",
      icon: `${h.origin}/static/icons/icon-192.png`,
      tag: first.payload.tag,
      url: `/profile/${aId}#chat`,
    }]);

    // Later, another message of the same conversation: it replaces the first, not a second one.
    shiftClock(16 * 60_000);
    assert.equal(await send("Or tomorrow?"), 201);
    const second = await waitFor("the second push", () => service.to(sub.endpoint)[1]);
    await deliverUntil(second.payload, (list) => list.length === 1 && list[0].body === "You have 2 new messages.");

    // A like: a notification of its own, beside the conversation's.
    const liked = await a.context.request.put(`${h.origin}/api/profile-like`, {
      headers: { origin: h.origin },
      data: { likerProfileId: aId, likedProfileId: bId, likeType: "LIKE" },
    });
    assert.equal(liked.status(), 200);
    const like = await waitFor("the like's push", () => service.to(sub.endpoint)[2]);
    assert.equal(like.urgency, "normal");
    await deliverUntil(like.payload, (list) => list.length === 2);
    assert.deepEqual((await shown(b.page)).map((n) => n.body).sort(), [
      "Someone liked your profile.",
      "You have 2 new messages.",
    ]);

    // Tapping the like opens the likes tab in B's open tab, not in another.
    await b.page.goto("/search/tile");
    await tap(worker, like.payload.tag);
    await b.page.waitForURL(`${h.origin}/likes/profilelikedyou`);
    assert.equal(b.context.pages().length, 1, "no other tab opened");

    // Tapping the conversation's opens the conversation there (a minute on: past its once-a-minute turn).
    shiftClock(61_000);
    await tap(worker, first.payload.tag);
    await b.page.waitForURL(`${h.origin}/profile/${aId}#chat`);
    assert.equal(b.context.pages().length, 1, "no other tab opened");
    assert.deepEqual(await shown(b.page), [], "tapped notifications are closed");

    // B now has the conversation on screen: A's next message pushes nothing, the page shows it.
    await b.page.getByRole("log").waitFor();
    await waitFor("the page to say the conversation is in view", async () => await isLookingAt(bId, aId) || undefined);
    await waitFor("the conversation read on opening", async () => (await unreadChat(bId)) ? undefined : true);
    assert.equal(await send("I can see you're here"), 201);
    await b.page.getByText("I can see you're here").waitFor({ timeout: 10_000 });
    await waitFor("the new message read", async () => (await unreadChat(bId)) ? undefined : true);
    assert.equal(service.to(sub.endpoint).length, 3, "no push for the conversation in view");

    // B leaves it: the page says so as it goes (a beacon), and in any case the mark lasts 45 s past
    // the page's last word; a minute on, A's next message pushes again.
    await b.page.goto("/notifications");
    shiftClock(61_000);
    assert.equal(await isLookingAt(bId, aId), false, "no longer in view");
    assert.equal(await send("Gone already?"), 201);
    const after = await waitFor("a push once the conversation is left", () => service.to(sub.endpoint)[3]);
    assert.equal(after.payload.body, "You have a new message.");

    // Do not disturb, set in Settings around the browser's present time: nothing pushes; turned off, it does.
    await b.page.goto("/settings");
    await b.page.getByRole("checkbox", { name: TEXTS.doNotDisturbOn }).check();
    await b.page.getByRole("status").filter({ hasText: TEXTS.saved }).waitFor();
    const [from, to] = await b.page.evaluate(() => {
      const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
      return [hhmm(new Date(Date.now() - 3_600_000)), hhmm(new Date(Date.now() + 3 * 3_600_000))];
    });
    await b.page.getByLabel(TEXTS.quietFrom, { exact: true }).fill(from);
    await b.page.getByLabel(TEXTS.quietTo, { exact: true }).fill(to);
    const browserZone = await b.page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await waitFor("the hours saved", async () => {
      const q = await b.page.evaluate(() => fetch("/api/settings").then((r) => r.json()).then((s) => s.quietHours));
      return q?.from === from && q?.to === to ? q : undefined;
    }).then((q) => assert.equal(q.timeZone, browserZone, "in the member's time zone"));
    await b.page.getByText(`${TEXTS.timeZone}: ${browserZone}`).waitFor();
    shiftClock(61_000);
    const before = service.to(sub.endpoint).length;
    assert.equal(await send("Late night?"), 201);
    await waitFor("the notification stored", async () => (await unreadChat(bId)) || undefined);
    // The job worker has had the push's job (stored with the notification) and is done with it:
    // had it pushed, the push service would have it by now.
    await waitFor("the job worker done with the queue", async () => {
      const jobs = await jobStats();
      return jobs.due + jobs.running === 0 ? true : undefined;
    });
    assert.equal(service.to(sub.endpoint).length, before, "nothing pushed in do-not-disturb hours");
    await b.page.getByRole("checkbox", { name: TEXTS.doNotDisturbOn }).uncheck();
    await waitFor("the hours off", async () => {
      const q = await b.page.evaluate(() => fetch("/api/settings").then((r) => r.json()).then((s) => s.quietHours));
      return q === null ? true : undefined;
    });
    await b.page.evaluate((other) => fetch(`/api/messages/read/${other}`, { method: "PUT" }), aId);
    shiftClock(61_000);
    assert.equal(await send("Morning!"), 201);
    await waitFor("a push once quiet hours are off", () => service.to(sub.endpoint)[before]);
    assert.deepEqual(service.problems, []);

    await cdp.detach();
    await a.context.close();
    await b.context.close();
  } finally {
    resetClock();
    Deno.env.delete("PUSH_EXTRA_ORIGINS");
    await h.close();
    await service.close();
  }
});
