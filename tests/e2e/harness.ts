/**
 * Browser-test harness: the app on a free port with a `:memory:` KV (or a remote one with
 * `TEST_KV=remote`, tests/remoteKv.ts) and its workers, and
 * Debian's Chromium driven by playwright-core. Screenshots go to tests/e2e/screenshots/.
 */

import { until } from "../wait.ts";
import type { createApp } from "../../main.ts";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { closeKv, openKv } from "../../kv/db.ts";
import { privateBuild, sharedBuild } from "../islands_build.ts";
import { reloadManifest } from "../../routes/assets.ts";
import { startWorkers } from "../../workers/run.ts";
import { createAccount, createLoginToken, getAccountByEmail, setOnboarding } from "../../kv/accounts.ts";
import { linksIn, listOutbox } from "../../kv/outbox.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { updateProfile } from "../../kv/profiles.ts";
import { addPicture } from "../../kv/pictures.ts";
import { portraitPicture } from "../fixtures/pictures.ts";
import { testKvLocation } from "../remoteKv.ts";
import { CHROMIUM_FLAGS, chromiumPath } from "./browserServer.ts";
import { ACKNOWLEDGEMENTS } from "../../domain/texts.ts";
import { waitHydrated } from "./hydrated.ts";
import { uncompressedDevtools } from "./uncompressed.ts";

export { waitHydrated } from "./hydrated.ts";

/** Phone and desktop viewports every screen is checked on. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

/** The switches every test browser starts with (tests/e2e/browserServer.ts). */
export { CHROMIUM_FLAGS, chromiumPath } from "./browserServer.ts";

/** A running app and browser for one test file. */
export interface Harness {
  origin: string;
  browser: Browser;
  /**
   * A new context and page. The app's service worker is blocked unless `serviceWorkers: "allow"`,
   * as in every context made through `browser.newContext`: Playwright's request interception
   * (`page.route`) does not see the requests of a page a worker controls, and each worker would
   * precache the whole build; tests/e2e/offline_test.ts runs with it.
   */
  newPage(
    viewport: ViewportName,
    opts?: { serviceWorkers?: "allow" | "block" },
  ): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

let made: ReturnType<typeof createApp> | undefined;

/** The app as main.ts builds it, made once per process, after the harness has set its environment. */
export async function mainApp(): Promise<ReturnType<typeof createApp>> {
  return made ??= (await import("../../main.ts")).createApp();
}

/**
 * Starts the app on the shared build of the islands, and a browser. `limitMs`: how long its test
 * may run (TEST_LIMIT_MS unless a walk of every page needs more); `fakeCamera`: a Y4M clip the
 * browser's camera plays (the selfie tests); `ownBuild`: a private copy of the build, for a test
 * that changes its files (BUILD_DIR names it until the harness closes); `kv`: where its store is
 * (a KV Connect URL, tests/remoteKv.ts), instead of the test kits' own (`:memory:`, or remote with
 * TEST_KV=remote); `ownBrowser`: a browser of its own, not the process's shared one; `fullBrowser`:
 * one of its own and Debian's full Chromium, not the headless shell (`chromiumPath`), for what
 * only the full browser does (a push shown as a notification through the push service's path).
 */
export async function startHarness(
  opts: {
    limitMs?: number;
    fakeCamera?: string;
    ownBuild?: boolean;
    kv?: string;
    ownBrowser?: boolean;
    fullBrowser?: boolean;
  } = {},
): Promise<Harness> {
  // The islands as built for these sources, shared with every other file and test process
  // (tests/islands_build.ts); a test that changes the build's files gets a copy of its own.
  const own = opts.ownBuild ? await privateBuild() : (await sharedBuild(), undefined);
  // And its own map tile cache (routes/tiles.ts), not the checkout's ./data/tiles.
  if (!Deno.env.get("TILE_CACHE_DIR")) {
    Deno.env.set("TILE_CACHE_DIR", Deno.makeTempDirSync({ prefix: "e2e-tiles-" }));
  }
  reloadManifest();
  await openKv(opts.kv ?? await testKvLocation());
  Deno.env.set("LOG_REQUESTS", "0");
  Deno.env.set("DEV_OUTBOX_PRINT", "0");
  const app = await mainApp();
  const workers = startWorkers();
  // The requests not yet delivered, named when closing the server hangs.
  const open = new Map<number, string>();
  let served = 0;
  // The documents the browser loaded (navigations, reloads, prerenders): printed at close, what a
  // test's page loads cost is counted by.
  let documents = 0;
  // Of them, the documents the speculation rules fetched ahead (routes/speculation.ts): a fetch the
  // server renders and the browser's network process receives, but no renderer loads.
  let ahead = 0;
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, (req, info) => {
    const n = served++;
    if (req.headers.get("sec-fetch-dest") === "document") {
      documents++;
      if (/prefetch/.test(req.headers.get("sec-purpose") ?? "")) ahead++;
    }
    open.set(n, `${req.method} ${new URL(req.url).pathname}${req.headers.get("upgrade") ? " (upgrade)" : ""}`);
    void (info as Deno.ServeHandlerInfo & { completed?: Promise<void> }).completed?.finally(() => open.delete(n));
    return app.fetch(req, info);
  });
  const origin = `http://localhost:${server.addr.port}`;
  Deno.env.set("PUBLIC_ORIGIN", origin);
  const browser = await openBrowser(opts.fakeCamera, opts.ownBrowser || opts.fullBrowser, opts.fullBrowser);
  // The browser contexts and tabs the test opened, printed at close beside its page loads: a tab
  // starts a renderer of its own, and a load in a new context costs about twice one in an open tab.
  // Every context the test makes has the app's service worker blocked unless its options ask for it
  // (`serviceWorkers: "allow"`, the tests about the worker): a signed-in page registers it, and it
  // then fetches and keeps the whole build and takes the context's requests through itself.
  const opened = { contexts: 0, tabs: 0 };
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext({ ...options, serviceWorkers: options?.serviceWorkers ?? "block" });
    opened.contexts++;
    context.on("page", () => opened.tabs++);
    return context;
  };
  // A test still running after TEST_LIMIT_MS is stuck: its browser is closed (a shared one: this
  // test's connection and contexts only), so the Playwright call it waits on fails with its own
  // stack instead of hanging the whole suite.
  const limitMs = opts.limitMs ?? TEST_LIMIT_MS;
  const watchdog = setTimeout(() => {
    console.error(`harness: the test is still running after ${limitMs / 1000} s; closing its browser`);
    void browser.close();
  }, limitMs);
  return {
    origin,
    browser,
    async newPage(viewport, opts = {}) {
      const context = await browser.newContext({
        viewport: VIEWPORTS[viewport],
        isMobile: viewport === "phone",
        hasTouch: viewport === "phone",
        baseURL: origin,
        serviceWorkers: opts.serviceWorkers,
      });
      const page = await context.newPage();
      // Every navigation waits until the page's islands are hydrated, so a test never clicks a
      // server-rendered button before React owns it (slow machines hydrate late).
      const goto = page.goto.bind(page);
      page.goto = async (url, opts) => {
        const res = await goto(url, opts);
        await waitHydrated(page);
        return res;
      };
      // The same after a click that navigates, when the test waits for the new address.
      const waitForURL = page.waitForURL.bind(page);
      page.waitForURL = async (url, opts) => {
        await waitForURL(url, opts);
        await waitHydrated(page);
      };
      page.on("pageerror", (e) => console.error(`[page error] ${e.message}\n${e.stack}`));
      page.on("console", (m) => m.type() === "error" && console.error(`[console] ${m.text()}`));
      return { context, page };
    },
    async close() {
      clearTimeout(watchdog);
      try {
        // Each step is bounded: a step that hangs is named and fails the test, never stalls the suite.
        // A shared browser stays up: closing disconnects this test and closes the contexts it made.
        await bounded("closing the browser", () => browser.close());
        await bounded("stopping the job workers", () => workers.stop());
        await shutDown(server, open);
        console.log(
          `harness: ${documents} page loads served in ${opened.tabs} tabs of ${opened.contexts} contexts` +
            ` (${ahead} of them fetched ahead)`,
        );
      } finally {
        // Whatever failed above, the next test file starts from a clean process.
        Deno.env.delete("PUBLIC_ORIGIN");
        closeKv();
        await own?.restore();
      }
    },
  };
}

/** Is a harness of this file connected to the shared browser now? */
let sharedInUse = false;

/**
 * The test's browser. With E2E_BROWSER_URL (a Chromium scripts/run_tests.ts started for this
 * process, tests/e2e/browserServer.ts), a connection to that one, shared with every other test the
 * process runs: it saves a browser start per test; the contexts a test makes are closed when it
 * disconnects. Otherwise, or when that server does not answer, or for a fake camera (its
 * switches are the browser's, so that test keeps a browser of its own), or when the test asks for
 * its own (`own`: its subject is the browser's own state, such as a virtual authenticator and the
 * focused page WebAuthn asks for), a Chromium launched here: the full one when `full`.
 */
async function openBrowser(fakeCamera?: string, own = false, full = false): Promise<Browser> {
  const shared = Deno.env.get("E2E_BROWSER_URL");
  // One connection at a time: a second one over the DevTools protocol would take the first one's
  // pages for its own default context. A test that holds two harnesses at once gets a browser of
  // its own for the second.
  if (shared && !fakeCamera && !own && !sharedInUse) {
    try {
      // Its messages uncompressed: over a local socket, deflating and inflating each is pure cost (0259).
      uncompressedDevtools(shared);
      const browser = await chromium.connectOverCDP(shared, { timeout: 30_000 });
      sharedInUse = true;
      browser.on("disconnected", () => sharedInUse = false);
      return browser;
    } catch (e) {
      console.error(`harness: the shared browser at ${shared} did not answer (${e}); launching one`);
    }
  }
  return await chromium.launch({
    executablePath: chromiumPath({ full }),
    // A fake camera playing a clip (a Y4M file), allowed without asking: the selfie tests only.
    args: fakeCamera
      ? [
        ...CHROMIUM_FLAGS,
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        `--use-file-for-fake-video-capture=${fakeCamera}`,
      ]
      : CHROMIUM_FLAGS,
  });
}

/**
 * Shuts the server down. Deno never finishes a connection whose client left before its handler
 * upgraded it to a WebSocket (the socket stays connecting, the shutdown waits for it for ever):
 * a page that navigates away while its event socket is being opened leaves one. With every request
 * answered, such a connection is named and left to the process; a request still open past
 * CLOSE_STEP_MS fails the test.
 */
async function shutDown(server: Deno.HttpServer<Deno.NetAddr>, open: Map<number, string>): Promise<void> {
  const done = server.shutdown(), started = Date.now();
  while (Date.now() < started + CLOSE_STEP_MS) {
    const settled = await Promise.race([done.then(() => true), new Promise((r) => setTimeout(r, 250, false))]);
    if (settled) return;
    if (open.size === 0 && Date.now() > started + ANSWERED_GRACE_MS) {
      console.log(`harness: every request answered; left to the process: ${connections(server.addr.port)}`);
      return;
    }
  }
  throw new Error(
    `harness: shutting the server down took over ${CLOSE_STEP_MS / 1000} s; open: ${
      [...open.values()].join(", ")
    }; connections: ${connections(server.addr.port)}`,
  );
}

/** The port's connections as the kernel sees them (`ss`), to name what holds a shutdown. */
function connections(port: number): string {
  try {
    const out = new Deno.Command("ss", { args: ["-tanpo"] }).outputSync().stdout;
    return new TextDecoder().decode(out).split("\n").filter((l) => l.includes(`:${port} `)).join("; ") || "none";
  } catch {
    return "(ss not available)";
  }
}

/** How long one e2e test may run before the harness ends it (the slowest take about 60 s on a busy machine). */
const TEST_LIMIT_MS = 240_000;
/** How long each step of closing the harness may take. */
const CLOSE_STEP_MS = 20_000;
/** How long a shutdown with every request answered may wait for its connections to close. */
const ANSWERED_GRACE_MS = 3_000;

/** Runs one step of closing; past CLOSE_STEP_MS it throws, naming the step. */
async function bounded(step: string, f: () => Promise<unknown>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(`harness: ${step} took over ${CLOSE_STEP_MS / 1000} s`),
        ),
      CLOSE_STEP_MS,
    );
  });
  try {
    await Promise.race([f(), limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * How far back "yesterday at noon" is, in the time zone the browser reads (this machine's): a
 * fixed "26 hours ago" is two days ago when a run starts just after midnight.
 */
export function sinceYesterdayNoon(): number {
  const d = new Date();
  return Date.now() - new Date(d.getFullYear(), d.getMonth(), d.getDate() - 1, 12).getTime();
}

/**
 * Reports member `id` at the `i`-th place of a spiral around `home` (`start` + `step`·i degrees out,
 * a turn of 2.4 radians each), as their phone would: members seeded nearby, none on another.
 */
export function placeOnSpiral(
  id: string,
  home: { lat: number; lon: number },
  i: number,
  { start, step }: { start: number; step: number },
) {
  const r = start + step * i, a = i * 2.4;
  return reportPosition(id, {
    lat: home.lat + r * Math.sin(a),
    lon: home.lon + r * Math.cos(a) * 0.6,
    use: "OVERRIDE",
    hide: false,
  });
}

/**
 * How many browser pages a test file drives at once when it walks independent cases (languages,
 * widths, viewports): a page mostly waits (for the server, a frame, a worker), so a few side by
 * side fill that time; more than this only queue for the cores. E2E_PAGES_AT_ONCE overrides it.
 */
export const PAGES_AT_ONCE = Math.max(1, Number(Deno.env.get("E2E_PAGES_AT_ONCE")) || 3);

/**
 * Runs `fn` on every item, at most `atOnce` at a time, and resolves with their results in the
 * items' order once all have ended (each runs to its end even when another failed; the first
 * failure is then thrown). For the independent cases of one test, walked side by side in one
 * browser over one app.
 */
export async function sideBySide<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  atOnce = PAGES_AT_ONCE,
): Promise<R[]> {
  const results: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    for (let i = next++; i < items.length; i = next++) {
      results[i] = await fn(items[i], i).then(
        (value) => ({ status: "fulfilled", value }) as const,
        (reason) => ({ status: "rejected", reason }) as const,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  const failed = results.find((r) => r.status === "rejected");
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return results.map((r) => (r as PromiseFulfilledResult<R>).value);
}

/**
 * Whether screenshots are saved: unless E2E_SHOTS=0, which `deno task test` sets (E2E_SHOTS=1 keeps
 * them there too; a file run alone takes them). `shot()`'s go to tests/e2e/screenshots/, which
 * nothing in the suite reads; `docShot()`'s are the screens people read, in docs/screens/, which
 * `deno task screens` takes anew (decision 0313). Each costs a capture, a PNG and, for a whole
 * page, two layouts.
 */
export const SAVE_SHOTS = Deno.env.get("E2E_SHOTS") !== "0";

/** Waits as a screenshot would (the page's fonts loaded, then a frame drawn), saving nothing. */
function asIfShot(page: Page): Promise<void> {
  return page.evaluate(() =>
    document.fonts.ready.then(() => new Promise<void>((drawn) => requestAnimationFrame(() => drawn())))
  );
}

/**
 * Saves a screenshot as tests/e2e/screenshots/<name>.png, of the whole page or (`fullPage: false`)
 * of what the screen shows. When SAVE_SHOTS is off it waits as a screenshot would, so what a test
 * does after it meets the page as it did, and saves nothing.
 */
export async function shot(page: Page, name: string, { fullPage = true } = {}): Promise<void> {
  if (!SAVE_SHOTS) return await asIfShot(page);
  await Deno.mkdir(new URL("./screenshots/", import.meta.url), { recursive: true });
  await page.screenshot({ path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname, fullPage });
}

/**
 * Saves a screen people read as `path` (docs/screens/, its folder made), what the screen shows,
 * when SAVE_SHOTS is on; else waits as `shot` does.
 */
export async function docShot(page: Page, path: string): Promise<void> {
  if (!SAVE_SHOTS) return await asIfShot(page);
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await page.screenshot({ path });
}

/**
 * Registers `email` through the Register page, opens the mailed link from the dev outbox and
 * waits for home, logged in. Returns the link (it works once). A new member goes through
 * onboarding first; unless `onboarding` is asked for, the member here has done it already (as
 * every test but onboarding's wants), and lands on home as before.
 */
export async function registerAndLogIn(
  page: Page,
  origin: string,
  email: string,
  opts: { onboarding?: boolean } = {},
): Promise<string> {
  // A member registering again (a second device) waits for the new mail, not the link already used.
  const before = await newestLinkTo(email);
  await page.goto("/register");
  await page.getByLabel("Email", { exact: true }).fill(email);
  for (const box of await page.getByRole("checkbox").all()) await box.check();
  await page.getByRole("button", { name: "Send me a login link" }).click();
  await page.getByText("Check your email").waitFor();
  const link = await mailedLink(email, { ...opts, except: before });
  await page.goto(link);
  await page.waitForURL(origin + (opts.onboarding ? "/welcome" : "/"));
  await waitHydrated(page);
  return link;
}

/**
 * Makes `email` a member logged in in a browser `context` without loading a page, for the tests
 * that are not about registering or logging in (those go through the pages: `registerAndLogIn`).
 * It sends what the Register page sends (POST /api/auth/register) and then what the login page
 * sends with the mailed link's token (POST /api/auth), through the context's own request client:
 * the session cookie the server sets is the context's, and the login's user agent the browser's
 * (the member's devices list names it as after a login in a page). The page's first load is then
 * the screen under test; a member who only calls the API needs no page at all. A member registered
 * before gets a new link, as on a second device. Onboarding as `registerAndLogIn` (done unless
 * asked for). Returns the member's profile id and the link (used).
 */
export async function logInThroughApi(
  context: BrowserContext,
  origin: string,
  email: string,
  opts: { onboarding?: boolean } = {},
): Promise<{ profileId: string; link: string }> {
  const request = context.request;
  // A page sends its origin with every write (a second login sends the session cookie too).
  const headers = { origin };
  const before = await newestLinkTo(email);
  const registered = await request.post(`${origin}/api/auth/register`, {
    headers,
    data: { email, acknowledgements: ACKNOWLEDGEMENTS.map((a) => a.text) },
  });
  if (registered.status() !== 202) throw new Error(`registering ${email}: ${registered.status()}`);
  const link = await mailedLink(email, { ...opts, except: before });
  const token = new URL(link).hash.match(/token=([A-Za-z0-9_-]+)/)?.[1];
  if (!token) throw new Error(`no token in the link mailed to ${email}`);
  return { profileId: await logInWithToken(context, origin, token), link };
}

/**
 * Logs a browser `context` in with a login link's `token` (kv/accounts.ts `createLoginToken`, or a
 * mailed link's) without loading a page: what the login page sends with it (POST /api/auth), sent
 * through the context's request client, so the session cookie is the context's. Returns the
 * member's profile id.
 */
export async function logInWithToken(context: BrowserContext, origin: string, token: string): Promise<string> {
  const login = await context.request.post(`${origin}/api/auth`, {
    headers: { origin },
    form: { token, rememberMe: "true" },
  });
  if (login.status() !== 200) throw new Error(`logging in with a link's token: ${login.status()}`);
  return (await login.json()).profileId;
}

/**
 * Logs a browser `context` in as the account `accountId` (made in the store: kv/accounts.ts) with a
 * new login link's token, without loading a page (`logInWithToken`): its first page is the screen
 * under test.
 */
export async function logInAs(context: BrowserContext, origin: string, accountId: string): Promise<void> {
  await logInWithToken(context, origin, await createLoginToken(accountId));
}

/**
 * Hands a tab that served one member to `accountId`, as a device shared after a logout would be:
 * the context's cookies and the app's local and session storage cleared, then the new member logged
 * in without a page load (`logInAs`). A new context costs two to three times a load in an open tab
 * (decision 0213); a test whose subject is a fresh device (storage, service worker, session) opens
 * one instead. The app's page is left first, for the app's icon (an SVG document of its origin, no
 * script): a page still open could write its member's query cache or outbox to local storage after
 * the clearing, for the next member's first page to restore.
 */
export async function handOver(page: Page, origin: string, accountId: string): Promise<void> {
  if (page.url().startsWith(origin)) {
    await page.goto(`${origin}/static/icon.svg`);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  }
  await page.context().clearCookies();
  await logInAs(page.context(), origin, accountId);
}

/**
 * The newest login link mailed to `email`, read from the outbox the dev outbox page lists (the
 * worker sends it; the page itself is tested in settings_test.ts and the proxy tests). The member is
 * taken past onboarding (a member who did it already) unless `onboarding` is asked for. `except`: a
 * link mailed before, so a second login waits for its own mail.
 */
export async function mailedLink(email: string, opts: { onboarding?: boolean; except?: string } = {}): Promise<string> {
  if (!opts.onboarding) {
    const account = await getAccountByEmail(email);
    if (account?.onboarding) await setOnboarding(account.id, null);
  }
  return await until(
    async () => {
      const link = await newestLinkTo(email);
      // A link mailed before (`except`) is not the new one: its mail is not in yet.
      return link && link !== opts.except ? link : null;
    },
    `a login link mailed to ${email}`,
    { timeoutMs: 20_000, everyMs: 50 },
  );
}

/** The link of the newest mail to `email` in the outbox, if any. */
async function newestLinkTo(email: string): Promise<string | undefined> {
  const mail = (await listOutbox()).find((m) => m.to === email);
  return mail && linksIn(mail)[0];
}

/**
 * Waits until the page has stopped moving: its fonts are loaded, no animation or transition runs
 * (a colour-scheme change, a scroll into view, a card going back), and the scroll position held
 * over two frames. For a screenshot or a check that comes after a movement.
 */
export async function settledPaint(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready.then(() => {}));
  await until(() =>
    page.evaluate(() =>
      new Promise<boolean>((done) => {
        const at = [scrollX, scrollY];
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            done(
              scrollX === at[0] && scrollY === at[1] &&
                document.getAnimations().every((a) =>
                  a.playState !== "running" || a.effect?.getTiming().iterations === Infinity
                ),
            )
          )
        );
      })
    ), "the page to stop moving");
}

/** What each neighbour seeded by `seedNeighbours` says about themselves. */
export const NEIGHBOUR_DESCRIPTION = "Coffee, hikes and old films. Say hi if you are around.";

/**
 * Seeds three members near `home` (Phoenix unless given), as a walk of every page wants them
 * around: "Near 0" to "Near 2" (`<prefix>-near-<i>@example.com`), born in 1990, top and hosting,
 * a picture each and NEIGHBOUR_DESCRIPTION, each 0.01° further north. Seeded through the kits
 * (kv/), not through pages. Returns their profile ids, nearest first.
 */
export async function seedNeighbours(
  prefix: string,
  home: { lat: number; lon: number } = { lat: 33.4484, lon: -112.074 },
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const id = (await createAccount({ email: `${prefix}-near-${i}@example.com`, name: `Near ${i}` }))!
      .defaultProfileId;
    await updateProfile(id, {
      profilename: `Near ${i}`,
      birthdate: "1990-01-01",
      description: NEIGHBOUR_DESCRIPTION,
      characteristics: ["top", "hosting"],
    });
    await addPicture(id, await portraitPicture(i));
    await reportPosition(id, { lat: home.lat + 0.01 * (i + 1), lon: home.lon, use: "OVERRIDE", hide: false });
    ids.push(id);
  }
  return ids;
}
