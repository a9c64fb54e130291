/**
 * Onboarding on a phone and a desktop: after the first login a new member goes through four
 * steps before the grid; each saves at once, and leaving in the middle resumes there.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import {
  logInThroughApi,
  registerAndLogIn,
  settledPaint,
  shot,
  startHarness,
  type ViewportName,
  waitHydrated,
} from "./harness.ts";
import { getProfile } from "../../kv/profiles.ts";
import { getOwnPosition, reportPosition } from "../../kv/positions/mod.ts";
import { createAccount, getAccountByEmail } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { profileBriefs } from "../../kv/briefs.ts";
import { DEFAULT_CITY, RANDOM_SPREAD_DEG } from "../../domain/defaultPlace.ts";
import { portrait } from "../fixtures/pictures.ts";
import { SCREEN_TEXTS } from "../../domain/screenTexts.ts";
import { TEXTS } from "../../domain/texts.ts";
import * as AR from "../../domain/locales/ar/mod.ts";

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - onboarding: four steps after the first login, each saved at once, resumed`, async () => {
    const h = await startHarness();
    try {
      const { context, page } = await h.newPage(vp);
      page.setDefaultTimeout(15_000);
      const email = `onboard-${vp}@example.com`;
      // The first login lands on the steps, not on home.
      await registerAndLogIn(page, h.origin, email, { onboarding: true });
      const account = (await getAccountByEmail(email))!;
      const me = account.defaultProfileId;
      assert.equal(account.onboarding, "name");
      await page.getByText(SCREEN_TEXTS.stepOf(1, 4)).waitFor();
      assert.equal(await page.locator(".tab-bar").count(), 0, "no tabs while onboarding");
      // Home and the grid lead back here.
      for (const path of ["/", "/search/tile", "/search/map"]) {
        await page.goto(path);
        assert.equal(new URL(page.url()).pathname, "/welcome", `${path} leads to onboarding`);
      }

      // --- 1. name and birthdate, 18+
      await shot(page, `${vp}-onboarding-1-name`);
      await page.getByLabel(TEXTS.name, { exact: true }).fill("Robin");
      await page.getByRole("button", { name: SCREEN_TEXTS.next }).click();
      await page.getByRole("alert").filter({ hasText: SCREEN_TEXTS.birthdateRequired }).waitFor();
      const minor = new Date(Date.now() - 16 * 365.25 * 86_400_000).toISOString().slice(0, 10);
      await page.getByLabel(TEXTS.birthdateLabel).fill(minor);
      await page.getByRole("button", { name: SCREEN_TEXTS.next }).click();
      await page.getByRole("alert").filter({ hasText: /18 or older/ }).waitFor();
      await page.getByLabel(TEXTS.birthdateLabel).fill("1992-03-04");
      await page.getByRole("button", { name: SCREEN_TEXTS.next }).click();
      await page.getByText(SCREEN_TEXTS.stepOf(2, 4)).waitFor();
      const named = (await getProfile(me))!;
      assert.deepEqual([named.profilename, named.birthdate], ["Robin", "1992-03-04"], "saved at once");
      assert.equal((await getAccountByEmail(email))!.onboarding, "picture");

      // --- 2. a first picture, with why it matters; leaving here resumes here
      await page.getByText(SCREEN_TEXTS.pictureWhy).waitFor();
      await page.getByRole("button", { name: SCREEN_TEXTS.skip }).waitFor();
      await shot(page, `${vp}-onboarding-2-picture`);
      await page.goto("/aboutus");
      await page.goto("/");
      await page.waitForURL(`${h.origin}/welcome`);
      await waitHydrated(page);
      await page.getByText(SCREEN_TEXTS.stepOf(2, 4)).waitFor();
      await page.locator("input[type=file]").setInputFiles({
        name: "me.jpg",
        mimeType: "image/jpeg",
        buffer: Buffer.from(await portrait(4)),
      });
      await page.locator(".onboarding-picture img").waitFor();
      await until(async () => (await getProfile(me))!.profilePicIds.length === 1, "the picture is saved");
      await page.waitForFunction(() => document.querySelector<HTMLImageElement>(".onboarding-picture img")?.complete);
      await shot(page, `${vp}-onboarding-2-picture-added`);
      await page.getByRole("button", { name: SCREEN_TEXTS.next }).click();

      // --- 3. characteristics, saved as ticked (skippable)
      await page.getByText(SCREEN_TEXTS.stepOf(3, 4)).waitFor();
      await page.getByRole("button", { name: SCREEN_TEXTS.skip }).waitFor();
      await page.getByRole("checkbox", { name: "Coffee" }).check();
      await page.getByRole("checkbox", { name: "Versatile" }).check();
      await until(async () => (await getProfile(me))!.characteristics.length === 2, "the characteristics are saved");
      await shot(page, `${vp}-onboarding-3-characteristics`);
      await page.getByRole("button", { name: SCREEN_TEXTS.next }).click();

      // --- 4. location: placed at once (a random point near Phoenix), then GPS asked for with its reason
      await page.getByText(SCREEN_TEXTS.stepOf(4, 4)).waitFor();
      await page.getByText(SCREEN_TEXTS.modeGpsWhy).waitFor();
      await page.getByText(TEXTS.walkMessage).waitFor();
      await until(async () => (await getOwnPosition(me)) !== null, "a first position is reported");
      await context.grantPermissions(["geolocation"], { origin: h.origin });
      await context.setGeolocation({ latitude: 40.7128, longitude: -74.006, accuracy: 10 });
      await page.getByRole("button", { name: SCREEN_TEXTS.useGps }).click();
      await page.getByText(TEXTS.gpsMessage).waitFor();
      await until(async () => (await getOwnPosition(me))?.use === "DEVICE_GPS", "the GPS position is reported");
      assert.ok(Math.abs((await getOwnPosition(me))!.lat - 40.7128) < 0.01);
      await shot(page, `${vp}-onboarding-4-location`);
      await page.getByRole("button", { name: SCREEN_TEXTS.finish }).click();
      await page.waitForURL(`${h.origin}/search/tile`);
      await waitHydrated(page);
      assert.equal((await getAccountByEmail(email))!.onboarding, undefined, "done");
      await page.locator(".tab-bar").waitFor();
      // Done: home is home again, and /welcome leads to the grid.
      await page.goto("/");
      assert.equal(new URL(page.url()).pathname, "/");
      await page.goto("/welcome");
      assert.equal(new URL(page.url()).pathname, "/search/tile");
      await context.close();
    } finally {
      await h.close();
    }
  });
}

/** Saves what the member sees (the viewport, not the whole page) as tests/e2e/screenshots/<name>.png. */
async function seen(page: Page, name: string): Promise<void> {
  await settledPaint(page); // the scroll to the alert
  await shot(page, name, { fullPage: false });
}

/** The ids in `viewer`'s nearest list, as their grid asks for it. */
async function nearestIds(viewer: string): Promise<string[]> {
  return (await profileBriefs(viewer, { kind: "nearest" }, { size: 30 })).items.map((b) => b.profileId);
}

for (const [vp, failFirst] of [["phone", false], ["desktop", false], ["phone", true], ["desktop", true]] as const) {
  Deno.test(
    `e2e ${vp} - onboarding: Finish tapped the moment it shows, the random point kept, is in discovery at once${
      failFirst ? "; a failed save says so and retries" : ""
    }`,
    async () => {
      const h = await startHarness();
      try {
        // A member already around the default city.
        const kim = (await createAccount({ email: `finish-kim-${vp}-${failFirst}@example.com`, name: "Kim" }))!;
        await updateProfile(kim.defaultProfileId, { profilename: "Kim Around", birthdate: "1990-05-06" });
        await reportPosition(kim.defaultProfileId, {
          lat: DEFAULT_CITY.lat + 0.02,
          lon: DEFAULT_CITY.lon,
          use: "OVERRIDE",
          hide: false,
        });

        const { context, page } = await h.newPage(vp);
        page.setDefaultTimeout(15_000);
        const email = `finish-${failFirst ? "retry" : "fast"}-${vp}@example.com`;
        // Registered and logged in through the API (decision 0218: the first test walks the pages):
        // the first page is home, which sends the new member to the onboarding.
        await logInThroughApi(context, h.origin, email, { onboarding: true });
        await page.goto("/");
        await page.waitForURL(`${h.origin}/welcome`);
        const me = (await getAccountByEmail(email))!.defaultProfileId;
        await page.getByLabel(TEXTS.name, { exact: true }).fill("Quick");
        await page.getByLabel(TEXTS.birthdateLabel).fill("1995-01-02");
        await page.getByRole("button", { name: SCREEN_TEXTS.next }).click();
        await page.getByRole("button", { name: SCREEN_TEXTS.skip }).click();
        await page.getByText(SCREEN_TEXTS.stepOf(3, 4)).waitFor();
        await page.getByRole("button", { name: SCREEN_TEXTS.skip }).click();

        const finish = page.getByRole("button", { name: SCREEN_TEXTS.finish });
        if (failFirst) {
          // The first tries meet a server error: the member is told, and stays to try again.
          let failing = true;
          let answer!: () => void;
          const slow = new Promise<void>((r) => answer = r);
          await page.route("**/welcome", async (route) => {
            if (route.request().method() !== "POST" || !failing) return route.fallback();
            await slow;
            return route.fulfill({ status: 503, body: "" });
          });
          await finish.click();
          // While the server has not answered, the member is told it is under way.
          const busy = page.getByRole("button", { name: SCREEN_TEXTS.finishing });
          await busy.waitFor();
          assert.ok(await busy.isDisabled(), "no second tap while saving");
          await page.getByRole("status").filter({ hasText: SCREEN_TEXTS.finishing }).waitFor();
          await seen(page, `${vp}-onboarding-4-busy`);
          answer();
          await page.getByRole("alert").filter({ hasText: SCREEN_TEXTS.finishFailed }).waitFor();
          assert.equal(new URL(page.url()).pathname, "/welcome", "still on the last step");
          assert.ok((await getAccountByEmail(email))!.onboarding, "onboarding is not over");
          await seen(page, `${vp}-onboarding-4-failed`);
          await page.emulateMedia({ colorScheme: "dark" });
          await seen(page, `${vp}-onboarding-4-failed-dark`);
          await page.emulateMedia({ colorScheme: "light" });
          if (vp === "phone") {
            // The same in Arabic, right to left.
            await page.setExtraHTTPHeaders({ "accept-language": "ar" });
            await page.reload();
            await waitHydrated(page);
            assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
            await page.locator(".onboarding-actions button.primary").click();
            await page.getByRole("alert").filter({ hasText: AR.SCREEN_TEXTS.finishFailed }).waitFor();
            await page.getByRole("button", { name: AR.SCREEN_TEXTS.finishRetry }).waitFor();
            await seen(page, `${vp}-onboarding-4-failed-ar`);
            await page.emulateMedia({ colorScheme: "dark" });
            await seen(page, `${vp}-onboarding-4-failed-ar-dark`);
            await page.emulateMedia({ colorScheme: "light" });
            failing = false;
            await page.getByRole("button", { name: AR.SCREEN_TEXTS.finishRetry }).click();
          } else {
            failing = false;
            await page.getByRole("button", { name: SCREEN_TEXTS.finishRetry }).click();
          }
        } else {
          // No waiting: the tap lands as soon as the button can take it, long before the
          // reporter's debounced first report would have gone out.
          await finish.click();
        }
        await page.waitForURL(`${h.origin}/search/tile`);
        // At once, with nothing waited for: the newcomer is in discovery, at the offered point.
        const own = (await getOwnPosition(me))!;
        assert.ok(own, "the position was saved as part of finishing");
        assert.equal(own.use, "OVERRIDE");
        assert.ok(Math.abs(own.lat - DEFAULT_CITY.lat) <= RANDOM_SPREAD_DEG, "the random point near Phoenix");
        assert.ok(Math.abs(own.lon - DEFAULT_CITY.lon) <= RANDOM_SPREAD_DEG);
        assert.ok((await nearestIds(kim.defaultProfileId)).includes(me), "Kim sees the newcomer");
        assert.ok((await nearestIds(me)).includes(kim.defaultProfileId), "the newcomer's list has Kim");
        assert.equal((await getAccountByEmail(email))!.onboarding, undefined, "done");
        // And the grid shows Kim without a wait for a later report.
        await page.getByText("Kim Around").first().waitFor({ timeout: 5000 });
      } finally {
        await h.close();
      }
    },
  );
}
