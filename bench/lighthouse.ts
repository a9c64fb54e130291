/**
 * Lighthouse (mobile, its default simulated 4× CPU and slow 4G) on the signed-in grid and, beside
 * it, the public home: the grid of the viewer and 12 members around them with pictures (as the
 * tap bench seeds them), each page audited `--runs` times in a fresh Chromium, performance only.
 * Prints each run's score, LCP, FCP, TBT, main-thread work, unused JavaScript and whether the back/
 * forward cache took the page, then the median and the spread, and the load meanwhile.
 *
 * Lighthouse is not a dependency of the app: it runs through `npx -y lighthouse@12.2.3` (npm's own
 * client), or `--lighthouse <path to its cli>` for a copy installed elsewhere.
 *
 * Lighthouse simulates the phone from the load's trace: each main-thread task's wall time, times
 * four. On a busy machine that wall time holds the time the renderer waited for a core, so the
 * blocking time and the score follow the machine's load more than the page. With `--cpu-time`,
 * each audit is also made again from the same trace with every task's time set to its thread's
 * CPU time, printed as a second row ("cpu"): the figure to compare pages and changes by when the
 * machine is not quiet. It errs in the page's favour: a task's wait that is not for a core (a synchronous call to
 * another process, such as the first read of session storage) is left out too.
 *
 * Run: `deno run -A bench/lighthouse.ts [--runs 5] [--pages grid,home] [--keep DIR] [--cpu-time] [--record]`.
 */

import { arg, reportRows, type TraceEvent } from "./kit.ts";
import { startHarness } from "../tests/e2e/harness.ts";
import { seedNearby } from "../tests/e2e/tapToPhoto.ts";
import { createLoginToken } from "../kv/accounts.ts";

const RUNS = Number(arg("runs", "5"));
const PAGES = arg("pages", "grid,home").split(",");
const KEEP = arg("keep", "");
const LIGHTHOUSE = arg("lighthouse", "");
const CPU_TIME = Deno.args.includes("--cpu-time");
const CHROMIUM = Deno.env.get("CHROMIUM_PATH") ?? "/usr/bin/chromium";
/** The grid's goal on a quiet machine. */
const GOAL = 95;

/** One audit's figures. */
interface Run {
  score: number;
  lcp: number;
  fcp: number;
  tbt: number;
  si: number;
  mainThread: number;
  unusedJsKiB: number;
  bfcache: boolean;
  load: number;
}

/** The command that runs Lighthouse's cli, with `args`. */
function lighthouseCommand(args: string[]): Deno.Command {
  const [cmd, ...pre] = LIGHTHOUSE ? ["node", LIGHTHOUSE] : ["npx", "-y", "lighthouse@12.2.3"];
  return new Deno.Command(cmd, {
    args: [...pre, ...args],
    env: { CHROME_PATH: CHROMIUM },
    stdout: "piped",
    stderr: "piped",
  });
}

/**
 * The trace with each top-level task on each thread shrunk to its thread's CPU time, the events
 * inside it shrunk alike (so they still nest): what the load would have taken on a machine with
 * a core to spare for it.
 */
export function toCpuTime(events: TraceEvent[]): void {
  const byThread = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== "X" || e.dur === undefined) continue;
    const key = `${e.pid}:${e.tid}`;
    (byThread.get(key) ?? byThread.set(key, []).get(key)!).push(e);
  }
  for (const list of byThread.values()) {
    list.sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
    let task: TraceEvent | undefined, start = 0, end = 0, factor = 1;
    for (const e of list) {
      if (!task || e.ts >= end) {
        if (e.name !== "RunTask" || e.tdur === undefined || e.dur! <= 0) {
          task = undefined;
          continue;
        }
        task = e, start = e.ts, end = e.ts + e.dur!, factor = Math.min(1, e.tdur / e.dur!);
      }
      e.ts = start + (e.ts - start) * factor;
      e.dur = e.dur! * factor;
    }
  }
}

/** The figures of one Lighthouse report. */
function figures(report: {
  // deno-lint-ignore no-explicit-any
  audits: Record<string, any>;
  categories: { performance: { score: number } };
  runtimeError?: { message: string };
}, load: number): Run {
  const a = report.audits;
  if (report.runtimeError) throw new Error(`lighthouse: ${report.runtimeError.message}`);
  return {
    score: Math.round(report.categories.performance.score * 100),
    lcp: a["largest-contentful-paint"].numericValue,
    fcp: a["first-contentful-paint"].numericValue,
    tbt: a["total-blocking-time"].numericValue,
    si: a["speed-index"].numericValue,
    mainThread: a["mainthread-work-breakdown"].numericValue,
    unusedJsKiB: (a["unused-javascript"].details?.overallSavingsBytes ?? 0) / 1024,
    bfcache: a["bf-cache"].score === 1,
    load,
  };
}

/**
 * Audits `url` once (with `cookie`, signed in) and reads its figures; with `--cpu-time`, also the
 * figures of the same load audited again from its trace in CPU time.
 */
async function audit(
  url: string,
  cookie: string | undefined,
  name: string,
  n: number,
): Promise<{ run: Run; cpu?: Run }> {
  const out = await Deno.makeTempFile({ prefix: "lighthouse-", suffix: ".json" });
  const gathered = CPU_TIME ? await Deno.makeTempDir({ prefix: "lighthouse-gather-" }) : undefined;
  const load = Deno.loadavg()[0];
  // The audit from the CPU-time trace must be asked with the same settings as the load was.
  const common = [
    url,
    "--only-categories=performance",
    "--output=json",
    `--output-path=${out}`,
    "--quiet",
    `--chrome-flags=--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking`,
    ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
  ];
  const run = async (args: string[]) => {
    const res = await lighthouseCommand(args).output();
    if (!res.success) {
      throw new Error(`lighthouse failed on ${url}: ${new TextDecoder().decode(res.stderr).slice(-2000)}`);
    }
  };
  try {
    await run([...common, ...(gathered ? [`-GA=${gathered}`] : [])]);
    const report = JSON.parse(await Deno.readTextFile(out));
    if (KEEP) await Deno.copyFile(out, `${KEEP}/${name}-${n}.json`);
    const result: { run: Run; cpu?: Run } = { run: figures(report, load) };
    if (gathered) {
      const traceFile = `${gathered}/defaultPass.trace.json`;
      const trace = JSON.parse(await Deno.readTextFile(traceFile));
      toCpuTime(trace.traceEvents);
      await Deno.writeTextFile(traceFile, JSON.stringify(trace));
      await run([...common, `-A=${gathered}`]);
      const cpuReport = JSON.parse(await Deno.readTextFile(out));
      if (KEEP) await Deno.copyFile(out, `${KEEP}/${name}-${n}-cpu.json`);
      result.cpu = figures(cpuReport, load);
    }
    return result;
  } finally {
    await Deno.remove(out).catch(() => {});
    if (gathered) await Deno.remove(gathered, { recursive: true }).catch(() => {});
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const spread = (xs: number[], digits = 0) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

const h = await startHarness({ limitMs: 60 * 60_000 });
const results: Record<string, Run[]> = {};
try {
  const s = await seedNearby();
  const { context, page } = await h.newPage("phone");
  await page.goto(`/login#token=${await createLoginToken(s.viewer.id)}`);
  await page.waitForURL((u) => u.pathname === "/");
  const cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  await context.close();
  // The grid once before the audits: the server's first render of it is not what a member waits for.
  await fetch(`${h.origin}/search/tile`, { headers: { cookie } }).then((r) => r.body?.cancel());
  const targets: Record<string, { url: string; cookie?: string }> = {
    grid: { url: `${h.origin}/search/tile`, cookie },
    home: { url: `${h.origin}/` },
  };
  // Rounds alternate the pages, so a change of load falls on each alike.
  for (let n = 1; n <= RUNS; n++) {
    for (const name of PAGES) {
      const t = targets[name];
      // Lighthouse now and then loses its trace on a busy machine (NO_NAVSTART): that run is made again.
      const both = await audit(t.url, t.cookie, name, n).catch((e) => {
        console.log(`${name} ${n}: ${String(e).slice(0, 200)}; again`);
        return audit(t.url, t.cookie, name, n);
      });
      for (const [row, r] of [[name, both.run], [`${name} cpu`, both.cpu]] as const) {
        if (!r) continue;
        (results[row] ??= []).push(r);
        console.log(
          `${row} ${n}: score ${r.score}, LCP ${r.lcp.toFixed(0)} ms, FCP ${r.fcp.toFixed(0)} ms, TBT ${
            r.tbt.toFixed(0)
          } ms, SI ${r.si.toFixed(0)} ms, main thread ${r.mainThread.toFixed(0)} ms, unused JS ${
            r.unusedJsKiB.toFixed(1)
          } KiB, bfcache ${r.bfcache ? "yes" : "no"} (load ${r.load.toFixed(2)})`,
        );
      }
    }
  }
} finally {
  await h.close();
}

const loads = Object.values(results).flat().map((r) => r.load);
console.log(
  `\nmedian (min–max) of ${RUNS} runs; load ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)}`,
);
for (const [name, runs] of Object.entries(results)) {
  const col = (k: keyof Run, d = 0) => spread(runs.map((r) => Number(r[k])), d);
  console.log(
    `${name}: score ${col("score")}, LCP ${col("lcp")} ms, FCP ${col("fcp")} ms, TBT ${col("tbt")} ms, main thread ${
      col("mainThread")
    } ms, unused JS ${col("unusedJsKiB", 1)} KiB, bfcache ${runs.filter((r) => r.bfcache).length}/${runs.length}`,
  );
}

const grid = results.grid, gridCpu = results["grid cpu"];
if (grid) {
  await reportRows("lighthouse", [
    {
      bench: "lighthouse",
      metric: "signed-in grid: Lighthouse performance score (mobile), median",
      unit: "points",
      value: median(grid.map((r) => r.score)),
      ...(results.home
        ? { peer: "the public home, same runs", peerValue: median(results.home.map((r) => r.score)) }
        : {}),
      goal: GOAL,
      better: "higher",
    },
    {
      bench: "lighthouse",
      metric: "signed-in grid: Largest Contentful Paint (Lighthouse mobile), median",
      unit: "ms",
      value: Math.round(median(grid.map((r) => r.lcp))),
      ...(results.home
        ? { peer: "the public home, same runs", peerValue: Math.round(median(results.home.map((r) => r.lcp))) }
        : {}),
      better: "lower",
    },
    ...(gridCpu
      ? [{
        bench: "lighthouse",
        metric: "signed-in grid: Lighthouse performance score (mobile) from each task's CPU time, median",
        unit: "points",
        value: median(gridCpu.map((r) => r.score)),
        ...(results["home cpu"]
          ? { peer: "the public home, same runs", peerValue: median(results["home cpu"].map((r) => r.score)) }
          : {}),
        goal: GOAL,
        better: "higher" as const,
      }, {
        bench: "lighthouse",
        metric: "signed-in grid: Total Blocking Time (Lighthouse mobile) from each task's CPU time, median",
        unit: "ms",
        value: Math.round(median(gridCpu.map((r) => r.tbt))),
        better: "lower" as const,
      }]
      : []),
  ], {
    note: `deno run -A bench/lighthouse.ts${CPU_TIME ? " --cpu-time" : ""}: ${RUNS} runs of ${
      PAGES.join(", ")
    }, alternating`,
    load: [Math.min(...loads), Math.max(...loads)],
  });
}
Deno.exit(0);
