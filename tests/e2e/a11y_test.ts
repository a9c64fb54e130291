/**
 * Accessibility of every page of the route table, logged out and in, on a phone and a desktop:
 * axe-core (tests/e2e/axe.ts) finds no critical and no serious violation. axe is injected
 * into the page, so the browser context bypasses the app's CSP for it (the app's own scripts
 * run as they always do).
 *
 * These are the English walks of every page (tests/e2e/everyPage.ts): each page also shows no
 * hydration or page error and says it is English and left to right, the locales walk's checks for
 * the language it leaves to this file (decision 0241). One load of a page serves both.
 */

import assert from "node:assert/strict";
import { shot, sideBySide, startHarness } from "./harness.ts";
import { type Look, seedWalker, walkEveryPage } from "./everyPage.ts";
import { seriousViolations } from "./axe.ts";

/** Pages whose colours this test checked, shot to look at in both schemes. */
const SHOTS = new Set(["/login", "/search/swype", "/likes/profilelikedyou", "/games/gptbuster"]);

/** The phone in the light scheme, the desktop in the dark one: both colour schemes are checked. */
const LOOKS: Look[] = [
  { lang: "en", vp: "phone", scheme: "light", axe: true },
  { lang: "en", vp: "desktop", scheme: "dark", axe: true },
];

// One app and one browser: each look's pages, logged out and then in as one member (an admin with
// content around: neighbours, a message, a like, a selfie to judge), walked side by side.
Deno.test({
  name:
    "e2e phone light, desktop dark - accessibility: no serious or critical axe finding on any page, logged out and in; English shows no hydration error",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // Every page twice, with axe and the locales checks on each: a walk of every page's time.
    const h = await startHarness({ limitMs: 480_000 });
    try {
      const walker = await seedWalker(h, "a11y@example.com");
      const found: string[] = [];
      await sideBySide(LOOKS, (look) =>
        walkEveryPage(h, walker, found, look, async (page, path, at) => {
          for (const v of await seriousViolations(page)) found.push(`${at}: ${v}`);
          if (SHOTS.has(path)) await shot(page, `${look.vp}-${look.scheme}-a11y${path.replaceAll("/", "-")}`);
        }));
      assert.deepEqual(found, []);
    } finally {
      await h.close();
    }
  },
});
