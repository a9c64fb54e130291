/** The foundation in a real browser: register, log in by link, home, menu, 404, logout. */

import assert from "node:assert/strict";
import {
  type Harness,
  logInThroughApi,
  mailedLink,
  shot,
  startHarness,
  type ViewportName,
  waitHydrated,
} from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";

const PUBLIC_PAGES = ["/", "/login", "/register", "/aboutus", "/tos", "/support", "/sorry", "/nope"];

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - register, open the mailed link, land on home logged in, menu, 404, logout`, async () => {
    const h: Harness = await startHarness();
    try {
      const { context, page } = await h.newPage(vp);
      const email = `new-${vp}@example.com`;

      await page.goto("/register");
      assert.equal(await page.title(), `${TEXTS.registerTitle} · Lambda`);
      await page.getByLabel("Email", { exact: true }).fill(email);
      await page.getByRole("button", { name: "Send me a login link" }).click();
      await page.getByText(TEXTS.acknowledgementsRequired).waitFor();
      await shot(page, `${vp}-register-error`);
      for (const box of await page.getByRole("checkbox").all()) await box.check();
      assert.equal(await page.getByText(TEXTS.acknowledgementsRequired).count(), 0, "ticking clears the error");
      await page.getByRole("button", { name: "Send me a login link" }).click();
      await page.getByText("Check your email").waitFor();
      assert.equal(await page.getByRole("button", { name: "Send me a login link" }).count(), 0, "button hidden");
      await shot(page, `${vp}-register-sent`);

      // The worker sends the mail to the dev outbox.
      const link = await mailedLink(email);
      assert.match(link, /\/login#token=[A-Za-z0-9_-]{40,}$/);
      // The dev outbox page offers that link to open.
      await page.goto("/dev/outbox");
      const mailed = page.locator("ul.outbox > li", { hasText: email }).first();
      assert.equal(await mailed.getByRole("link", { name: "Open the link" }).getAttribute("href"), link);
      await shot(page, `${vp}-outbox`);

      await page.goto(link);
      await page.waitForURL(h.origin + "/");
      const cards = page.locator("ul.cards .card-label");
      assert.equal(await cards.count(), 12);
      assert.deepEqual(
        await cards.allTextContents(),
        [
          "Gaydar Map",
          "Profile Tiles",
          "Swype Profiles",
          "Read Profiles",
          "Personal Chat",
          "Map Chat",
          "Community",
          "View Likes",
          "Edit Profile",
          "Account",
          "About Us",
          "Logout",
        ],
      );
      assert.equal(await page.evaluate(() => document.activeElement?.id), "main", "focus on the main container");
      await page.getByRole("button", { name: TEXTS.hidingNsfw }).click();
      await page.getByRole("button", { name: TEXTS.showingNsfw }).waitFor();
      await shot(page, `${vp}-home`);

      // The token worked once: opening the link again fails.
      const again = await context.newPage();
      await again.goto(link);
      await again.getByText("This login link is invalid or has expired").waitFor();
      await again.close();

      // The menu opens, lists member routes, hides Login, and closes by itself after 8 s.
      await page.locator("summary[aria-label=Menu]").click();
      const nav = page.getByRole("navigation", { name: "Main menu" });
      await nav.waitFor({ state: "visible" });
      assert.equal(await nav.getByRole("link", { name: "Login", exact: true }).count(), 0);
      assert.equal(await nav.getByRole("link", { name: "Account" }).count(), 1);
      assert.equal(await nav.getByRole("link", { name: "Admin Dashboard" }).count(), 0);
      await shot(page, `${vp}-menu-open`);
      const opened = Date.now();
      await nav.waitFor({ state: "hidden", timeout: 12_000 });
      const closedAfter = Date.now() - opened;
      assert.ok(closedAfter > 6_500 && closedAfter < 11_000, `menu closed after ${closedAfter} ms`);

      await page.goto("/no/such/page");
      await page.getByText(TEXTS.notFound).waitFor();
      await page.getByRole("link", { name: "Home" }).first().waitFor();
      await shot(page, `${vp}-404`);

      await page.goto("/settings");
      await page.getByText(TEXTS.thisDevice, { exact: true }).waitFor();
      await shot(page, `${vp}-settings`);

      await page.goto("/logout");
      await page.getByText("You are logged out.").waitFor();
      assert.equal(new URL(page.url()).pathname, "/login");
      assert.equal(await page.evaluate(() => localStorage.length), 0);
      await shot(page, `${vp}-logout`);
      await page.getByRole("link", { name: TEXTS.loginAgain }).click();
      await page.waitForURL(h.origin + "/login");
      await page.goto("/settings");
      assert.equal(new URL(page.url()).pathname, "/login", "logged out: member pages go to /login");

      for (const path of PUBLIC_PAGES) {
        await page.goto(path);
        await shot(page, `${vp}-public${path.replace(/\//g, "-") || "-home"}`);
      }
      // A visitor who cannot log in reports a problem on /support, without JavaScript.
      await page.goto("/support");
      await page.getByLabel("Full name").fill("Robin");
      await page.getByLabel("Email").fill(`robin-${vp}@example.com`);
      await page.getByLabel("What happened?").fill("My login link expired twice.");
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByText(TEXTS.supportReportSent).waitFor();
      await shot(page, `${vp}-support-report-sent`);
      await context.close();
    } finally {
      await h.close();
    }
  });
}

Deno.test("e2e - a 5xx shows the server-trouble message for 10 s; a 401 goes to /login", async () => {
  const h: Harness = await startHarness();
  try {
    const { context, page } = await h.newPage("phone");
    await logInThroughApi(context, h.origin, "trouble@example.com");

    await page.goto("/settings");
    await page.route(
      "**/api/settings",
      (route) =>
        route.request().method() === "PUT"
          ? route.fulfill({
            status: 503,
            contentType: "application/json",
            body: '{"error":{"code":"x","message":"y"}}',
          })
          : route.fallback(),
    );
    await page.getByRole("button", { name: "Save" }).click();
    const trouble = page.getByText(TEXTS.serverTrouble);
    await trouble.waitFor();
    const shown = Date.now();
    await page.getByText(TEXTS.settingsSaveFailed).waitFor();
    await shot(page, "phone-server-trouble");
    await trouble.waitFor({ state: "hidden", timeout: 15_000 });
    const lasted = Date.now() - shown;
    assert.ok(lasted > 8_500 && lasted < 13_000, `trouble message lasted ${lasted} ms`);
    await page.unroute("**/api/settings");

    await context.clearCookies();
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(h.origin + "/login");
    await context.close();
  } finally {
    await h.close();
  }
});

Deno.test("e2e - a navigation-level load that fails with a 5xx goes to 'Ooops!'; a 401 forces a logout and goes to /login", async () => {
  const h: Harness = await startHarness();
  try {
    const { context, page } = await h.newPage("phone");
    await logInThroughApi(context, h.origin, "sorry@example.com");

    // Switching Likes tabs loads the new tab's list: a 5xx there leaves nothing to show.
    // The tabs switch in the page once it is hydrated; a click before that loads the tab's page
    // from the server, which reads the list itself (past the failing route).
    await page.goto("/likes/profilelikedyou");
    await page.getByText(TEXTS.likedYouEmpty).waitFor();
    await waitHydrated(page);
    await page.route("**/api/profile-likes/by-liker/**", (route) => route.fulfill({ status: 500, body: "{}" }));
    await page.getByRole("link", { name: "You Liked" }).click();
    await page.waitForURL(h.origin + "/sorry");
    await page.getByRole("heading", { name: TEXTS.sorryTitle }).waitFor();
    await shot(page, "phone-sorry-after-5xx");

    // A 401 (the session ended elsewhere) clears what this device kept and goes to /login.
    await page.goto("/likes/profilelikedyou");
    await page.getByText(TEXTS.likedYouEmpty).waitFor();
    await waitHydrated(page);
    await page.evaluate(() => localStorage.setItem("kept", "by this device"));
    await page.route("**/api/profile-pic-likes/**", (route) => route.fulfill({ status: 401, body: "{}" }));
    await page.getByRole("link", { name: "Their Pics" }).click();
    await page.waitForURL(h.origin + "/login");
    assert.equal(await page.evaluate(() => localStorage.length), 0, "local storage cleared");
    await context.close();
  } finally {
    await h.close();
  }
});
