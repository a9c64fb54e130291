/**
 * What the main thread does while the signed-in grid loads: a Chromium trace of the grid (phone,
 * the tap bench's 12 members with pictures), loaded `--runs` times in a fresh page, and for each
 * load its tasks of 50 ms or more at Lighthouse's 4× CPU slowdown (the ones that count as blocking
 * time), each with what it ran: the HTML's parse, style and layout, which scripts it evaluated,
 * which timers, frames and React scheduler slices it ran, and any marks the page made in it
 * (`performance.mark`). A task's length is its thread's CPU time times 4, so the figures hold on a
 * busy machine, where wall times swing with the load (shown beside each, unscaled). Ends with the
 * median blocking time (the part of each task over 50 ms, summed, from the first paint on) and the
 * longest task.
 *
 * Run: `deno run -A bench/gridTasks.ts [--runs 3] [--all] [--every] [--profile] [--record]`: `--all` lists the
 * tasks before the first paint too, `--every` names every event under a task, `--profile` samples
 * the JavaScript and names the functions that ran longest in each task (by name with `E2E_MINIFY=0`).
 */

import { arg, reportRows, type TraceEvent } from "./kit.ts";
import { startHarness } from "../tests/e2e/harness.ts";
import { seedNearby } from "../tests/e2e/tapToPhoto.ts";
import { createLoginToken } from "../kv/accounts.ts";

const RUNS = Number(arg("runs", "3"));
/** The CPU slowdown Lighthouse's mobile audit simulates, applied to each task's CPU time. */
const CPU_RATE = 4;
const ALL = Deno.args.includes("--all");
/** `--every`: every event under a task is named, however short (to find where a task's time goes). */
const EVERY = Deno.args.includes("--every");
/** `--profile`: also samples the JavaScript run and prints the functions that took longest (with E2E_MINIFY=0, by name). */
const PROFILE = Deno.args.includes("--profile");

/** A short name for what an event under a task did, or undefined for one not worth naming. */
function label(e: TraceEvent): string | undefined {
  const d = e.args?.data ?? e.args?.beginData ?? {};
  const file = (u: unknown) => String(u ?? "").replace(/^.*\//, "").replace(/\?.*$/, "") || "inline";
  switch (e.name) {
    case "ParseHTML":
      return "parse HTML";
    case "Layout":
      return "layout";
    case "UpdateLayoutTree":
      return "style";
    case "Paint":
    case "PrePaint":
      return "paint";
    case "EvaluateScript":
      return `run ${file(d.url)}`;
    case "v8.evaluateModule":
      return "evaluate module";
    case "v8.compileModule":
    case "v8.compile":
      return "compile";
    case "TimerFire":
      return "timer";
    case "FireAnimationFrame":
      return "frame callback";
    case "FunctionCall":
      return `call ${file(d.url)}${d.functionName ? ` ${d.functionName}` : ""}`;
    case "EventDispatch":
      return `event ${d.type}`;
    case "MinorGC":
    case "MajorGC":
    case "V8.GCScavenger":
    case "MajorGC ":
      return "gc";
    default:
      // Anything else that took time is named as Chromium names it.
      return ((e.dur ?? 0) >= 5000 || EVERY) && e.name !== "RunTask" ? e.name : undefined;
  }
}

/** The grid's tasks in one load: each `{ start, ms, what }`, from the navigation's start. */
async function traceOnce(
  h: Awaited<ReturnType<typeof startHarness>>,
  cookies: Parameters<import("playwright-core").BrowserContext["addCookies"]>[0],
) {
  const context = await h.browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    serviceWorkers: "block",
  });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const cdp = PROFILE ? await context.newCDPSession(page) : undefined;
  if (cdp) {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 100 });
    await cdp.send("Profiler.start");
  }
  await h.browser.startTracing(page, {
    categories: [
      "toplevel",
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      "v8.execute",
      "v8",
      "blink.user_timing",
      "loading",
    ],
  });
  await page.goto(`${h.origin}/search/tile`, { waitUntil: "load" });
  await page.waitForFunction(() => document.querySelectorAll("[data-island]:not([data-hydrated])").length === 0, null, {
    timeout: 30_000,
  });
  await page.waitForTimeout(2000);
  const buf = await h.browser.stopTracing();
  const profile = cdp ? (await cdp.send("Profiler.stop")).profile as CpuProfile : undefined;
  await context.close();
  const events: TraceEvent[] = JSON.parse(new TextDecoder().decode(buf)).traceEvents;
  // The page's renderer main thread: the one whose navigation started the grid's document.
  const nav = events.find((e) =>
    e.name === "navigationStart" && String(e.args?.data?.documentLoaderURL ?? "").includes("/search/tile")
  );
  // Now and then the trace misses the navigation's start on a busy machine: that load is made again.
  if (!nav) return traceOnce(h, cookies);
  const main = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid);
  const fcp = main.find((e) => e.name === "firstContentfulPaint")?.ts ?? nav.ts;
  const tasks = main.filter((e) => e.name === "RunTask" && e.ph === "X" && e.ts >= nav.ts)
    .sort((a, b) => a.ts - b.ts);
  // The page's own marks (`performance.mark`), named under the task they fell in.
  const marks = main.filter((e) => e.cat.includes("blink.user_timing") && e.ph !== "X" && e.ph !== "b" && e.ph !== "e");
  const out: { start: number; ms: number; wall: number; what: string; afterFcp: boolean }[] = [];
  for (const t of tasks) {
    // A task's length is its thread's CPU time times the slowdown, as Lighthouse simulates a phone
    // from an unthrottled load: on a busy machine the wall time also holds the time the thread
    // waited for a core, which a phone with the page to itself does not. (Chromium's own
    // throttling counts as the thread's CPU time, so the page loads unthrottled.)
    const ms = (t.tdur ?? t.dur ?? 0) * CPU_RATE / 1000;
    if (ms < 50) continue;
    const end = t.ts + (t.dur ?? 0);
    const inside = main.filter((e) => e !== t && e.ts >= t.ts && e.ts < end);
    const by = new Map<string, number>();
    for (const e of inside) {
      const l = label(e);
      if (!l || e.ph !== "X") continue;
      by.set(l, (by.get(l) ?? 0) + (e.tdur ?? e.dur ?? 0) * CPU_RATE / 1000);
    }
    const hydrated = [...new Set(marks.filter((m) => m.ts >= t.ts && m.ts < end).map((m) => m.name))];
    if (profile) {
      hydrated.push(
        `functions: ${
          ranByFunction(profile, t.ts, end).slice(0, 6).map(([k, v]) => `${k} ${v.toFixed(0)}`).join(", ")
        }`,
      );
    }
    const what = [...by].sort((a, b) =>
      b[1] - a[1]
    ).slice(0, EVERY ? 20 : 6).map(([l, d]) => `${l} ${d.toFixed(0)}`).join(", ") +
      (hydrated.length ? `; ${hydrated.join(", ")}` : "");
    out.push({
      start: (t.ts - nav.ts) / 1000,
      ms,
      wall: (t.dur ?? 0) / 1000,
      what,
      afterFcp: t.ts + (t.dur ?? 0) > fcp,
    });
  }
  return { fcp: (fcp - nav.ts) / 1000, tasks: out };
}

/** The part of a CPU profile (CDP `Profiler.Profile`) read here. */
interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

/**
 * The functions that ran longest themselves in a CPU profile between `from` and `to` (trace
 * clock, µs), each with its file and line, in ms times the slowdown, longest first.
 */
function ranByFunction(profile: CpuProfile, from: number, to: number): [string, number][] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [], deltas = profile.timeDeltas ?? [];
  let at = profile.startTime;
  for (let i = 0; i < samples.length; i++) {
    at += deltas[i];
    if (at < from || at > to || i + 1 >= samples.length) continue;
    const f = byNode.get(samples[i])!.callFrame;
    if (f.functionName === "(idle)") continue;
    const key = `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\//, "")}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + deltas[i + 1] * CPU_RATE / 1000);
  }
  return [...self].sort((a, b) => b[1] - a[1]);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const h = await startHarness({ limitMs: 30 * 60_000 });
const blocking: number[] = [], longest: number[] = [], loads: number[] = [];
try {
  const s = await seedNearby();
  const { context, page } = await h.newPage("phone");
  await page.goto(`/login#token=${await createLoginToken(s.viewer.id)}`);
  await page.waitForURL((u) => u.pathname === "/");
  const cookies = await context.cookies();
  await context.close();
  for (let n = 1; n <= RUNS; n++) {
    const load = Deno.loadavg()[0];
    loads.push(load);
    const { fcp, tasks } = await traceOnce(h, cookies);
    const counted = tasks.filter((t) => ALL || t.afterFcp);
    const tbt = tasks.filter((t) => t.afterFcp).reduce((s, t) => s + t.ms - 50, 0);
    blocking.push(tbt);
    longest.push(Math.max(0, ...tasks.filter((t) => t.afterFcp).map((t) => t.ms)));
    console.log(`run ${n}: first paint ${fcp.toFixed(0)} ms, blocking ${tbt.toFixed(0)} ms (load ${load.toFixed(2)})`);
    for (const t of counted) {
      console.log(`  at ${t.start.toFixed(0)} ms: ${t.ms.toFixed(0)} ms (wall ${t.wall.toFixed(0)}): ${t.what}`);
    }
  }
} finally {
  await h.close();
}
console.log(
  `median of ${RUNS}: blocking ${median(blocking).toFixed(0)} ms, longest task ${
    median(longest).toFixed(0)
  } ms (4× CPU, tasks of 50 ms or more after the first paint)`,
);
await reportRows("gridTasks", [
  {
    bench: "gridTasks",
    metric: "signed-in grid: blocking time after the first paint, from each task's CPU time at 4×, median",
    unit: "ms",
    value: Math.round(median(blocking)),
    better: "lower",
  },
  {
    bench: "gridTasks",
    metric: "signed-in grid: longest task after the first paint, from its CPU time at 4×, median",
    unit: "ms",
    value: Math.round(median(longest)),
    goal: 50,
    better: "lower",
  },
], {
  note: `deno run -A bench/gridTasks.ts: ${RUNS} loads`,
  load: [Math.min(...loads), Math.max(...loads)],
});
Deno.exit(0);
