/**
 * Browser-test harness: the app on a free port with a `:memory:` KV and its workers, and
 * Debian's Chromium driven by playwright-core. Screenshots go to tests/e2e/screenshots/.
 */

import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { closeKv, openKv } from "../../kv/db.ts";
import { build } from "../../islands/build.ts";
import { reloadManifest } from "../../routes/assets.ts";
import { startWorkers } from "../../workers/run.ts";

/** Phone and desktop viewports every screen is checked on. */
export const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1366, height: 900 },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

let built: Promise<unknown> | undefined;

/** A running app and browser for one test file. */
export interface Harness {
  origin: string;
  browser: Browser;
  newPage(viewport: ViewportName): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/** Builds the islands once per process, starts the app and a browser. */
export async function startHarness(): Promise<Harness> {
  built ??= build();
  await built;
  reloadManifest();
  await openKv(":memory:");
  Deno.env.set("LOG_REQUESTS", "0");
  const { default: app } = await import("../../main.ts");
  const workers = startWorkers();
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const origin = `http://localhost:${server.addr.port}`;
  Deno.env.set("PUBLIC_ORIGIN", origin);
  const browser = await chromium.launch({
    executablePath: Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium",
    args: CHROMIUM_FLAGS,
  });
  return {
    origin,
    browser,
    async newPage(viewport) {
      const context = await browser.newContext({
        viewport: VIEWPORTS[viewport],
        isMobile: viewport === "phone",
        hasTouch: viewport === "phone",
        baseURL: origin,
      });
      const page = await context.newPage();
      page.on("pageerror", (e) => console.error(`[page error] ${e.message}`));
      return { context, page };
    },
    async close() {
      await browser.close();
      await workers.stop();
      await server.shutdown();
      Deno.env.delete("PUBLIC_ORIGIN");
      closeKv();
    },
  };
}

/** Saves a full-page screenshot as tests/e2e/screenshots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(new URL("./screenshots/", import.meta.url), { recursive: true });
  await page.screenshot({ path: new URL(`./screenshots/${name}.png`, import.meta.url).pathname, fullPage: true });
}
