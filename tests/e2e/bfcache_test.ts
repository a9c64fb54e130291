/**
 * Back and Forward show a public page and the grid again at once, from the browser's back/forward
 * cache (the `pageshow` event's `persisted`), in a Chromium with that cache on (Playwright turns it
 * off by default); and after logging out, Back shows no member's page from it.
 */

import assert from "node:assert/strict";
import { chromium, type Page } from "playwright-core";
import { CHROMIUM_FLAGS, chromiumPath, logInAs, startHarness } from "./harness.ts";
import { seedNearby } from "./tapToPhoto.ts";

/** Goes from `from` to `to` and back; whether `from` came back from the back/forward cache, and why not. */
async function backAgain(page: Page, reasons: string[], from: string, to: string) {
  await page.goto(from);
  await page.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
  await page.evaluate(() => {
    (globalThis as { restored?: boolean }).restored = false;
    addEventListener("pageshow", (e) => (globalThis as { restored?: boolean }).restored = e.persisted);
  });
  await page.goto(to);
  await page.waitForLoadState("load");
  reasons.length = 0;
  // A page shown from the cache fires no `load`.
  await page.goBack({ waitUntil: "commit" });
  await page.waitForURL((u) => u.pathname === from, { waitUntil: "commit" });
  await page.waitForFunction(() => (globalThis as { restored?: boolean }).restored !== undefined).catch(() => {});
  const restored = await page.evaluate(() => (globalThis as { restored?: boolean }).restored === true);
  return { restored, why: reasons.join(", ") };
}

Deno.test({
  name: "e2e phone - back/forward cache: a public page and the grid come back at once; after logout none does",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    const browser = await chromium.launch({
      // The full browser: the headless shell keeps no page in the back/forward cache
      // (BackForwardCacheDisabledForDelegate), so this test would judge nothing of the app's.
      executablePath: chromiumPath({ full: true }),
      args: CHROMIUM_FLAGS,
      ignoreDefaultArgs: ["--disable-back-forward-cache"],
    });
    try {
      const s = await seedNearby();
      const context = await browser.newContext({
        baseURL: h.origin,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        serviceWorkers: "block",
      });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send("Page.enable");
      const reasons: string[] = [];
      cdp.on("Page.backForwardCacheNotUsed", (e) => {
        for (const x of e.notRestoredExplanations) reasons.push(`${x.type}:${x.reason}`);
      });

      const visitor = await backAgain(page, reasons, "/aboutus", "/tos");
      assert.ok(visitor.restored, `a public page comes back from the cache (${visitor.why})`);

      await logInAs(context, h.origin, s.viewer.id);
      const grid = await backAgain(page, reasons, "/search/tile", "/search/map");
      assert.ok(grid.restored, `the grid comes back from the cache (${grid.why})`);

      // Logged out: Back to the grid asks the server again, which sends a visitor to log in.
      await page.goto("/search/tile");
      await page.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0);
      await page.goto("/logout");
      await page.getByText("You are logged out.").waitFor();
      await page.goBack({ waitUntil: "commit" });
      await page.waitForURL((u) => u.pathname !== "/logout", { waitUntil: "commit" });
      await page.waitForURL((u) => u.pathname === "/login");
      assert.equal(new URL(page.url()).pathname, "/login", "no member's page after logout");
      await context.close();
    } finally {
      await browser.close();
      await h.close();
    }
  },
});
