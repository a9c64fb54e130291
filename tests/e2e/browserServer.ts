/**
 * One Chromium for many browser tests: Debian's headless shell (else its Chromium, `chromiumPath`),
 * launched as the harness launches it, with
 * its DevTools protocol open on a local port. scripts/run_tests.ts starts one beside each
 * `deno test` process that runs browser files and hands its address to the process as
 * E2E_BROWSER_URL; `startHarness()` then connects to it (`chromium.connectOverCDP`) instead of
 * launching a browser of its own, for every test of every file that process runs. Playwright still
 * runs in the test's process (downloads, routes and events work as with a browser of its own); the
 * contexts a test makes are closed when it disconnects, so nothing it leaves (cookies, storage,
 * service workers, permissions) reaches the next test.
 *
 *   deno run -A tests/e2e/browserServer.ts     # prints the address; stops when stdin closes
 *
 * Kept free of the app's modules: the server process loads Playwright and nothing else.
 */

import { chromium } from "playwright-core";

/**
 * The switches every test browser starts with, besides Playwright's own defaults (headless, no
 * background timer throttling, hidden scrollbars...).
 */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Debian's full Chromium (`apt-get install chromium`): what a test needs when only it has a feature. */
export const FULL_CHROMIUM = "/usr/bin/chromium";

/**
 * Debian's headless shell (`apt-get install chromium-headless-shell`, the same version as its
 * chromium): Chromium's content layer without the browser's own (no profile services, extensions,
 * sync, installability, Google services), what Playwright itself runs headless tests in. The
 * binary, not /usr/bin's wrapper script, which stays as its parent (a kill would miss the browser).
 */
export const HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell";

/**
 * Where the browser is: CHROMIUM_PATH when given (for every test); else the headless shell when it
 * is installed, unless `full` (a test that needs the full browser: its installability check);
 * else Debian's full Chromium.
 */
export function chromiumPath({ full = false }: { full?: boolean } = {}): string {
  const given = Deno.env.get("CHROMIUM_PATH");
  if (given) return given;
  if (!full) {
    try {
      if (Deno.statSync(HEADLESS_SHELL).isFile) return HEADLESS_SHELL;
    } catch { /* not installed: the full browser */ }
  }
  return FULL_CHROMIUM;
}

/** A running shared browser. */
export interface BrowserServer {
  /** Its DevTools address (`http://127.0.0.1:<port>`), what `chromium.connectOverCDP()` takes. */
  url: string;
  /** Closes the browser. */
  close(): Promise<void>;
}

/**
 * Launches Chromium with CHROMIUM_FLAGS (and Playwright's defaults, as `startHarness()` would)
 * with its DevTools protocol also open on a free local port, for test processes to connect to.
 * This process's own connection makes no contexts: it lets every page of the others' be.
 */
export async function startBrowserServer(): Promise<BrowserServer> {
  // A free port: asked of the system, then given to the browser.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, "--remote-debugging-address=127.0.0.1"],
  });
  return { url: `http://127.0.0.1:${port}`, close: () => browser.close() };
}

if (import.meta.main) {
  // The address on stdout, one line, for whoever started this process; the server lives until
  // stdin closes (the starter ended or closed it), then closes its browser.
  const server = await startBrowserServer();
  console.log(server.url);
  for await (const _ of Deno.stdin.readable) { /* held open by the starter */ }
  await server.close();
}
