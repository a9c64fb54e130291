/**
 * Accessibility of every page of the route table, logged out and in, on a phone and a desktop:
 * axe-core (@axe-core/playwright) finds no critical and no serious violation. axe is injected
 * into the page, so the browser context bypasses the app's CSP for it (the app's own scripts
 * run as they always do).
 */

import assert from "node:assert/strict";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { registerAndLogIn, shot, startHarness, type ViewportName, VIEWPORTS, waitHydrated } from "./harness.ts";
import { ROUTES } from "../../routes/table.ts";
import { createAccount, getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { normalizeUpload } from "../../images/pipeline.ts";
import { portrait } from "../fixtures/pictures.ts";

/** The serious and critical violations on the page as it is now, one line each. */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

const PUBLIC = ["/", "/login", "/register", "/aboutus", "/support", "/tos", "/sorry", "/nope"];
/** Pages whose colours this test checked, shot to look at in both schemes. */
const SHOTS = new Set(["/login", "/search/swype", "/likes/profilelikedyou", "/games/gptbuster"]);

// The phone in the light scheme, the desktop in the dark one: both colour schemes are checked.
for (const [vp, scheme] of [["phone", "light"], ["desktop", "dark"]] as [ViewportName, "light" | "dark"][]) {
  Deno.test({
    name: `e2e ${vp} ${scheme} - accessibility: no serious or critical axe finding on any page, logged out and in`,
    sanitizeOps: false,
    sanitizeResources: false,
    async fn() {
      const h = await startHarness();
      try {
        const context = await h.browser.newContext({
          viewport: VIEWPORTS[vp],
          isMobile: vp === "phone",
          hasTouch: vp === "phone",
          baseURL: h.origin,
          bypassCSP: true,
          colorScheme: scheme,
        });
        const page = await context.newPage();
        const found: string[] = [];
        const check = async (path: string) => {
          await page.goto(path);
          await waitHydrated(page);
          for (const v of await violations(page)) found.push(`${path}: ${v}`);
          if (SHOTS.has(path)) await shot(page, `${vp}-${scheme}-a11y${path.replaceAll("/", "-")}`);
        };
        for (const path of PUBLIC) await check(path);
        const email = `a11y-${vp}@example.com`;
        await registerAndLogIn(page, h.origin, email);
        const account = (await getAccountByEmail(email))!;
        await setRoles(account.id, ["USER", "ADMIN"]);
        const me = account.defaultProfileId;
        // Members nearby, with pictures and texts, so the cards, tiles and games have content to check.
        await reportPosition(me, { lat: 33.4484, lon: -112.074, use: "OVERRIDE", hide: false });
        for (let i = 0; i < 3; i++) {
          const other = (await createAccount({ email: `a11y-near-${vp}-${i}@example.com`, name: `Near ${i}` }))!;
          await updateProfile(other.defaultProfileId, {
            profilename: `Near ${i}`,
            birthdate: "1990-01-01",
            description: "Coffee, hikes and old films. Say hi if you are around.",
            characteristics: ["top", "hosting"],
          });
          await addPicture(other.defaultProfileId, await normalizeUpload(await portrait(i)));
          await reportPosition(other.defaultProfileId, {
            lat: 33.4484 + 0.01 * (i + 1),
            lon: -112.074,
            use: "OVERRIDE",
            hide: false,
          });
        }
        for (const r of ROUTES) {
          if (r.access !== "auth" && r.access !== "admin" && r.access !== "any") continue;
          if (r.path === "/logout") continue;
          await check(r.path.replace(":profileId", me).replace(":game", "cooties"));
        }
        await context.close();
        assert.deepEqual(found, []);
      } finally {
        await h.close();
      }
    },
  });
}
