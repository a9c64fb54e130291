/**
 * Accessibility of every page of the route table, logged out and in, on a phone and a desktop:
 * axe-core (@axe-core/playwright) finds no critical and no serious violation. axe is injected
 * into the page, so the browser context bypasses the app's CSP for it (the app's own scripts
 * run as they always do).
 */

import assert from "node:assert/strict";
import {
  logInWithToken,
  seedNeighbours,
  shot,
  sideBySide,
  startHarness,
  type ViewportName,
  VIEWPORTS,
  waitHydrated,
} from "./harness.ts";
import { seriousViolations } from "./axe.ts";
import { ROUTES } from "../../routes/table.ts";
import { createAccount, createLoginToken } from "../../kv/accounts.ts";
import { ACKNOWLEDGEMENTS } from "../../domain/texts.ts";
import { reportPosition } from "../../kv/positions/mod.ts";

const PUBLIC = ["/", "/login", "/register", "/aboutus", "/support", "/tos", "/sorry", "/nope"];
/** Pages whose colours this test checked, shot to look at in both schemes. */
const SHOTS = new Set(["/login", "/search/swype", "/likes/profilelikedyou", "/games/gptbuster"]);

/** The phone in the light scheme, the desktop in the dark one: both colour schemes are checked. */
const LOOKS: [ViewportName, "light" | "dark"][] = [["phone", "light"], ["desktop", "dark"]];

// One app and one browser: each look's pages logged out, and logged in as one member with
// content around, are walked side by side, each walk in a context of its own.
Deno.test({
  name:
    "e2e phone light, desktop dark - accessibility: no serious or critical axe finding on any page, logged out and in",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      // A member as registering makes one (the acknowledgements accepted, onboarding done), logged
      // in with the token a login link carries, without a page: the walk is about the pages, not
      // about registering or logging in.
      const email = "a11y@example.com";
      const account = (await createAccount({
        email,
        roles: ["USER", "ADMIN"],
        consents: ACKNOWLEDGEMENTS.map((a) => a.text),
      }))!;
      const first = await h.browser.newContext();
      await logInWithToken(first, h.origin, await createLoginToken(account.id, email));
      const session = await first.cookies();
      await first.close();
      const me = account.defaultProfileId;
      // Members nearby, with pictures and texts, so the cards, tiles and games have content to check.
      await reportPosition(me, { lat: 33.4484, lon: -112.074, use: "OVERRIDE", hide: false });
      await seedNeighbours("a11y");
      const loggedIn = ROUTES.filter((r) => ["auth", "admin", "any"].includes(r.access) && r.path !== "/logout")
        .map((r) => r.path.replace(":profileId", me).replace(":game", "cooties"));

      const found: string[] = [];
      /** Every page of `paths` in a look, logged in or out: axe's serious and critical findings. */
      const walk = async ([vp, scheme]: [ViewportName, "light" | "dark"], paths: string[], logged: boolean) => {
        const context = await h.browser.newContext({
          viewport: VIEWPORTS[vp],
          isMobile: vp === "phone",
          hasTouch: vp === "phone",
          baseURL: h.origin,
          // As every browser test but the offline one (harness.ts): the app's service worker would
          // precache the whole build in each context and take every request of the walk through itself.
          serviceWorkers: "block",
          bypassCSP: true,
          colorScheme: scheme,
        });
        if (logged) await context.addCookies(session);
        const page = await context.newPage();
        for (const path of paths) {
          await page.goto(path);
          await waitHydrated(page);
          for (const v of await seriousViolations(page)) found.push(`${vp} ${scheme} ${path}: ${v}`);
          if (SHOTS.has(path)) await shot(page, `${vp}-${scheme}-a11y${path.replaceAll("/", "-")}`);
        }
        await context.close();
      };
      // The logged-in walks (the longer) first.
      const walks = [true, false].flatMap((logged) => LOOKS.map((look) => ({ look, logged })));
      await sideBySide(walks, ({ look, logged }) => walk(look, logged ? loggedIn : PUBLIC, logged));
      assert.deepEqual(found, []);
    } finally {
      await h.close();
    }
  },
});
