/**
 * What a page load costs Chromium, as the browser tests load pages: a member's main screens loaded
 * one after another in one open tab, and each in a new context (a new tab, its own renderer), in
 * the headless shell with the harness's switches (tests/e2e/browserServer.ts) and, beside it in the
 * same rounds, with each set of extra switches given (`--sets '{"name":["--switch"]}'`). The figure
 * is the CPU of every Chromium process the bench started (renderers reaped by their zygote
 * included) per page load, median over the rounds; the app's own CPU is not in it.
 *
 * `--before DIR`: another copy of the repository (an earlier commit, its modules installed)
 * measured in the same rounds: each round runs this bench once in each copy, in a process of its
 * own (its app, its harness, its Chromium), the copies' order swapped every round; the earlier
 * copy's figures are recorded as a run of their own named `<name>-before` (bench/kit.ts
 * `reportRowsBeside`).
 *
 * Run: `deno run -A bench/browser_loads.ts [--rounds 3] [--sets JSON] [--before DIR] [--record] [--name s9-browser-loads]`.
 * Where a load's time goes inside Chromium: bench/page_load_profile.ts.
 */

import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { arg, descendantsCpuMs, loadAverageText, pct, reportRowsBeside, type ResultRow } from "./kit.ts";
import {
  type Harness,
  registerAndLogIn,
  seedNeighbours,
  startHarness,
  VIEWPORTS,
  waitHydrated,
} from "../tests/e2e/harness.ts";
import { CHROMIUM_FLAGS, chromiumPath } from "../tests/e2e/browserServer.ts";

const ROUNDS = Number(arg("rounds", "3"));
const SETS: Record<string, string[]> = { harness: [], ...JSON.parse(arg("sets", "{}")) };
const NAME = arg("name", "browser-loads");
const BEFORE = arg("before", "");
/** The screens a member opens most, and the tests walk most. */
export const PATHS = [
  "/",
  "/search/tile",
  "/search/swype",
  "/search/map",
  "/chat/personal",
  "/likes/profilelikedyou",
  "/settings",
  "/notifications",
];
/** Chromium's processes by command name (the shell's and the full browser's). */
const CHROMIUM = /chrom/i;
/** A round's line, as this bench prints it (and printed before `--before` existed). */
const ROUND_LINE = /^round \d+ (\S+): (\d+) ms a load in an open tab, (\d+) ms in a new context/;

type PerSet = Record<string, { tab: number[]; context: number[] }>;

type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

/** The bench's neighbours seeded, and a member logged in: the state each of its contexts starts with. */
export async function memberState(h: Harness, email: string): Promise<StorageState> {
  await seedNeighbours("bench");
  const { page, context } = await h.newPage("phone");
  await registerAndLogIn(page, h.origin, email);
  const state = await context.storageState();
  await context.close();
  return state;
}

/** A new context on a phone, logged in with `storageState`, and its tab. */
export async function openPhone(browser: Browser, origin: string, storageState: StorageState) {
  const context = await browser.newContext({
    viewport: VIEWPORTS.phone,
    isMobile: true,
    hasTouch: true,
    baseURL: origin,
    serviceWorkers: "block",
    storageState,
  });
  return { context, page: await context.newPage() };
}

/** A screen loaded as the tests load it: the navigation, then its islands hydrated. */
export async function loadScreen(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitHydrated(page);
}

/** Every round in this process: this checkout's app, harness and Chromium. */
async function measureHere(perSet: PerSet, loads: number[]): Promise<void> {
  const h = await startHarness({ ownBrowser: true, limitMs: 3_600_000 });
  try {
    const storageState = await memberState(h, "bench-loads@example.com");
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, extra] of Object.entries(SETS)) {
        const browser: Browser = await chromium.launch({
          executablePath: chromiumPath(),
          args: [...CHROMIUM_FLAGS, ...extra],
        });
        const open = () => openPhone(browser, h.origin, storageState);
        const load = loadScreen;
        // A first load outside the figures: the browser's own start is not a page load.
        const warm = await open();
        await load(warm.page, "/");
        await warm.context.close();
        const t0 = descendantsCpuMs(CHROMIUM);
        const tab = await open();
        for (let i = 0; i < 2; i++) for (const p of PATHS) await load(tab.page, p);
        await tab.context.close();
        const t1 = descendantsCpuMs(CHROMIUM);
        for (const p of PATHS) {
          const one = await open();
          await load(one.page, p);
          await one.context.close();
        }
        const t2 = descendantsCpuMs(CHROMIUM);
        await browser.close();
        loads.push(Deno.loadavg()[0]);
        const s = perSet[name] ??= { tab: [], context: [] };
        s.tab.push((t1 - t0) / (2 * PATHS.length));
        s.context.push((t2 - t1) / PATHS.length);
        console.log(
          `round ${round + 1} ${name}: ${s.tab.at(-1)!.toFixed(0)} ms a load in an open tab, ${
            s.context.at(-1)!.toFixed(0)
          } ms in a new context (load ${loadAverageText()})`,
        );
      }
    }
  } finally {
    await h.close();
  }
}

/**
 * Each round in a process of its own per copy, the copies' order swapped every round: this
 * checkout's bench and DIR's, one round each, read from the lines they print.
 */
async function measureBeside(dir: string, here: PerSet, there: PerSet, loads: number[]): Promise<void> {
  const copies: [string, PerSet][] = [[new URL("..", import.meta.url).pathname, here], [dir, there]];
  for (let round = 0; round < ROUNDS; round++) {
    for (const [cwd, into] of round % 2 ? [...copies].reverse() : copies) {
      const sets = Object.fromEntries(Object.entries(SETS).filter(([n]) => n !== "harness"));
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "bench/browser_loads.ts", "--rounds", "1", "--sets", JSON.stringify(sets)],
        cwd,
        // Its figures are read from its lines, never recorded by it.
        env: { BENCH_ROWS: "" },
        stdout: "piped",
        stderr: "inherit",
      }).output();
      const text = new TextDecoder().decode(out.stdout);
      const lines = text.split("\n").map((l) => l.match(ROUND_LINE)).filter((m) => !!m);
      if (!out.success || !lines.length) throw new Error(`the bench in ${cwd} failed:\n${text}`);
      for (const [, name, tab, context] of lines) {
        const s = into[name] ??= { tab: [], context: [] };
        s.tab.push(Number(tab));
        s.context.push(Number(context));
      }
      loads.push(Deno.loadavg()[0]);
      console.log(
        `round ${round + 1} ${cwd === dir ? "before" : "this checkout"}: ${lines.map((m) => m[0]).join("; ")}`,
      );
    }
  }
}

const median = (xs: number[]) => pct(xs, 0.5);
function rowsOf(perSet: PerSet): ResultRow[] {
  return Object.entries(perSet).flatMap(([name, s]) => [
    {
      bench: "browser loads",
      metric: `${name}: Chromium CPU a load, open tab`,
      unit: "ms",
      value: median(s.tab),
      better: "lower" as const,
    },
    {
      bench: "browser loads",
      metric: `${name}: Chromium CPU a load, new context`,
      unit: "ms",
      value: median(s.context),
      better: "lower" as const,
    },
  ]);
}

if (import.meta.main) {
  const loads = [Deno.loadavg()[0]];
  const perSet: PerSet = {}, beforeSet: PerSet = {};
  if (BEFORE) await measureBeside(BEFORE, perSet, beforeSet, loads);
  else await measureHere(perSet, loads);
  console.log("\n| copy | switches | CPU a load, open tab (ms) | CPU a load, new context (ms) | rounds |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const [copy, sets] of [["this checkout", perSet], ...(BEFORE ? [["before", beforeSet]] : [])] as const) {
    for (const [name, s] of Object.entries(sets)) {
      console.log(
        `| ${copy} | ${name} ${SETS[name].join(" ")} | ${median(s.tab).toFixed(0)} | ${
          median(s.context).toFixed(0)
        } | ${s.tab.length} |`,
      );
    }
  }
  await reportRowsBeside(NAME, rowsOf(perSet), BEFORE ? { dir: BEFORE, rows: rowsOf(beforeSet) } : null, {
    note: `Chromium's CPU a page load (headless shell, phone, ${PATHS.length} screens), ${ROUNDS} rounds${
      BEFORE ? ", each copy in a process of its own, alternating" : ""
    }; load ${Math.min(...loads).toFixed(1)} to ${
      Math.max(...loads).toFixed(1)
    } on ${navigator.hardwareConcurrency} cores`,
    load: [Math.min(...loads), Math.max(...loads)],
  });
  // The app's workers and the connections left to the process would keep it running.
  Deno.exit(0);
}
