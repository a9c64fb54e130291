/**
 * The browser tests' wait for a page's islands: every island hydrated, the view transition from the
 * last page (if any) ended. tests/e2e/harness.ts re-exports it, and waits with it after every load.
 */

import type { Page } from "playwright-core";

/** How long `waitHydrated` waits for a page's islands (Playwright's own default for a wait). */
const HYDRATED_WITHIN_MS = 30_000;

/**
 * Waits until every island on the page is hydrated, and the view transition from the last page
 * (if any) has ended: while it runs, the new page takes no pointer input.
 *
 * The page is asked once, with `page.evaluate`, and answers when the last island marks itself (a
 * MutationObserver) and the transition has finished. `page.waitForFunction` would do the same by
 * polling every frame through Playwright's injected script, which is sent over the DevTools
 * protocol and compiled in every new document (decision 0224). A navigation while it waits (a page
 * that sends the member on) asks the next document.
 */
export async function waitHydrated(page: Page): Promise<void> {
  const until = Date.now() + HYDRATED_WITHIN_MS;
  for (;;) {
    try {
      const left = await page.evaluate((ms) =>
        new Promise<string[]>((done) => {
          const waiting = () => [...document.querySelectorAll("[data-island]:not([data-hydrated])")];
          const moving = () =>
            (document as Document & { activeViewTransition?: { finished: Promise<void> } }).activeViewTransition;
          const check = () => {
            const transition = moving();
            if (waiting().length) return;
            if (transition) return void transition.finished.then(check, check);
            observer.disconnect();
            clearTimeout(timer);
            done([]);
          };
          const observer = new MutationObserver(check);
          observer.observe(document, { subtree: true, childList: true, attributeFilter: ["data-hydrated"] });
          const timer = setTimeout(() => {
            observer.disconnect();
            done(
              waiting().map((el) => el.getAttribute("data-island") ?? "?").concat(
                moving() ? ["(a view transition)"] : [],
              ),
            );
          }, ms);
          check();
        }), Math.max(0, until - Date.now()));
      if (left.length) {
        throw new Error(`waitHydrated: not hydrated within ${HYDRATED_WITHIN_MS / 1000} s: ${left.join(", ")}`);
      }
      return;
    } catch (e) {
      // The document went while it was asked: ask the one that replaced it.
      if (!/Execution context was destroyed|navigat/i.test(String(e)) || Date.now() > until) throw e;
      await page.waitForLoadState("domcontentloaded");
    }
  }
}
