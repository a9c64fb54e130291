/**
 * The remote lane's files (scripts/run_tests.ts `REMOTE_LANE`): each test file run on remote KV as
 * the lane runs it (`TEST_KV=remote`, a KV Connect test server of its own `--rtt` ms away,
 * scripts/kvConnect.ts), in a `deno test` process of its own, and per run the test process's CPU
 * (user + system, its waited-for children with it), the server's CPU (less its start) and the wall.
 * `--before DIR`: another copy of the repository (an earlier commit, its modules installed) runs the
 * same files in the same rounds, alternating which goes first; `--record` writes the means to
 * bench/results (bench/kit.ts `reportRowsBeside`).
 *
 *   deno run -A bench/remote_lane.ts [--files routes/api/games_test.ts,…] [--before DIR] [--rounds 2]
 *     [--rtt 5] [--record] [--name remote-lane]
 */

import { arg, loadAverageText, processCpuMs, reportRowsBeside, type ResultRow } from "./kit.ts";
import { startKvConnectProcess } from "../tests/remoteKv.ts";

const HERE = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const BEFORE = arg("before", "").replace(/\/$/, "");
const FILES = arg(
  "files",
  "routes/api/games_test.ts,routes/api/dungeon_test.ts,routes/api/identify_test.ts,routes/api/health_test.ts",
).split(",").filter(Boolean);
const ROUNDS = Number(arg("rounds", "2"));
const RTT = Number(arg("rtt", "5"));
const NAME = arg("name", "remote-lane");

/** CPU (ms) of this process's children it has waited for: fields cutime and cstime of /proc/self/stat. */
function childrenCpuMs(): number {
  const s = Deno.readTextFileSync("/proc/self/stat");
  const f = s.slice(s.lastIndexOf(")") + 2).split(" ");
  return (Number(f[13]) + Number(f[14])) * 10;
}

type Run = { testCpuS: number; serverCpuS: number; wallS: number };

/** One file in one copy: a server of its own, then the file's test process. */
async function runFile(dir: string, file: string): Promise<Run> {
  const server = await startKvConnectProcess({ rttMs: RTT, script: `${dir}/scripts/kvConnect.ts` });
  try {
    const s0 = processCpuMs(server.pid), c0 = childrenCpuMs(), t0 = performance.now();
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["test", "-A", "--no-check", file],
      cwd: dir,
      env: {
        TEST_KV: "remote",
        TEST_KV_SERVER: server.url,
        DENO_KV_ACCESS_TOKEN: Deno.env.get("DENO_KV_ACCESS_TOKEN") ?? "",
      },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const run = {
      testCpuS: (childrenCpuMs() - c0) / 1000,
      serverCpuS: (processCpuMs(server.pid) - s0) / 1000,
      wallS: (performance.now() - t0) / 1000,
    };
    if (!out.success) {
      const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
      throw new Error(`${file} failed in ${dir}:\n${text.slice(-4000)}`);
    }
    return run;
  } finally {
    await server.close();
  }
}

const runs: Record<"here" | "before", Map<string, Run[]>> = { here: new Map(), before: new Map() };
const loads: number[] = [Deno.loadavg()[0]];
for (let round = 1; round <= ROUNDS; round++) {
  for (const file of FILES) {
    const copies = (BEFORE ? ["here", "before"] as const : ["here"] as const).slice();
    if (round % 2 === 0) copies.reverse();
    for (const copy of copies) {
      const r = await runFile(copy === "here" ? HERE : BEFORE, file);
      const m = runs[copy];
      m.set(file, [...m.get(file) ?? [], r]);
      loads.push(Deno.loadavg()[0]);
      console.log(
        `round ${round} ${copy === "here" ? "this checkout" : "before"} ${file}: test process ` +
          `${r.testCpuS.toFixed(2)} s CPU, KV Connect server ${r.serverCpuS.toFixed(2)} s, wall ` +
          `${r.wallS.toFixed(1)} s (load ${loadAverageText()})`,
      );
    }
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
function rowsOf(m: Map<string, Run[]>): ResultRow[] {
  return [...m].flatMap(([file, rs]) => {
    const name = file.replace(/^.*\//, "").replace(/_test\.ts$/, "");
    const row = (what: string, v: number): ResultRow => ({
      bench: "remote lane",
      metric: `${name} on remote KV (${RTT} ms): ${what}`,
      unit: "s",
      value: +v.toFixed(2),
      better: "lower",
    });
    return [
      row("test process CPU", mean(rs.map((r) => r.testCpuS))),
      row("KV Connect server CPU", mean(rs.map((r) => r.serverCpuS))),
      row("wall", mean(rs.map((r) => r.wallS))),
    ];
  });
}
const load: [number, number] = [Math.min(...loads), Math.max(...loads)];
await reportRowsBeside(NAME, rowsOf(runs.here), BEFORE ? { dir: BEFORE, rows: rowsOf(runs.before) } : null, {
  note: `The remote lane's files, each in a test process and a KV Connect server of its own, mean of ${ROUNDS} ` +
    `rounds${BEFORE ? ", alternating with the checkout before" : ""} (load ${load[0].toFixed(1)} to ` +
    `${load[1].toFixed(1)}, other helpers' work on the machine)`,
  load,
});
