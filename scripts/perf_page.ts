/**
 * Writes docs/performance.md from the benches' results, so the page is never typed by hand.
 *
 * Each file `bench/results/*.json` is one run of one or more benches:
 *
 * ```ts
 * {
 *   date: string,            // ISO 8601 date or date-time of the run; runs are ordered by it
 *   note?: string,           // what the run was (a past run copied from notes, a variant, ...)
 *   machine: {
 *     cores: number,         // logical CPUs the run had
 *     memory: number | null, // total memory in MiB, null when not recorded
 *     load: number | [number, number] | null, // load average: one reading, or the lowest and highest seen
 *     ceiling?: number,      // optional: a bare `Deno.serve` JSON answer's requests/s in the same run
 *   },
 *   results: [{
 *     bench: string,         // the bench file's name: "http", "geo", "live", ...
 *     metric: string,        // what was measured, e.g. "GET /api/profile-briefs/nearest"
 *     unit: string,          // "req/s", "ms", "µs", "KB", "MiB", "s", "×", ...
 *     value: number,
 *     peer?: string,         // what the figure is compared with in the same run ("Redis 7 GEOSEARCH")
 *     peerValue?: number,    // the peer's figure, in the same unit
 *     goal?: number,         // the goal, in the same unit
 *     better: "higher" | "lower",
 *   }],
 * }
 * ```
 *
 * The page has one table per bench, a row per metric: the goal and whether the latest run meets
 * it, the latest figure, the peer's, their ratio (how many times better than the peer), and the
 * trend over every dated run that measured the metric. A table of runs gives each run's machine
 * and load average, since figures from a busier or slower machine are not comparable.
 *
 * Run: `deno task perf-page` (reads bench/results/, writes docs/performance.md).
 */

/** One measured figure of a run. */
export interface BenchResult {
  bench: string;
  metric: string;
  unit: string;
  value: number;
  peer?: string;
  peerValue?: number;
  goal?: number;
  better: "higher" | "lower";
}

/** One run: a results file. */
export interface BenchRun {
  date: string;
  note?: string;
  machine: { cores: number; memory: number | null; load: number | [number, number] | null; ceiling?: number };
  results: BenchResult[];
}

/** A run with the name of the file it came from. */
export interface NamedRun extends BenchRun {
  file: string;
}

/** Checks a parsed file's shape, naming the file and the field that is wrong. */
export function parseRun(file: string, data: unknown): NamedRun {
  const fail = (what: string): never => {
    throw new Error(`${file}: ${what}`);
  };
  if (typeof data !== "object" || data === null) fail("not an object");
  const run = data as Record<string, unknown>;
  if (typeof run.date !== "string" || Number.isNaN(Date.parse(run.date))) fail("date is not an ISO date");
  const machine = run.machine as Record<string, unknown> | undefined;
  if (!machine || typeof machine.cores !== "number") fail("machine.cores is not a number");
  if (!Array.isArray(run.results)) fail("results is not an array");
  (run.results as unknown[]).forEach((r, i) => {
    const x = r as Record<string, unknown>;
    for (const k of ["bench", "metric", "unit"]) {
      if (typeof x[k] !== "string") fail(`results[${i}].${k} is not a string`);
    }
    if (typeof x.value !== "number") fail(`results[${i}].value is not a number`);
    if (x.better !== "higher" && x.better !== "lower") fail(`results[${i}].better is not "higher" or "lower"`);
  });
  return { ...(run as unknown as BenchRun), file };
}

/** A figure as printed: thousands separated; one decimal from 10 to 1,000, two from 1 to 10, three below 1. */
export function figure(n: number): string {
  const digits = Math.abs(n) >= 1000 ? 0 : Math.abs(n) >= 10 ? 1 : Math.abs(n) >= 1 ? 2 : 3;
  return n.toLocaleString("en-US", { maximumFractionDigits: digits });
}

function withUnit(n: number, unit: string): string {
  return unit === "×" ? `${figure(n)}×` : `${figure(n)} ${unit}`;
}

/** How many times better than its peer a figure is (above 1: better), or null without a peer. */
export function ratio(r: BenchResult): number | null {
  if (r.peerValue === undefined || r.peerValue === 0 || r.value === 0) return null;
  return r.better === "higher" ? r.value / r.peerValue : r.peerValue / r.value;
}

/** Whether a figure meets its goal, or null without one. */
export function meets(r: BenchResult): boolean | null {
  if (r.goal === undefined) return null;
  return r.better === "higher" ? r.value >= r.goal : r.value <= r.goal;
}

/**
 * A run whose highest load average exceeded its cores: other work held the machine, so a goal it
 * missed is not judged by it (one it met still counts).
 */
function overloaded(run: BenchRun): boolean {
  const l = run.machine.load;
  const highest = l === null ? 0 : typeof l === "number" ? l : l[1];
  return highest > run.machine.cores;
}

function load(l: BenchRun["machine"]["load"]): string {
  if (l === null || l === undefined) return "not recorded";
  return Array.isArray(l) ? `${figure(l[0])} to ${figure(l[1])}` : figure(l);
}

function day(date: string): string {
  return date.slice(0, 10);
}

function cell(s: string): string {
  return s.replaceAll("|", "\\|");
}

/** The whole page, from runs in any order. */
export function renderPage(runs: NamedRun[]): string {
  const sorted = [...runs].sort((a, b) => Date.parse(a.date) - Date.parse(b.date) || a.file.localeCompare(b.file));
  const lines = [
    "# Performance",
    "",
    "Generated by `deno task perf-page` from `bench/results/*.json` (the format is in `scripts/perf_page.ts`); do not",
    "edit by hand. Figures move with the machine and its load: compare a figure with its peer in the same run, and",
    "read the runs table before comparing runs.",
    "",
  ];
  const benches = [...new Set(sorted.flatMap((r) => r.results.map((x) => x.bench)))].sort();
  for (const bench of benches) {
    lines.push(`## ${bench}`, "");
    lines.push("| metric | goal | latest | peer | ratio | trend |");
    lines.push("| --- | --- | --- | --- | --- | --- |");
    const metrics: string[] = [];
    for (const run of sorted) {
      for (const r of run.results) if (r.bench === bench && !metrics.includes(r.metric)) metrics.push(r.metric);
    }
    for (const metric of metrics) {
      const seen = sorted.flatMap((run) =>
        run.results.filter((r) => r.bench === bench && r.metric === metric).map((r) => ({ run, r }))
      );
      const { run, r } = seen[seen.length - 1];
      const ok = meets(r);
      const goal = r.goal === undefined
        ? "—"
        : `${r.better === "higher" ? "≥" : "≤"} ${withUnit(r.goal, r.unit)} (${
          ok ? "met" : overloaded(run) ? "not judged: load above the cores" : "not met"
        })`;
      const rat = ratio(r);
      const peer = r.peerValue === undefined ? "—" : `${r.peer ?? "peer"}: ${withUnit(r.peerValue, r.unit)}`;
      const trend = seen.map((s) => `${day(s.run.date)}: ${figure(s.r.value)}`).join(" → ");
      lines.push(
        `| ${cell(metric)} | ${goal} | ${withUnit(r.value, r.unit)} (${day(run.date)}, load ${
          load(run.machine.load)
        }) | ${cell(peer)} | ${rat === null ? "—" : `${figure(rat)}×`} | ${trend} |`,
      );
    }
    lines.push("");
  }
  lines.push("## Runs", "");
  lines.push("| date | file | cores | memory | load average | bare `Deno.serve` | note |");
  lines.push("| --- | --- | --- | --- | --- | --- | --- |");
  for (const run of sorted) {
    const m = run.machine;
    lines.push(
      `| ${day(run.date)} | ${run.file} | ${m.cores} | ${
        m.memory === null ? "not recorded" : `${figure(m.memory)} MiB`
      } | ${load(m.load)} | ${m.ceiling === undefined ? "—" : `${figure(m.ceiling)} req/s`} | ${
        cell(run.note ?? "")
      } |`,
    );
  }
  lines.push("");
  return lines.join("\n");
}

/** Reads every results file of a folder. */
async function readRuns(dir: URL): Promise<NamedRun[]> {
  const runs: NamedRun[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile || !e.name.endsWith(".json")) continue;
    runs.push(parseRun(e.name, JSON.parse(await Deno.readTextFile(new URL(e.name, dir)))));
  }
  return runs;
}

if (import.meta.main) {
  const root = new URL("../", import.meta.url);
  const runs = await readRuns(new URL("bench/results/", root));
  const out = new URL("docs/performance.md", root);
  await Deno.writeTextFile(out, renderPage(runs));
  const fmt = await new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", out.pathname] }).output();
  if (!fmt.success) throw new Error(new TextDecoder().decode(fmt.stderr));
  console.log(`docs/performance.md: ${runs.length} runs`);
}
