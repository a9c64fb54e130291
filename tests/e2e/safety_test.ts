/**
 * Safety where being gay is a crime, in a real browser: a member in Nairobi gets the one-time
 * notice on the grid, sees distances as "nearby"; discreet mode gives neutral titles and a quick
 * exit (Esc twice) that leaves for a neutral page in place of this one in the tab's history.
 */

import assert from "node:assert/strict";
import { logInThroughApi, shot, startHarness, type ViewportName } from "./harness.ts";
import { TEXTS } from "../../domain/texts.ts";
import { createAccount, getAccountByEmail } from "../../kv/accounts.ts";
import { reportPosition } from "../../kv/positions/mod.ts";

const NAIROBI = { lat: -1.2864, lon: 36.8172 };

for (const vp of ["phone", "desktop"] as ViewportName[]) {
  Deno.test(`e2e ${vp} - safety: the notice once, distances as nearby, discreet titles and a quick exit`, async () => {
    const h = await startHarness();
    try {
      const { context, page } = await h.newPage(vp);
      const email = `safety-${vp}@example.com`;
      await logInThroughApi(context, h.origin, email);
      // The member's last report is Nairobi (the page's reporter starts from it); a neighbour is near.
      const me = (await getAccountByEmail(email))!.defaultProfileId;
      await reportPosition(me, { ...NAIROBI, use: "OVERRIDE", hide: false });
      const n = (await createAccount({ email: `neighbour-${vp}@example.com`, name: "Neighbour" }))!;
      await reportPosition(n.defaultProfileId, {
        lat: NAIROBI.lat + 0.01,
        lon: NAIROBI.lon,
        use: "OVERRIDE",
        hide: false,
      });

      await page.goto("/search/tile");
      await page.getByRole("alertdialog", { name: TEXTS.safetyNoticeTitle }).waitFor();
      await shot(page, `${vp}-safety-notice`);
      await page.getByRole("button", { name: TEXTS.safetyNoticeOk }).click();
      await page.waitForURL(h.origin + "/search/tile");
      assert.equal(await page.getByRole("alertdialog").count(), 0, "shown once");
      await page.locator(".tile-distance", { hasText: TEXTS.nearby }).first().waitFor();
      await shot(page, `${vp}-safety-tiles-nearby`);

      // Discreet mode, from Account settings.
      await page.goto("/settings");
      await page.getByLabel(TEXTS.discreetMode).check();
      await page.waitForFunction((t) => document.title === t, TEXTS.neutralTitle);
      await page.getByRole("link", { name: TEXTS.quickExit }).waitFor();
      await shot(page, `${vp}-settings-discreet`);
      await page.goto("/search/tile");
      assert.equal(await page.title(), TEXTS.neutralTitle);
      // The quick exit leaves for the neutral page (served here by the test), replacing this entry.
      await context.route("https://www.google.com/**", (r) => r.fulfill({ body: "<title>Google</title>neutral" }));
      await page.keyboard.press("Escape");
      await page.keyboard.press("Escape");
      await page.waitForURL("https://www.google.com/");
      await page.goBack();
      assert.notEqual(new URL(page.url()).pathname, "/search/tile", "Back does not return to the app page it left");
      await context.close();
    } finally {
      await h.close();
    }
  });
}
