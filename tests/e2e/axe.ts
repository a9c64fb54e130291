/**
 * axe-core on a page of the app, as the accessibility, locales and dungeon tests run it: WCAG 2.0
 * and 2.1, levels A and AA.
 */

import axe from "axe-core";
import type { BrowserContext, Page } from "playwright-core";

/** The rule sets every accessibility check of the suite runs. */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/**
 * What the page evaluates after axe's source: `axe.run` on the document with the rule sets, and
 * back only the serious and critical violations, one line each (the first `nodes` nodes named by
 * their selectors). Passes, incomplete and inapplicable rules keep one node each (`resultTypes`):
 * axe still runs every rule on every node, but names only the nodes it reports.
 */
function runInPage(tags: string[], nodes: number): string {
  const options = JSON.stringify({ runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
  // null in a document that has no axe (one a context's start-up script did not reach).
  return `;typeof axe === "undefined" ? null : axe.run(document, ${options}).then((r) => r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => v.impact + " " + v.id + ": " +
      v.nodes.slice(0, ${nodes}).map((n) => n.target.join(" ")).join(" | ")))`;
}

/**
 * The serious and critical violations on the page as it is now, one line each (the first `nodes`
 * nodes of each named by their selectors).
 *
 * axe's source and its run go to the page in one call, and only these lines come back. The
 * `@axe-core/playwright` builder this replaces (in its legacy mode, decision 0186) sent the source
 * (about 600 KB) twice a check, asked two more questions and brought back every rule's full
 * result, all through the browser process (decision 0263). The app's pages have no frames; a
 * frame's document gets axe's source too (axe asks it for its part), as the builder did.
 */
export async function seriousViolations(page: Page, nodes = 3): Promise<string[]> {
  const run = runInPage(AXE_TAGS, nodes);
  if (axeAtStart.has(page.context())) {
    const found = await page.evaluate<string[] | null>(run);
    if (found) return found;
  }
  for (const frame of page.frames().slice(1)) await frame.evaluate(axe.source);
  return (await page.evaluate<string[] | null>(axe.source + run))!;
}

/** The contexts whose every document evaluates axe's source as it starts (`axeInEveryDocument`). */
const axeAtStart = new WeakSet<BrowserContext>();

/**
 * Has every document of `context` (its frames' too) evaluate axe's source as it starts, for a
 * context whose every page is checked (the walks of every page): the source (about 600 KB) then
 * goes to the browser once for the context, not with each check (decision 0285), and
 * `seriousViolations` sends only the run. The context must bypass the app's CSP, as for any check.
 */
export async function axeInEveryDocument(context: BrowserContext): Promise<void> {
  await context.addInitScript({ content: axe.source });
  axeAtStart.add(context);
}
