/**
 * axe-core (@axe-core/playwright) on a page of the app, as the accessibility, locales and dungeon
 * tests run it: WCAG 2.0 and 2.1, levels A and AA.
 */

import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";

/** The rule sets every accessibility check of the suite runs. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * axe run in the page itself (`axe.run`, the library's legacy mode), not `axe.runPartial` in each
 * frame followed by `axe.finishRun` in a new blank page. The app's pages have no frames, so both
 * ways check the same nodes with the same rules; the partial way opened a page and injected axe a
 * second time for every check, about half of its cost (decision 0186). On a busy machine an
 * injection slower than the library's 1 s limit only skips its `axe.configure` (the help links'
 * branding and which frames' origins may answer); the run is queued behind the injection in the page.
 */
function axeOn(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).withTags(AXE_TAGS).setLegacyMode(true);
}

/**
 * The serious and critical violations on the page as it is now, one line each (the first `nodes`
 * nodes of each named by their selectors).
 */
export async function seriousViolations(page: Page, nodes = 3): Promise<string[]> {
  const result = await axeOn(page).analyze();
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, nodes).map((n) => n.target.join(" ")).join(" | ")}`);
}
