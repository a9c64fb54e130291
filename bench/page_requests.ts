/**
 * What a page load asks for, as the browser tests load pages: the screens the suite loads most
 * (the grid, a neighbour's profile, the conversations, the map, settings, home, and the login page
 * logged out), each in a new context (an empty cache, as a test's fresh context and a member's
 * first visit) and again in the same tab (the cache warm, as a member's next visit). Prints, a load:
 * the requests by kind (scripts, CSS, fonts, images, API calls, documents, the rest) and their bytes
 * on the wire, and the DevTools protocol messages Chromium sent the test's process by domain
 * (Network.*, Page.*, Runtime.*, ...): each is work in Chromium's browser process and in
 * Playwright's side of the test's. Counts, not times: it needs no quiet machine.
 *
 * Run: `deno run -A bench/page_requests.ts [--screens /search/tile,/settings]`.
 */

import process from "node:process";
import { chromium, type Page } from "playwright-core";
import { arg } from "./kit.ts";
import { seedNeighbours, startHarness, waitHydrated } from "../tests/e2e/harness.ts";
import { CHROMIUM_FLAGS, chromiumPath } from "../tests/e2e/browserServer.ts";
import { memberState, openPhone } from "./browser_loads.ts";

/** A request's kind, by Chromium's resource type and, for fetches, its path. */
function kindOf(type: string, url: string): string {
  if (type === "fetch" || type === "xhr" || type === "eventsource" || type === "websocket") {
    return new URL(url).pathname.startsWith("/api/") ? "api" : type;
  }
  return { script: "script", stylesheet: "css", font: "font", image: "image", document: "document" }[type] ?? type;
}

interface Load {
  screen: string;
  how: string;
  requests: Record<string, number>;
  bytes: Record<string, number>;
  cdp: Record<string, number>;
  scripts: string[];
  /** What it asked for beside scripts and images (method and path). */
  asked: string[];
}

/**
 * Counts the protocol messages Chromium sends the test's process (events and answers alike) by
 * domain, from Playwright's protocol log (`DEBUG=pw:protocol`, set by re-running this bench with it),
 * which it writes to the process's stderr: counted there, not printed.
 */
function countMessages(): { take(): Record<string, number> } {
  let counts: Record<string, number> = {};
  const write = process.stderr.write.bind(process.stderr);
  // deno-lint-ignore no-explicit-any
  process.stderr.write = ((chunk: any, ...rest: any[]) => {
    const text = String(chunk);
    if (!text.includes("pw:protocol")) return write(chunk, ...rest);
    if (text.includes("\u25C0 RECV")) {
      const m = text.match(/"method":"(\w+)\./);
      const key = m ? m[1] : "answers";
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return true;
  }) as typeof process.stderr.write;
  return {
    take() {
      const c = counts;
      counts = {};
      return c;
    },
  };
}

async function measure(page: Page, path: string, how: string, counter: ReturnType<typeof countMessages>) {
  const load: Load = { screen: path, how, requests: {}, bytes: {}, cdp: {}, scripts: [], asked: [] };
  const seen: Promise<void>[] = [];
  const onRequest = (r: import("playwright-core").Request) => {
    const kind = kindOf(r.resourceType(), r.url());
    load.requests[kind] = (load.requests[kind] ?? 0) + 1;
    if (kind === "script") load.scripts.push(new URL(r.url()).pathname.split("/").at(-1)!);
    if (kind !== "script" && kind !== "image") load.asked.push(`${r.method()} ${new URL(r.url()).pathname}`);
    seen.push(
      r.response().then(async (res) => {
        const len = Number((await res?.allHeaders())?.["content-length"] ?? 0);
        load.bytes[kind] = (load.bytes[kind] ?? 0) + len;
      }).catch(() => {}),
    );
  };
  counter.take();
  page.on("request", onRequest);
  await page.goto(path);
  await waitHydrated(page);
  // What the page asks for just after hydrating (its first queries) belongs to its load.
  await page.waitForTimeout(500);
  page.off("request", onRequest);
  load.cdp = counter.take();
  await Promise.all(seen);
  return load;
}

if (import.meta.main && !/pw:protocol/.test(Deno.env.get("DEBUG") ?? "")) {
  // Playwright reads DEBUG as it loads: this bench again, with its protocol log on.
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", new URL(import.meta.url).pathname, ...Deno.args],
    env: { DEBUG: "pw:protocol" },
  }).spawn().status;
  Deno.exit(code);
} else if (import.meta.main) {
  const counter = countMessages();
  const h = await startHarness({ ownBrowser: true, limitMs: 3_600_000 });
  const out: Load[] = [];
  try {
    const state = await memberState(h, "bench-requests@example.com");
    const [near] = await seedNeighbours("bench-requests");
    const screens = arg("screens", "").split(",").filter(Boolean);
    const paths = screens.length
      ? screens
      : ["/search/tile", `/profile/${near}`, "/chat/personal", "/search/map", "/settings", "/", "/login"];
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_FLAGS });
    for (const path of paths) {
      const { context, page } = await openPhone(
        browser,
        h.origin,
        path === "/login" ? { cookies: [], origins: [] } : state,
      );
      out.push(await measure(page, path, "new context", counter));
      out.push(await measure(page, path, "same tab again", counter));
      await context.close();
    }
    await browser.close();
  } finally {
    await h.close();
  }
  const kinds = [...new Set(out.flatMap((l) => Object.keys(l.requests)))].sort();
  const domains = [...new Set(out.flatMap((l) => Object.keys(l.cdp)))].sort();
  console.log(
    `\n| screen | load | ${kinds.map((k) => `${k} (n, KB)`).join(" | ")} | ${domains.join(" | ")} | CDP all |`,
  );
  console.log(`| --- | --- | ${kinds.map(() => "---").join(" | ")} | ${domains.map(() => "---").join(" | ")} | --- |`);
  for (const l of out) {
    const cdpAll = Object.values(l.cdp).reduce((a, b) => a + b, 0);
    console.log(
      `| ${l.screen.replace(/\/profile\/.*/, "/profile/:id")} | ${l.how} | ${
        kinds.map((k) => l.requests[k] ? `${l.requests[k]}, ${((l.bytes[k] ?? 0) / 1024).toFixed(1)}` : "").join(" | ")
      } | ${domains.map((d) => l.cdp[d] ?? "").join(" | ")} | ${cdpAll} |`,
    );
  }
  // `PAGE_REQUESTS_LIST=1`: each load's script files and other requests by name.
  if (Deno.env.get("PAGE_REQUESTS_LIST")) {
    for (const l of out) console.log(`${l.screen} (${l.how}): ${l.asked.join(", ")}; scripts: ${l.scripts.join(" ")}`);
  }
  Deno.exit(0);
}
