/**
 * Installed and offline, in Chromium: the service worker comes with the first signed-in page; the
 * member browses the grid and a conversation, loses the connection, opens the app again from its
 * start_url and finds the members (with their pictures), the conversation list and the
 * conversation, with the offline line (over the full-screen chat too), the map's last members as a
 * list and the settings read-only; a screen never seen says it needs a connection; a message
 * (and a like, a note) written offline waits as pending and lands once when the connection returns. After logout no
 * cache holds the member's pages, reads or pictures. Saves the offline screens to docs/screens/after/.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { docShot, logInThroughApi, SAVE_SHOTS, settledPaint, startHarness, waitHydrated } from "./harness.ts";
import { OFFLINE_CONFIRMED_MS } from "../../domain/offline.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { TEXTS } from "../../domain/texts.ts";
import { getProfileLike } from "../../kv/likes.ts";
import { getNote } from "../../kv/notes.ts";
import { createAccount, getAccountByEmail } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { conversationWith, sendPrivateMessage } from "../../kv/messages.ts";
import { portraitPicture } from "../fixtures/pictures.ts";

const SCREENS = new URL("../../docs/screens/after/", import.meta.url).pathname;
const HOME = { lat: 33.4484, lon: -112.074 };

/** The first screenful, light and dark, when screenshots are taken (`deno task screens`). */
async function screens(page: Page, name: string) {
  await settledPaint(page);
  if (!SAVE_SHOTS) return;
  await docShot(page, `${SCREENS}${name}.png`);
  await page.emulateMedia({ colorScheme: "dark" });
  await settledPaint(page);
  await docShot(page, `${SCREENS}${name}-dark.png`);
  await page.emulateMedia({ colorScheme: "light" });
}

/** Every picture in view has loaded (from the network or the worker's cache). */
async function picturesShown(page: Page): Promise<number> {
  await page.waitForFunction(() =>
    [...document.images].filter((i) => i.getBoundingClientRect().top < innerHeight).every((i) => i.complete)
  );
  return await page.evaluate(() =>
    [...document.images].filter((i) => i.src.includes("/api/profile-pic/") && i.naturalWidth > 0).length
  );
}

Deno.test("e2e phone - offline: the app opens on what it last saw, a message waits and lands once, logout leaves no private cache", async () => {
  const h = await startHarness();
  try {
    // A neighbour with a picture, who wrote to the member.
    const sam = (await createAccount({ email: "offline-sam@example.com", name: "Sam" }))!;
    await updateProfile(sam.defaultProfileId, { profilename: "Sam Offline", birthdate: "1991-06-02" });
    await addPicture(sam.defaultProfileId, await portraitPicture(1));
    await reportPosition(sam.defaultProfileId, { lat: HOME.lat + 0.004, lon: HOME.lon, use: "OVERRIDE", hide: false });

    const { context, page } = await h.newPage("phone", { serviceWorkers: "allow" });
    await logInThroughApi(context, h.origin, "offline-me@example.com");
    const me = (await getAccountByEmail("offline-me@example.com"))!.defaultProfileId;
    await reportPosition(me, { ...HOME, use: "OVERRIDE", hide: false });
    await sendPrivateMessage(sam.defaultProfileId, me, "Are you at the bar by the station?", []);

    // The worker installs with the first signed-in page and takes it over.
    await page.goto("/search/tile");
    await waitHydrated(page);
    await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 30_000 });

    // Browse: the grid (with Sam's picture), the conversation list, the conversation.
    await page.goto("/search/tile");
    await waitHydrated(page);
    await page.getByText("Sam Offline").first().waitFor();
    assert.ok(await picturesShown(page) >= 1, "Sam's picture shows online");
    await page.goto("/chat/personal");
    await waitHydrated(page);
    await page.getByText("Are you at the bar by the station?").first().waitFor();
    await page.goto(`/profile/${sam.defaultProfileId}#chat`);
    await waitHydrated(page);
    await page.locator(".bubble", { hasText: "Are you at the bar by the station?" }).waitFor();
    // The map, once: its view's members are kept with the page.
    await page.goto("/search/map");
    await page.locator(".leaflet-marker-icon[title='Sam Offline']").waitFor();
    await page.waitForFunction(() => localStorage.getItem("map-view") !== null);

    // No connection; the app is opened again from its start_url.
    await context.setOffline(true);
    await page.goto("/search/tile");
    await page.getByText("Sam Offline").first().waitFor();
    await page.getByText(UI_TEXTS.offlineLine).waitFor();
    assert.ok(await picturesShown(page) >= 1, "Sam's picture shows offline, from the cache");
    await waitHydrated(page);
    await screens(page, "phone-offline-grid");

    await page.goto("/chat/personal");
    await page.getByText("Are you at the bar by the station?").first().waitFor();
    await page.getByText(UI_TEXTS.offlineLine).waitFor();

    // A screen never opened says it needs a connection (not the browser's offline page).
    await page.goto("/notifications");
    await page.getByText(UI_TEXTS.offlineScreen).waitFor();

    // The map lists the members of its last view; the settings (kept though never opened) show read-only.
    await page.goto("/search/map");
    await page.locator(".map-offline").getByText(UI_TEXTS.mapOfflineList).waitFor();
    await page.locator(".map-offline a", { hasText: "Sam Offline" }).waitFor();
    await screens(page, "phone-offline-map");
    await page.goto("/settings");
    await page.getByText(UI_TEXTS.settingsOffline).waitFor();
    await waitHydrated(page);
    await page.waitForFunction(() => document.querySelectorAll("[data-offline-disabled]").length > 0);
    const enabled = await page.locator("[data-online-only] :is(input, select, textarea, button):enabled").count();
    assert.equal(enabled, 0, "no setting can be changed offline");
    await screens(page, "phone-offline-settings");

    // The conversation reads offline; a message written waits on the device, shown as pending.
    await page.goto(`/profile/${sam.defaultProfileId}#chat`);
    await waitHydrated(page);
    await page.locator(".bubble", { hasText: "Are you at the bar by the station?" }).waitFor();
    const box = page.getByRole("textbox", { name: "Message" });
    await box.fill("Yes, by the window");
    await box.press("Enter");
    const waiting = page.locator(".bubble.queued", { hasText: "Yes, by the window" });
    await waiting.getByText(UI_TEXTS.messageWaiting).waitFor();
    // The full-screen chat keeps the offline line in sight, above the conversation's head.
    const line = (await page.getByText(UI_TEXTS.offlineLine).boundingBox())!;
    assert.ok(line && line.height > 0, "the offline line shows over the full-screen chat");
    const seen = await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest(".offline-line") !== null, {
      x: line.x + line.width / 2,
      y: line.y + line.height / 2,
    });
    assert.ok(seen, "nothing covers the offline line");
    const head = (await page.locator(".chat-head").boundingBox())!;
    assert.ok(head.y >= line.y + line.height - 1, "the chat's head starts under it");
    await screens(page, "phone-offline-message-pending");
    assert.equal(
      (await conversationWith(me, sam.defaultProfileId)).items.length,
      1,
      "only Sam's message on the server",
    );

    // A like and a note written offline wait too.
    await page.goto(`/profile/${sam.defaultProfileId}`);
    await waitHydrated(page);
    await page.getByRole("button", { name: TEXTS.like, exact: true }).click();
    await page.getByRole("button", { name: TEXTS.removeLike }).waitFor();
    await page.locator(".like-button").getByText(UI_TEXTS.writeWaiting).waitFor();
    await page.getByRole("button", { name: "Add Private Notes" }).click();
    await page.getByLabel("Note", { exact: true }).fill("Bar by the station, Thursdays.");
    await page.getByRole("button", { name: "Done" }).click();
    await page.locator(".notes-panel").getByText(UI_TEXTS.writeWaiting).waitFor();
    await screens(page, "phone-offline-like-note-pending");
    assert.equal(
      (await getProfileLike(me, sam.defaultProfileId)).likeType,
      "UNDETERMINED",
      "no like on the server yet",
    );
    await page.goto(`/profile/${sam.defaultProfileId}#chat`);
    await waitHydrated(page);
    await waiting.getByText(UI_TEXTS.messageWaiting).waitFor();
    // Back online: delivered by itself, once.
    await context.setOffline(false);
    await page.locator(".bubble.mine:not(.queued)", { hasText: "Yes, by the window" }).waitFor({ timeout: 30_000 });
    await page.getByText(UI_TEXTS.offlineLine).waitFor({ state: "detached" });
    const texts = (await conversationWith(me, sam.defaultProfileId)).items.map((m) => m.bodyText);
    assert.deepEqual(texts.filter((t) => t === "Yes, by the window"), ["Yes, by the window"], "stored once");
    await until(async () => (await getNote(me, sam.defaultProfileId)).bodyText !== "", "the note stored").catch(
      () => {},
    );
    assert.equal((await getProfileLike(me, sam.defaultProfileId)).likeType, "LIKE", "the like landed");
    assert.equal((await getNote(me, sam.defaultProfileId)).bodyText, "Bar by the station, Thursdays.", "the note too");
    // The page clears each write from its outbox when the server's answer arrives, just after the store has it.
    await page.waitForFunction(() => localStorage.getItem("app-outbox") === null, null, { timeout: 10_000 })
      .catch(() => {});
    assert.equal(await page.evaluate(() => localStorage.getItem("app-outbox")), null, "nothing left waiting");

    // Kept while signed in: pages, reads and pictures in the member's own caches.
    const before = await page.evaluate(() => caches.keys());
    assert.ok(before.some((n) => n.startsWith("lambda-private-pages-")), `pages kept: ${before}`);
    assert.ok(before.some((n) => n.startsWith("lambda-private-pictures-")), `pictures kept: ${before}`);

    // Push still comes through the same worker: a pushed message shows its notification.
    await context.grantPermissions(["notifications"], { origin: h.origin });
    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) =>
      cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => {
        const r = e.registrations.find((x) => x.scopeURL === `${h.origin}/` && !x.isDeleted);
        if (r) resolve(r.registrationId);
      })
    );
    await cdp.send("ServiceWorker.enable");
    await cdp.send("ServiceWorker.deliverPushMessage", {
      origin: h.origin,
      registrationId: await registration,
      data: JSON.stringify({ title: "Lambda", body: "Sam wrote to you", url: "/chat/personal", tag: "chat" }),
    });
    await page.waitForFunction(() =>
      navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) =>
        ns.some((n) => n.body === "Sam wrote to you" && n.tag === "chat")
      )
    );
    await cdp.detach();

    // Logout: nothing of the member is left in any cache.
    await page.goto("/logout");
    await page.getByText("You are logged out.").waitFor();
    await page.waitForFunction(() =>
      caches.keys().then((ks) => !ks.some((k) => k.startsWith("lambda-private-") || k === "lambda-meta"))
    );
    const left = await page.evaluate(async () => {
      const found: string[] = [];
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const req of await cache.keys()) {
          const path = new URL(req.url).pathname;
          if (!path.startsWith("/static/")) found.push(`${name} ${path}`);
          const body = await (await cache.match(req))?.text() ?? "";
          if (body.includes("Sam Offline") || body.includes("by the station")) found.push(`${name} ${path} holds it`);
        }
      }
      return found;
    });
    assert.deepEqual(left, [], "only the app's own files are cached after logout");
    await context.close();
  } finally {
    await h.close();
  }
});

/** The plain offline page of the worker (islands/sw/worker.ts), shown when nothing private may be. */
const PLAIN_OFFLINE = "You are offline. This screen needs a connection.";

/** Opens /settings online with the worker in charge: the member's page (with the email) is kept on the device. */
async function settingsKept(page: Page, email: string): Promise<void> {
  await page.goto("/search/tile");
  await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 30_000 });
  await page.goto("/settings");
  assert.ok((await page.content()).includes(email), "online, Settings shows the email");
  await page.waitForFunction(
    () => caches.keys().then((ks) => ks.some((k) => k.startsWith("lambda-private-pages-"))),
  );
}

/** What /settings shows this device offline: never the email, the plain offline page instead. */
async function settingsOffline(page: Page, email: string): Promise<void> {
  await page.goto("/settings");
  await page.getByText(PLAIN_OFFLINE).waitFor();
  assert.ok(!(await page.content()).includes(email), "offline, the email is not shown");
  const kept = await page.evaluate(async (email) => {
    const found: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const req of await cache.keys()) {
        if ((await (await cache.match(req))?.text() ?? "").includes(email)) found.push(`${name} ${req.url}`);
      }
    }
    return found;
  }, email);
  assert.deepEqual(kept, [], "no cache on the device holds the member's email");
}

Deno.test("e2e phone - logged out elsewhere: the ending event wipes this device's private copies; offline, Settings is the offline page", async () => {
  const h = await startHarness();
  try {
    const email = "offline-ended@example.com";
    // Device A: the phone with the worker; Settings was seen online, so it is kept.
    const a = await h.newPage("phone", { serviceWorkers: "allow" });
    await logInThroughApi(a.context, h.origin, email);
    await settingsKept(a.page, email);
    assert.ok(await a.page.evaluate(() => localStorage.length > 0), "the page keeps things in local storage");

    // Device B, the same member, logs out everywhere else from Settings.
    const b = await h.newPage("desktop");
    await logInThroughApi(b.context, h.origin, email);
    await b.page.goto("/settings");
    const devices = b.page.getByRole("region", { name: "Logged-in devices" });
    await devices.getByRole("button", { name: TEXTS.logOutEverywhereElse }).click();
    await devices.getByText(TEXTS.loggedOutEverywhereElse).waitFor();

    // A hears its session end on its live feed: it wipes what it kept and goes to login.
    await a.page.waitForURL(`${h.origin}/login`, { timeout: 15_000 });
    await a.page.waitForFunction(() =>
      caches.keys().then((ks) => !ks.some((k) => k.startsWith("lambda-private-") || k === "lambda-meta"))
    );
    assert.equal(await a.page.evaluate(() => localStorage.getItem("app-query-cache")), null, "no query cache left");

    // Offline now: Settings is the offline page, not the kept copy with the email.
    await a.context.setOffline(true);
    await settingsOffline(a.page, email);
    await screens(a.page, "phone-offline-session-ended");
    await a.context.close();
    await b.context.close();
  } finally {
    await h.close();
  }
});

Deno.test("e2e phone - offline past a day since the session was last confirmed: the private copies are not shown, and are wiped", async () => {
  const h = await startHarness();
  try {
    const email = "offline-stale@example.com";
    const { context, page } = await h.newPage("phone", { serviceWorkers: "allow" });
    await logInThroughApi(context, h.origin, email);
    await settingsKept(page, email);

    // Confirmed lately: offline, the kept Settings shows.
    await context.setOffline(true);
    await page.goto("/settings");
    await page.getByText(UI_TEXTS.offlineLine).waitFor();
    assert.ok((await page.content()).includes(email), "within a day, the kept copy shows offline");

    // The device's last confirmation is now a day and a minute old (as after a day away from any
    // connection, while the session may have ended elsewhere).
    await page.evaluate((age) => {
      const at = String(Date.now() - age);
      return caches.open("lambda-meta").then((c) => c.put("/__offline-confirmed", new Response(at)));
    }, OFFLINE_CONFIRMED_MS + 60_000);
    await settingsOffline(page, email);
    await page.goto("/search/tile");
    await page.getByText(PLAIN_OFFLINE).waitFor();
    await context.close();
  } finally {
    await h.close();
  }
});

Deno.test("e2e phone - a new version installs in the background and is offered, never swapped under the member", async () => {
  // The test writes a new service worker into the build: its own copy, not the one other files share.
  const h = await startHarness({ ownBuild: true });
  const worker = `${Deno.env.get("BUILD_DIR")}/sw.js`;
  const original = await Deno.readTextFile(worker);
  try {
    const { context, page } = await h.newPage("phone", { serviceWorkers: "allow" });
    await logInThroughApi(context, h.origin, "offline-update@example.com");
    await page.goto("/chat/personal");
    await page.waitForFunction(() => !!navigator.serviceWorker.controller, undefined, { timeout: 30_000 });
    const first = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);

    // A deploy: the worker's bytes change. The page finds it and installs it while the member types.
    await Deno.writeTextFile(worker, `${original}\n// the next build\n`);
    await page.evaluate(() => {
      const box = document.createElement("textarea");
      box.id = "typing";
      document.getElementById("main")!.append(box);
      box.value = "half a sentence";
      return navigator.serviceWorker.getRegistration("/").then((r) => r?.update());
    });
    await page.getByText(UI_TEXTS.updateReady).waitFor({ timeout: 30_000 });
    assert.equal(await page.locator("#typing").inputValue(), "half a sentence", "nothing reloaded under the member");
    assert.ok(await page.evaluate(() => navigator.serviceWorker.getRegistration("/").then((r) => !!r?.waiting)));
    await page.evaluate(() => document.getElementById("typing")!.remove());
    await screens(page, "phone-update-ready");

    // The member chooses: the new version takes over and the page reloads.
    await Promise.all([
      page.waitForEvent("load"),
      page.getByRole("button", { name: UI_TEXTS.reload }).click(),
    ]);
    await page.waitForFunction(() =>
      navigator.serviceWorker.getRegistration("/").then((r) => !r?.waiting && !!navigator.serviceWorker.controller)
    );
    assert.equal(await page.getByText(UI_TEXTS.updateReady).count(), 0, "reloaded: nothing more to offer");
    assert.equal(await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL), first);
    await context.close();
  } finally {
    await Deno.writeTextFile(worker, original);
    await h.close();
  }
});
