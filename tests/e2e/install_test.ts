/**
 * The app installs: Chromium's own installability check (CDP Page.getInstallabilityErrors) finds
 * nothing missing in the manifest, icons (a maskable one too) and service worker; installed, it
 * starts on the grid; discreet mode installs as a neutral "Notes".
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS, chromiumPath, logInThroughApi, startHarness, VIEWPORTS, waitHydrated } from "./harness.ts";

Deno.test("e2e - installable: no installability errors, start on the grid, maskable icons", async () => {
  const h = await startHarness();
  try {
    // An installable check needs a profile on disk: Playwright's own contexts are incognito.
    const profile = await Deno.makeTempDir({ prefix: "install-profile-" });
    const context = await chromium.launchPersistentContext(profile, {
      // The full browser: the headless shell answers Page.getInstallabilityErrors with no error for
      // any page (it has no installability check), so this test would judge nothing there.
      executablePath: chromiumPath({ full: true }),
      args: CHROMIUM_FLAGS,
      viewport: VIEWPORTS.phone,
      baseURL: h.origin,
    });
    const page = context.pages()[0] ?? await context.newPage();
    await logInThroughApi(context, h.origin, "install@example.com");
    await page.goto("/");
    await waitHydrated(page);
    const cdp = await context.newCDPSession(page);
    let errors: { errorId: string }[] = [];
    // The service worker registers after the first load.
    await until(
      async () => {
        errors = (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors as { errorId: string }[];
        return errors.length === 0;
      },
      "no installability error",
      { timeoutMs: 5_000, everyMs: 100 },
    ).catch(() => {});
    assert.deepEqual(errors.map((e) => e.errorId), []);
    const manifest = await (await page.request.get("/static/manifest.webmanifest")).json();
    assert.equal(manifest.start_url, "/search/tile");
    const purposes = manifest.icons.map((i: { purpose?: string; sizes: string }) => `${i.sizes} ${i.purpose ?? "any"}`);
    for (const want of ["192x192 any", "512x512 any", "512x512 maskable"]) assert.ok(purposes.includes(want), want);
    for (const icon of manifest.icons) assert.equal((await page.request.get(icon.src)).status(), 200, icon.src);
    await context.close();
    await Deno.remove(profile, { recursive: true });
  } finally {
    await h.close();
  }
});
