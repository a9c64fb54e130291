/**
 * `deno task bench`: every bench in one go (cpu_per_request, answers, geo, position_writes, http, likes, live,
 * images, deck, map, tap, roundtrips, seed, pages), each in a
 * process of its own one after another, with the peers each bench runs beside the app in the same
 * run (Redis in geo, the bare `Deno.serve` ceiling at 1 and N processes in every round of http,
 * and its CPU per request beside the app's in cpu_per_request).
 * The load average is read every 5 s throughout; the figures the benches hand on (bench/kit.ts
 * `reportRows`) go to one bench/results/<date>-bench.json with the machine and the lowest and
 * highest load seen, and docs/performance.md is written again from all results.
 *
 * Run: `deno task bench [--only http,likes] [--quick]` (`--quick`: shorter runs of each, for a
 * try-out; their figures are noted as such). Each bench's own output is printed as it runs.
 */

import { arg, recordResults, type ResultRow } from "./kit.ts";

const QUICK = Deno.args.includes("--quick");
/** Each bench with its arguments: the full run, and the quick one. */
const BENCHES: Record<string, { full: string[]; quick: string[] }> = {
  cpu_per_request: { full: [], quick: ["--members", "3000", "--seconds", "2", "--rounds", "1"] },
  answers: { full: [], quick: ["--members", "3000", "--rounds", "3", "--answers", "20"] },
  geo: { full: [], quick: ["--n", "100000", "--queries", "500"] },
  position_writes: { full: [], quick: ["--n", "20000", "--ms", "2000", "--rounds", "1"] },
  http: { full: [], quick: ["--members", "3000", "--seconds", "2", "--rounds", "1"] },
  likes: { full: [], quick: ["--seconds", "2", "--rounds", "1"] },
  live: { full: [], quick: ["--streams", "1000", "--seconds", "5"] },
  images: { full: [], quick: [] },
  deck: { full: [], quick: ["--members", "5000", "--pages", "10"] },
  map: { full: [], quick: ["--n", "20000", "--queries", "100"] },
  tap: { full: [], quick: ["--taps", "4", "--rounds", "1"] },
  roundtrips: { full: [], quick: ["--partners", "5"] },
  seed: { full: [], quick: ["--n", "2000"] },
  pages: { full: [], quick: ["--pages", "20", "--rounds", "1"] },
  formatting: { full: [], quick: ["--texts", "500", "--rounds", "1"] },
  member_pages: { full: [], quick: ["--members", "1000", "--pages", "20", "--rounds", "1"] },
  browser_loads: { full: [], quick: ["--rounds", "1"] },
};
const only = arg("only", "").split(",").filter(Boolean);
const run = Object.keys(BENCHES).filter((b) => only.length === 0 || only.includes(b));

const loads: number[] = [Deno.loadavg()[0]];
const sampler = setInterval(() => loads.push(Deno.loadavg()[0]), 5_000);
const rowsFile = await Deno.makeTempFile({ prefix: "bench-rows-" });
const failed: string[] = [];
try {
  for (const name of run) {
    console.log(`\n## ${name}\n`);
    const args = QUICK ? BENCHES[name].quick : BENCHES[name].full;
    const status = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", new URL(`./${name}.ts`, import.meta.url).pathname, ...args],
      env: { BENCH_ROWS: rowsFile },
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).spawn().status;
    if (!status.success) failed.push(name);
  }
} finally {
  clearInterval(sampler);
}
const rows: ResultRow[] = (await Deno.readTextFile(rowsFile)).split("\n").filter(Boolean).map((l) => JSON.parse(l));
await Deno.remove(rowsFile);
const benched = [...new Set(rows.map((r) => r.bench))];
const file = await recordResults("bench", rows, {
  note: `deno task bench${QUICK ? " --quick (short runs)" : ""}: ${run.join(", ")}; figures from ${
    benched.join(", ") || "none"
  }${failed.length ? `; failed: ${failed.join(", ")}` : ""}`,
  load: [Math.min(...loads), Math.max(...loads)],
});
console.log(`\n${rows.length} figures in ${file}`);
const page = await new Deno.Command(Deno.execPath(), {
  args: ["run", "-A", new URL("../scripts/perf_page.ts", import.meta.url).pathname],
}).spawn().status;
if (failed.length || !page.success) {
  console.error(`failed: ${[...failed, ...(page.success ? [] : ["perf-page"])].join(", ")}`);
  Deno.exit(1);
}
