/**
 * Account settings in a real browser: right after a login link a password is set without the
 * current one; on a device logged in with the password, changing the email asks for the current
 * password (refused when missing or wrong, nothing changes), the old address is mailed; "Log out
 * everywhere else" ends the first device and keeps this one.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { logInThroughApi, shot, startHarness, type ViewportName } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";
import { FEEL_TEXTS } from "../../domain/feelTexts.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - settings: a fresh link login sets a password alone; a password login changes the email only with the current password; log out everywhere else keeps only this device`, async () => {
    const h = await startHarness();
    try {
      const email = `settings-${vp}@example.com`, moved = `moved-${vp}@example.com`, password = "first-password-1";

      // Device one: a fresh login link sets a password without a current one.
      const one = await h.newPage(vp);
      await logInThroughApi(one.context, h.origin, email);
      await one.page.goto("/settings");
      const form1 = one.page.locator("form");
      await form1.getByText("You logged in with a link. Set a password below.").waitFor();
      await form1.getByLabel("New password", { exact: true }).fill(password);
      await form1.getByLabel("Repeat new password").fill("first-password-2");
      assert.equal(await form1.getByLabel(TEXTS.currentPassword).count(), 0, "a fresh link login needs no password");
      await form1.getByRole("button", { name: "Save" }).click();
      await form1.getByText(TEXTS.passwordsDoNotMatch).waitFor();
      await form1.getByLabel("Repeat new password").fill(password);
      await form1.getByRole("button", { name: "Save" }).click();
      const saved1 = form1.getByText(TEXTS.saved, { exact: true });
      await saved1.waitFor();
      const shown = Date.now();
      await saved1.waitFor({ state: "hidden", timeout: 8_000 });
      const lasted = Date.now() - shown;
      assert.ok(lasted > 2_000 && lasted < 5_000, `'Saved' showed ${lasted} ms`);

      // Device two logs in with the password: changing the email asks for it again.
      const two = await h.newPage(vp);
      const page = two.page;
      await page.goto("/login");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password", { exact: true }).fill(password);
      await page.getByRole("button", { name: "Login", exact: true }).click();
      await page.waitForURL(h.origin + "/");
      await page.goto("/settings");
      // The settings' sections: a short list at the top, each link going to its part of the page.
      const index = page.getByRole("navigation", { name: FEEL_TEXTS.settingsSections });
      assert.deepEqual(await index.getByRole("link").allTextContents(), [
        FEEL_TEXTS.sectionAccount,
        FEEL_TEXTS.sectionPrivacy,
        FEEL_TEXTS.sectionNotifications,
        FEEL_TEXTS.sectionDevices,
        FEEL_TEXTS.sectionData,
      ]);
      for (const href of await index.getByRole("link").evaluateAll((as) => as.map((a) => a.getAttribute("href")!))) {
        assert.equal(await page.locator(href).count(), 1, `${href} is on the page`);
      }
      const form = page.locator("form");
      assert.equal(await form.getByLabel(TEXTS.currentPassword).count(), 0, "asked only when email or password change");
      await form.getByLabel("Email", { exact: true }).fill(moved);
      await form.getByLabel(TEXTS.currentPassword).waitFor();
      await form.getByRole("button", { name: "Save" }).click();
      await form.getByText(TEXTS.currentPasswordRequired).waitFor();
      await form.getByLabel(TEXTS.currentPassword).fill("not-my-password");
      await form.getByRole("button", { name: "Save" }).click();
      await form.getByText(TEXTS.currentPasswordWrong).waitFor();
      assert.equal((await getAccountByEmail(email))?.email, email, "a wrong password changes nothing");
      await shot(page, `${vp}-settings-current-password`);
      await form.getByLabel(TEXTS.currentPassword).fill(password);
      await form.getByRole("button", { name: "Save" }).click();
      await form.getByText(TEXTS.saved, { exact: true }).waitFor();
      assert.equal(await form.getByText(TEXTS.currentPasswordWrong).count(), 0);
      assert.equal((await getAccountByEmail(moved))?.email, moved);

      // The old address is told (the mail job, in the dev outbox).
      let told = 0;
      await until(
        async () => {
          await page.goto("/dev/outbox");
          return told = await page.locator("ul.outbox > li", { hasText: "Your account email was changed" })
            .filter({ hasText: `to ${email}` }).count();
        },
        "the mail to the old address",
        { timeoutMs: 20_000 },
      ).catch(() => {});
      assert.equal(told, 1, "one mail to the old address");

      // Log out everywhere else: device one ends, this one stays.
      await page.goto("/settings");
      const devices = page.getByRole("region", { name: "Logged-in devices" });
      await devices.getByText(TEXTS.thisDevice).waitFor();
      assert.equal(await devices.getByRole("listitem").count(), 2);
      await devices.getByLabel(TEXTS.currentPassword).fill(password);
      await devices.getByRole("button", { name: TEXTS.logOutEverywhereElse }).scrollIntoViewIfNeeded();
      await shot(page, `${vp}-settings-devices`);
      await devices.getByRole("button", { name: TEXTS.logOutEverywhereElse }).click();
      await devices.getByText(TEXTS.loggedOutEverywhereElse).waitFor();
      await devices.getByText(TEXTS.onlyThisDevice).waitFor();
      assert.equal(await devices.getByRole("listitem").count(), 1);
      await shot(page, `${vp}-settings-logged-out-elsewhere`);
      await one.page.goto("/settings");
      assert.equal(new URL(one.page.url()).pathname, "/login", "device one is logged out");
      await page.goto("/settings");
      assert.equal(new URL(page.url()).pathname, "/settings", "this device stays");
      await one.context.close();
      await two.context.close();
    } finally {
      await h.close();
    }
  });
}
