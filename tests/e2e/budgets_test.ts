/**
 * Page budgets, in Chromium on a phone viewport: the JavaScript each page loads as
 * served (compressed, what went over the wire: the page's scripts, its preloaded chunks and what they
 * import while it loads), and the Largest Contentful Paint with 4× CPU throttling (CDP
 * `Emulation.setCPUThrottlingRate`), logged in with members nearby. Each figure is printed (and
 * kept in tests/e2e/screenshots/budgets.json); a page past its budget fails. LCP is the median of
 * a round of cold loads (a new browser context each: nothing cached); a round over the budget is
 * measured again, up to three, and the page fails when every round is over, so a moment of load
 * from elsewhere on the machine does not decide it (nor rounds all measured on a machine busier
 * than 3 per core: printed, not judged).
 */

import assert from "node:assert/strict";
import { serveTiles } from "../fixtures/tiles.ts";
import type { Browser, BrowserContext, Page, Request } from "playwright-core";
import { type Harness, logInWithToken, startHarness, VIEWPORTS } from "./harness.ts";
import { seedNearby } from "./tapToPhoto.ts";
import { createLoginToken } from "../../kv/accounts.ts";

/**
 * JavaScript per page as served, in bytes: Brotli, which Chromium takes (gzip to a browser that
 * does not). The map's goal is 130 KB (docs/decisions/0046-page-budgets.md); it is enforced at
 * 135 KB, the page being over its goal for reasons other than languages: an English page loads no
 * translation (docs/decisions/0126-per-language-catalogue-chunks.md).
 */
const JS_BUDGET = { public: 60_000, map: 135_000 };
/** Largest Contentful Paint with 4× CPU throttling, in ms. */
const LCP_BUDGET_MS = 1000;
/** Cold loads per round; the round's median counts. */
const LCP_RUNS = Number(Deno.env.get("BUDGETS_LCP_RUNS") ?? 3);
/** Rounds at most, while each is over the budget. */
const LCP_ROUNDS = 3;
/**
 * A round measured while the machine's load average is above this many per core says more of the
 * machine than of the page (4× throttling on a CPU shared that much is a far slower phone): it is
 * printed and kept, but a page over the budget only in such rounds is not failed for it.
 */
const BUSY_LOAD_PER_CORE = 3;

/** BUDGETS_VERBOSE=1 prints each script's size and each load's timeline too (BUDGETS_LCP_RUNS, BUDGETS_LCP_PAGES narrow it). */
const VERBOSE = Deno.env.get("BUDGETS_VERBOSE") === "1";

// A local tile server: the map's LCP should not depend on the internet.
await serveTiles(`<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256">
    <rect width="256" height="256" fill="#eef1ea"/>
    <path d="M0 96H256M0 200H256M70 0V256M180 0V256" stroke="#ffffff" stroke-width="10"/>
  </svg>`);

/** A phone context, cold (nothing cached), with the given cookies (and the browser's language, English unless given). */
function phone(
  browser: Browser,
  h: Harness,
  cookies: Awaited<ReturnType<BrowserContext["cookies"]>>,
  locale?: string,
) {
  return browser.newContext({
    viewport: VIEWPORTS.phone,
    ...(locale ? { locale } : {}),
    isMobile: true,
    hasTouch: true,
    baseURL: h.origin,
  }).then(async (c) => {
    await c.addCookies(cookies);
    return c;
  });
}

/**
 * Counts the bytes of JavaScript `page` loads as served (its scripts and what they import as it
 * starts), from now on: `done()` gives them once the load has settled.
 */
function scriptBytes(page: Page, path: string): { done(): Promise<{ bytes: number; files: number }> } {
  const sizes: Promise<number>[] = [];
  const finished = (req: Request) => {
    if (req.resourceType() !== "script") return;
    sizes.push(
      req.sizes().then((s) => {
        if (VERBOSE) console.log(`    ${path} ${req.url().split("/").pop()} ${s.responseBodySize}`);
        return s.responseBodySize;
      }),
    );
  };
  page.on("requestfinished", finished);
  return {
    done: async () => {
      // A script finishing after this is not the load's (it was never counted): it is not asked
      // for its sizes either, which would fail once the page is closed.
      page.off("requestfinished", finished);
      const all = await Promise.all(sizes);
      return { bytes: all.reduce((a, b) => a + b, 0), files: all.length };
    },
  };
}

/** The bytes of JavaScript a page loads as served, in a load of its own. */
async function jsBytes(context: BrowserContext, path: string): Promise<{ bytes: number; files: number }> {
  const page = await context.newPage();
  const counted = scriptBytes(page, path);
  await page.goto(path, { waitUntil: "networkidle" });
  const js = await counted.done();
  await page.close();
  return js;
}

/**
 * The Largest Contentful Paint of one cold load with 4× CPU throttling, in ms; with `js`, the bytes
 * of JavaScript the load took as served too (throttling slows the page, not what it is sent).
 */
async function lcp(
  context: BrowserContext,
  path: string,
  js = false,
): Promise<{ ms: number; element: string; js?: { bytes: number; files: number } }> {
  const page = await context.newPage();
  const counted = js ? scriptBytes(page, path) : undefined;
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(path, { waitUntil: "networkidle" });
  // The scripts of the load as a load of its own would count them: those finished by its idle network.
  const loaded = counted?.done();
  const result = await page.evaluate(() =>
    new Promise<{ ms: number; element: string }>((resolve) => {
      new PerformanceObserver((list) => {
        const last = list.getEntries().at(-1) as PerformanceEntry & { element?: Element; url?: string };
        const el = last.element;
        resolve({
          ms: last.startTime,
          // An element gone since it painted (the map's first tiles) is named by its picture's address.
          element: el
            ? `${el.tagName.toLowerCase()}${el.className ? "." + String(el.className).split(" ")[0] : ""}`
            : last.url
            ? `removed img ${new URL(last.url).pathname}`
            : "",
        });
      }).observe({ type: "largest-contentful-paint", buffered: true });
    })
  );
  if (VERBOSE) {
    const timeline = await page.evaluate(() =>
      [
        ...performance.getEntriesByType("navigation"),
        ...performance.getEntriesByType("resource"),
        ...performance.getEntriesByType("paint"),
      ].map((e) => {
        const r = e as PerformanceResourceTiming;
        return `${r.startTime.toFixed(0)}-${(r.responseEnd ?? r.startTime).toFixed(0)} ${e.name.split("/").pop()}`;
      })
    );
    console.log(`    ${path}: LCP ${result.ms.toFixed(0)}\n      ${timeline.join("\n      ")}`);
  }
  await cdp.detach();
  const bytes = await loaded;
  await page.close();
  return bytes ? { ...result, js: bytes } : result;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

Deno.test({
  name: "e2e phone - page budgets: JavaScript as served and LCP with 4× CPU throttling",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    try {
      const s = await seedNearby();
      // Log in once, without a page; each measurement is a fresh context with that session's cookie.
      const login = await h.browser.newContext();
      await logInWithToken(login, h.origin, await createLoginToken(s.viewer.id));
      const cookies = await login.cookies();
      await login.close();

      const failures: string[] = [];
      const record: Record<string, unknown> = { loadAverage: Deno.loadavg(), js: {}, lcp: {} };
      console.log(`\npage budgets (load average ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")})`);

      // --- JavaScript as served: logged out on the public pages, logged in on the others
      const publicPages = ["/login", "/register", "/aboutus", "/tos", "/support", "/sorry"];
      const memberPages = ["/", "/search/tile", `/profile/${s.profile}`, "/search/map"];
      const judgeJs = (path: string, { bytes, files }: { bytes: number; files: number }) => {
        const budget = publicPages.includes(path) ? JS_BUDGET.public : path === "/search/map" ? JS_BUDGET.map : 0;
        (record.js as Record<string, number>)[path] = bytes;
        console.log(
          `  JS ${path}: ${(bytes / 1000).toFixed(1)} KB as served in ${files} files` +
            (budget ? ` (budget ${budget / 1000} KB)` : ""),
        );
        if (budget && bytes > budget) failures.push(`JS ${path}: ${bytes} B > ${budget} B`);
      };
      for (const path of publicPages) {
        const context = await phone(h.browser, h, []);
        judgeJs(path, await jsBytes(context, path));
        await context.close();
      }
      // The member pages' JavaScript is counted on their first LCP load below (a cold load in a
      // new context as well), and in a load of its own for a page no LCP load opens.
      const memberJs = new Map<string, { bytes: number; files: number }>();

      // The map in another language: English's scripts and that language's translation chunk
      // (printed and kept, not judged: the budgets are English pages').
      for (const locale of ["es-ES", "ar-EG"]) {
        const context = await phone(h.browser, h, cookies, locale);
        const { bytes, files } = await jsBytes(context, "/search/map");
        await context.close();
        (record.js as Record<string, number>)[`/search/map ${locale}`] = bytes;
        console.log(`  JS /search/map in ${locale}: ${(bytes / 1000).toFixed(1)} KB as served in ${files} files`);
      }

      // --- LCP, 4× CPU throttling, logged in: the median of a round of cold loads. A round over
      // the budget is measured again (at most LCP_ROUNDS in all): a page fails when every round is
      // over, so a moment of load from elsewhere on the machine does not decide it; and only if one
      // of them was measured on a machine not busier than BUSY_LOAD_PER_CORE.
      const lcpPages: [string, string][] = [
        ["home", "/"],
        ["tiles", "/search/tile"],
        ["profile", `/profile/${s.profile}`],
        ["chat", `/profile/${s.profile}#chat`],
        ["map", "/search/map"],
      ];
      const cores = navigator.hardwareConcurrency;
      const only = Deno.env.get("BUDGETS_LCP_PAGES")?.split(",");
      for (const [name, path] of LCP_RUNS > 0 ? lcpPages.filter(([n]) => !only || only.includes(n)) : []) {
        const rounds: { ms: number; load: number }[] = [];
        for (let round = 0; round < LCP_ROUNDS && !(rounds.at(-1)?.ms! <= LCP_BUDGET_MS); round++) {
          const runs: { ms: number; element: string }[] = [];
          for (let i = 0; i < LCP_RUNS; i++) {
            const context = await phone(h.browser, h, cookies);
            const countJs = memberPages.includes(path) && !memberJs.has(path);
            const run = await lcp(context, path, countJs);
            if (run.js) memberJs.set(path, run.js);
            runs.push(run);
            await context.close();
          }
          rounds.push({ ms: median(runs.map((r) => r.ms)), load: Deno.loadavg()[0] });
          console.log(
            `  LCP ${name}: ${rounds.at(-1)!.ms.toFixed(0)} ms, median of ${
              runs.map((r) => r.ms.toFixed(0)).join(", ")
            } (${runs.map((r) => r.element).find((e) => e)}; load average ${
              rounds.at(-1)!.load.toFixed(2)
            } on ${cores} cores)`,
          );
        }
        (record.lcp as Record<string, unknown>)[name] = rounds.map((r) => ({ ms: Math.round(r.ms), load: r.load }));
        if (rounds.every((r) => r.ms > LCP_BUDGET_MS)) {
          const over = `LCP ${name}: ${rounds.map((r) => r.ms.toFixed(0)).join(", ")} ms > ${LCP_BUDGET_MS} ms`;
          if (rounds.some((r) => r.load <= BUSY_LOAD_PER_CORE * cores)) failures.push(over);
          else console.log(`  ${over}, but only on a machine busier than ${BUSY_LOAD_PER_CORE} per core: not judged`);
        }
      }
      for (const path of memberPages) {
        if (!memberJs.has(path)) {
          const context = await phone(h.browser, h, cookies);
          memberJs.set(path, await jsBytes(context, path));
          await context.close();
        }
        judgeJs(path, memberJs.get(path)!);
      }
      // The figures of this run, beside the screenshots.
      await Deno.mkdir(new URL("./screenshots/", import.meta.url), { recursive: true });
      await Deno.writeTextFile(new URL("./screenshots/budgets.json", import.meta.url), JSON.stringify(record, null, 2));
      assert.deepEqual(failures, [], "every page within its budget");
    } finally {
      await h.close();
    }
  },
});
