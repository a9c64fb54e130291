/**
 * A phone that loses its connection for a while (long enough for its event socket to be refused
 * three times and back off: its next try 8 s away, 7 s after it went): when it comes back, the
 * open conversation shows
 * every message and read receipt it missed, and the tab bar the like it missed, within 2 s,
 * without a reload and without duplicates (the live feed resumes from the last event it saw), and
 * the live socket is back at once (a new message arrives live).
 *
 * Chromium's offline mode leaves an open WebSocket alone, where a phone's dies: the page's event
 * sockets go through a route that cuts them when the connection goes, and refuses new ones while
 * it is away.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import type { WebSocketRoute } from "playwright-core";
import { logInThroughApi, shot, startHarness, waitHydrated } from "./harness.ts";

Deno.test("e2e phone - back after a while offline: missed messages, receipts and a like show within 2 s, once", async () => {
  const h = await startHarness();
  try {
    // B only calls the API: a browser context for B's session, and no page.
    const a = await h.newPage("phone"), b = { context: await h.browser.newContext() };
    const aId = (await logInThroughApi(a.context, h.origin, "resume-a@example.com")).profileId;
    const bId = (await logInThroughApi(b.context, h.origin, "resume-b@example.com")).profileId;
    let away = false, refused = 0;
    const sockets: WebSocketRoute[] = [];
    await a.page.routeWebSocket(/\/api\/events/, (ws) => {
      if (away) return void (refused++, ws.close());
      ws.connectToServer();
      sockets.push(ws);
    });
    await a.page.goto(`/profile/${bId}#chat`);
    await waitHydrated(a.page);
    const box = a.page.getByRole("textbox", { name: "Message" });
    await box.fill("Are you around tonight?");
    await box.press("Enter");
    const mine = a.page.locator(".bubble.mine:not(.queued)", { hasText: "Are you around tonight?" });
    await mine.waitFor();
    assert.equal(await mine.locator(".checks").textContent(), "✓");

    away = true;
    await a.context.setOffline(true);
    for (const ws of sockets.splice(0)) await ws.close();
    // While A is away: B reads A's message, answers twice and likes A's profile.
    // B acts through the API with B's session (B's screens are not what this test looks at).
    const call = async (method: string, path: string, body?: unknown) =>
      (await b.context.request.fetch(h.origin + path, { method, headers: { origin: h.origin }, data: body }))
        .status();
    assert.equal(await call("PUT", `/api/messages/read/${aId}`), 200);
    for (const text of ["Yes, at the bar", "Come by after nine"]) {
      const body = { senderProfileId: bId, recipientProfileId: aId, bodyText: text, profilePicIds: [] };
      assert.equal(await call("POST", "/api/message", body), 201);
    }
    assert.equal(
      await call("PUT", "/api/profile-like", { likerProfileId: bId, likedProfileId: aId, likeType: "LIKE" }),
      200,
    );
    // Away until the page's socket has been refused three times: its next try (backing off 1, 2,
    // 4, 8 s) is 8 s away, so only coming back online can bring the catch-up within 2 s.
    await until(() => refused >= 3, "the socket refused three times", { timeoutMs: 60_000, everyMs: 100 });

    const back = performance.now();
    away = false;
    await a.context.setOffline(false);
    await a.page.locator(".bubble:not(.mine)", { hasText: "Come by after nine" }).waitFor({ timeout: 2000 });
    await a.page.locator(".bubble:not(.mine)", { hasText: "Yes, at the bar" }).waitFor({ timeout: 2000 });
    await mine.locator(".checks", { hasText: "✓✓" }).waitFor({ timeout: 2000 });
    await a.page.locator('.tab-link[href^="/likes"] .tab-count').waitFor({ timeout: 2000 });
    const ms = performance.now() - back;
    console.log(`  caught up in ${ms.toFixed(0)} ms`);
    assert.ok(ms < 2000, `caught up in ${ms.toFixed(0)} ms`);
    assert.equal(await a.page.locator(".bubble", { hasText: "Yes, at the bar" }).count(), 1, "no duplicate");
    assert.equal(await a.page.locator(".bubble", { hasText: "Come by after nine" }).count(), 1, "no duplicate");
    // The live socket is back: a new message arrives at once (no 15 s poll).
    const live = performance.now();
    const body = { senderProfileId: bId, recipientProfileId: aId, bodyText: "See you there", profilePicIds: [] };
    assert.equal(await call("POST", "/api/message", body), 201);
    await a.page.locator(".bubble:not(.mine)", { hasText: "See you there" }).waitFor({ timeout: 2000 });
    console.log(`  then a live message in ${(performance.now() - live).toFixed(0)} ms`);
    await shot(a.page, "phone-chat-caught-up");
    await a.context.close();
    await b.context.close();
  } finally {
    await h.close();
  }
});
