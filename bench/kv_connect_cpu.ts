/**
 * The KV Connect test server's CPU (scripts/kvConnect.ts, as the suite's remote lane starts it: a
 * process of its own, `:memory:`, a database per test): a client in this process runs `--tests`
 * short "tests", each on a new database (sets, gets, getMany, lists, checked atomics, sums and a
 * watch that sees a few writes), and the server's process CPU (/proc) and this process's are noted
 * per round. `--before DIR`: another copy of the repository (an earlier commit, its modules
 * installed) whose server runs in the same rounds, alternating; `--record` writes the figures to
 * bench/results (bench/kit.ts `reportRowsBeside`).
 *
 *   deno run -A bench/kv_connect_cpu.ts [--before DIR] [--rounds 3] [--tests 40] [--rtt 5]
 *     [--server-flags "--cpu-prof"] [--record] [--name kv-connect-cpu]
 */

import { arg, loadAverageText, processCpuMs, reportRowsBeside, type ResultRow } from "./kit.ts";
import { startKvConnectProcess } from "../tests/remoteKv.ts";

const BEFORE = arg("before", "");
const HERE = new URL("../scripts/kvConnect.ts", import.meta.url).pathname;
const ROUNDS = Number(arg("rounds", "3"));
const TESTS = Number(arg("tests", "40"));
const RTT = Number(arg("rtt", "5"));
const NAME = arg("name", "kv-connect-cpu");
/** Deno flags for the server processes (`--cpu-prof`, say), split on spaces. */
const SERVER_FLAGS = arg("server-flags", "").split(" ").filter(Boolean);

/** A process's CPU seconds so far. */
const cpuS = (pid: number | "self") => processCpuMs(pid) / 1000;

/** One short test on a database of its own: what the app's kits do, in small. */
async function oneTest(url: string): Promise<void> {
  const kv = await Deno.openKv(url);
  try {
    const watched = kv.watch([["inbox", "a"], ["inbox", "b"]]).getReader();
    const seen = (async () => {
      let n = 0;
      while (n < 6) {
        const r = await watched.read();
        if (r.done) break;
        n++;
      }
    })();
    for (let j = 0; j < 20; j++) {
      await kv.set(["profile", j], { id: j, name: `member ${j}`, bio: "x".repeat(200), at: Date.now() });
    }
    for (let j = 0; j < 20; j++) await kv.get(["profile", j]);
    await kv.getMany([["profile", 1], ["profile", 2], ["missing"], ["profile", 3]]);
    for (let j = 0; j < 5; j++) await Array.fromAsync(kv.list({ prefix: ["profile"] }, { limit: 10 }));
    for (let j = 0; j < 5; j++) {
      const cur = await kv.get(["profile", j]);
      await kv.atomic().check(cur).set(["profile", j], { ...cur.value as object, j })
        .sum(["count"], 1n).set(["log", kv.commitVersionstamp()], j).commit();
    }
    for (let j = 0; j < 5; j++) await kv.set(["inbox", j % 2 ? "a" : "b"], j);
    await Promise.race([seen, new Promise((r) => setTimeout(r, 2000))]);
    await watched.cancel();
  } finally {
    kv.close();
  }
}

type Round = { serverCpuS: number; clientCpuS: number; wallS: number };
const rounds: Record<"here" | "before", Round[]> = { here: [], before: [] };
const loads: number[] = [Deno.loadavg()[0]];
for (let round = 1; round <= ROUNDS; round++) {
  // Alternating which goes first.
  const copies = (BEFORE ? ["here", "before"] as const : ["here"] as const).slice();
  if (round % 2 === 0) copies.reverse();
  for (const copy of copies) {
    const script = copy === "here" ? HERE : `${BEFORE.replace(/\/$/, "")}/scripts/kvConnect.ts`;
    const server = await startKvConnectProcess({ rttMs: RTT, script, denoFlags: SERVER_FLAGS });
    const s0 = cpuS(server.pid), c0 = cpuS("self"), t0 = performance.now();
    // Two at a time, as a test's calls sometimes overlap.
    for (let i = 0; i < TESTS; i += 2) {
      await Promise.all([oneTest(server.newDatabase()), oneTest(server.newDatabase())]);
    }
    const r = {
      serverCpuS: cpuS(server.pid) - s0,
      clientCpuS: cpuS("self") - c0,
      wallS: (performance.now() - t0) / 1000,
    };
    await server.close();
    rounds[copy].push(r);
    loads.push(Deno.loadavg()[0]);
    console.log(
      `round ${round} ${copy === "here" ? "this checkout" : "before"}: server ${r.serverCpuS.toFixed(2)} s CPU, ` +
        `client ${r.clientCpuS.toFixed(2)} s, wall ${r.wallS.toFixed(1)} s (load ${loadAverageText()})`,
    );
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
function rowsOf(rs: Round[]): ResultRow[] {
  const what = `${TESTS} short tests on new databases, ${RTT} ms away`;
  return [
    {
      bench: "kv connect cpu",
      metric: `server process CPU, ${what}`,
      unit: "s",
      value: +mean(rs.map((r) => r.serverCpuS)).toFixed(2),
      better: "lower",
    },
    {
      bench: "kv connect cpu",
      metric: `client process CPU, ${what}`,
      unit: "s",
      value: +mean(rs.map((r) => r.clientCpuS)).toFixed(2),
      better: "lower",
    },
  ];
}
const load: [number, number] = [Math.min(...loads), Math.max(...loads)];
await reportRowsBeside(NAME, rowsOf(rounds.here), BEFORE ? { dir: BEFORE, rows: rowsOf(rounds.before) } : null, {
  note:
    `The KV Connect test server's CPU, mean of ${ROUNDS} rounds${
      BEFORE ? ", alternating with the checkout before" : ""
    } ` +
    `(server ${rounds.here.map((r) => r.serverCpuS.toFixed(2)).join(", ")}` +
    (BEFORE ? `; before ${rounds.before.map((r) => r.serverCpuS.toFixed(2)).join(", ")}` : "") +
    `; load ${load[0].toFixed(1)} to ${load[1].toFixed(1)}, other helpers' work on the machine)`,
  load,
});
