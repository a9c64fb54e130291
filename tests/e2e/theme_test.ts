/**
 * Dark mode follows the device, and Account settings can fix it to light or dark for this device:
 * applied at once, and on every later page from its first paint (the server writes it).
 */

import assert from "node:assert/strict";
import { logInThroughApi, shot, startHarness } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";

Deno.test("e2e - theme: system by default, then dark or light chosen in settings, kept on every page", async () => {
  const h = await startHarness();
  try {
    const context = await h.browser.newContext({
      viewport: { width: 390, height: 844 },
      baseURL: h.origin,
      colorScheme: "light",
    });
    const page = await context.newPage();
    await logInThroughApi(context, h.origin, "theme@example.com");
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.goto("/settings");
    assert.equal(await bg(), "rgb(246, 244, 248)", "light, as the device is set");
    await page.getByLabel(TEXTS.themeDark).check();
    await page.waitForFunction(() => document.documentElement.dataset.theme === "dark");
    assert.equal(await bg(), "rgb(20, 18, 24)", "dark at once");
    await shot(page, "theme-dark-settings");
    await page.goto("/search/tile");
    assert.equal(await page.getAttribute("html", "data-theme"), "dark", "the server writes it");
    assert.equal(await bg(), "rgb(20, 18, 24)");
    // A device set to dark, with light chosen.
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto("/settings");
    await page.getByLabel(TEXTS.themeLight).check();
    await page.waitForFunction(() => document.documentElement.dataset.theme === "light");
    await page.goto("/");
    assert.equal(await bg(), "rgb(246, 244, 248)", "light although the device is dark");
    await page.goto("/settings");
    await page.getByLabel(TEXTS.themeSystem).check();
    await page.waitForFunction(() => !document.documentElement.dataset.theme);
    await page.goto("/");
    assert.equal(await bg(), "rgb(20, 18, 24)", "the device's dark again");
    await context.close();
  } finally {
    await h.close();
  }
});
