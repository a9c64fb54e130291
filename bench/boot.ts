/**
 * What a process pays to start (decision 0243), measured from outside in fresh processes:
 * - an instance's start: `deno run -A main.ts` (one web process, its job workers on, on a KV file
 *   made at a first start not counted) from exec to its first answered request (GET /api/version):
 *   wall time, and the process's CPU (/proc) at that answer;
 * - a test process's start: `deno test -A --no-check` of a test file that only imports what the
 *   suite's files import (tests/api.ts; and tests/e2e/harness.ts with it, as a browser file) and
 *   runs one empty test: its wall and CPU (user + system, from /usr/bin/time);
 * - a few test files through the runner (scripts/run_tests.ts --no-check, as `deno task test`
 *   runs them, remote lane included): the whole run's wall and CPU, every process it started
 *   counted (/usr/bin/time).
 * `--before DIR`: another checkout (an earlier commit, `deno install` and its islands built there)
 * measured in the same rounds, the two alternating, the first of each round swapped every round.
 *
 *   deno run -A bench/boot.ts [--before DIR] [--rounds 3] [--starts 2] [--files a_test.ts,b_test.ts]
 *     [--no-runner] [--before-first] [--record] [--name boot]
 */

import { arg, cpuMs, loadAverageText, reportRowsBeside, type ResultRow } from "./kit.ts";

const HERE = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const BEFORE = arg("before", "").replace(/\/$/, "");
const ROUNDS = Number(arg("rounds", "3"));
/** Instance starts and test process starts per copy per round. */
const STARTS = Number(arg("starts", "2"));
const FILES = arg(
  "files",
  "domain/safety_test.ts,workers/push_test.ts,routes/api/auth_test.ts,routes/api/settings_test.ts",
).split(",");
const RUNNER = !Deno.args.includes("--no-runner");
/** `--before-first`: the earlier checkout goes first in odd rounds (a second run with the slots swapped). */
const BEFORE_FIRST = Deno.args.includes("--before-first");
const NAME = arg("name", "boot");
const TMP = await Deno.makeTempDir({ prefix: "bench-boot-" });

/** Each figure's samples, by copy. */
const figures = new Map<string, { unit: string; here: number[]; before: number[] }>();
function note(metric: string, unit: string, copy: "here" | "before", value: number) {
  const f = figures.get(metric) ?? { unit, here: [], before: [] };
  f[copy].push(value);
  figures.set(metric, f);
}

/** Runs `args` under /usr/bin/time in `cwd`: its wall and CPU (user + system, its waited-for children counted). */
async function timed(args: string[], cwd: string, env: Record<string, string> = {}) {
  const times = `${TMP}/time-${crypto.randomUUID()}`;
  const t0 = performance.now();
  const out = await new Deno.Command("/usr/bin/time", {
    args: ["-o", times, "-f", "%U %S", Deno.execPath(), ...args],
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const wallS = (performance.now() - t0) / 1000;
  const [user, sys] = (await Deno.readTextFile(times)).trim().split("\n").pop()!.split(" ").map(Number);
  if (!out.success) {
    console.log(new TextDecoder().decode(out.stdout).slice(-2000), new TextDecoder().decode(out.stderr).slice(-2000));
    throw new Error(`${args.join(" ")} failed in ${cwd}`);
  }
  return { wallS, cpuS: user + sys, stdout: new TextDecoder().decode(out.stdout) };
}

/** One instance started in `root` on `kvPath`: wall and CPU from exec to its first answered request. */
async function instanceStart(root: string, kvPath: string): Promise<{ wallS: number; cpuS: number }> {
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `--config=${root}/deno.json`, `${root}/main.ts`],
    cwd: root,
    env: {
      PORT: "0",
      WEB_INSTANCES: "1",
      KV_PATH: kvPath,
      LOG_REQUESTS: "0",
      DEV_OUTBOX_PRINT: "0",
      NO_COLOR: "1",
      NODE_ENV: "production",
      TILE_CACHE_DIR: `${TMP}/tiles`,
    },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let printed = "";
    let port: string | undefined;
    while (!(port = printed.match(/listening on http:\/\/localhost:(\d+)/)?.[1])) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the app in ${root} ended: ${printed}`);
      printed += value;
    }
    void (async () => {
      while (!(await reader.read()).done) { /* drain */ }
    })();
    for (;;) {
      const res = await fetch(`http://127.0.0.1:${port}/api/version`).catch(() => null);
      if (res) {
        await res.body?.cancel();
        if (res.ok) break;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    return { wallS: (performance.now() - t0) / 1000, cpuS: cpuMs(child.pid) / 1000 };
  } finally {
    child.kill("SIGKILL");
    await child.status;
  }
}

/** Trivial test files that import what the suite's API and browser files import from `root`. */
async function trivialTests(root: string, copy: string): Promise<{ api: string; browser: string }> {
  const api = `${TMP}/${copy}_api_test.ts`, browser = `${TMP}/${copy}_browser_test.ts`;
  await Deno.writeTextFile(api, `import "${root}/tests/api.ts";\nDeno.test("nothing", () => {});\n`);
  await Deno.writeTextFile(
    browser,
    `import "${root}/tests/api.ts";\nimport "${root}/tests/e2e/harness.ts";\nDeno.test("nothing", () => {});\n`,
  );
  return { api, browser };
}

const copies: ("here" | "before")[] = BEFORE ? ["here", "before"] : ["here"];
const rootOf = (c: "here" | "before") => c === "here" ? HERE : BEFORE;
const tests = { here: await trivialTests(HERE, "here"), before: BEFORE ? await trivialTests(BEFORE, "before") : null };
const kvOf = (c: string) => `${TMP}/${c}.kv`;
// A first start of each, not counted: the store made, Deno's caches for the checkout filled.
for (const c of copies) {
  await instanceStart(rootOf(c), kvOf(c));
  await timed(["test", "-A", "--no-check", `--config=${rootOf(c)}/deno.json`, tests[c]!.browser], rootOf(c));
}

const loads: number[] = [Deno.loadavg()[0]];
for (let round = 1; round <= ROUNDS; round++) {
  const order = (round % 2 === 1) !== BEFORE_FIRST ? copies : [...copies].reverse();
  for (let i = 0; i < STARTS; i++) {
    for (const c of order) {
      const s = await instanceStart(rootOf(c), kvOf(c));
      note("instance start, exec to first answer: wall", "s", c, s.wallS);
      note("instance start, exec to first answer: CPU", "s", c, s.cpuS);
      for (const kind of ["api", "browser"] as const) {
        const t = await timed(
          ["test", "-A", "--no-check", `--config=${rootOf(c)}/deno.json`, tests[c]![kind]],
          rootOf(c),
        );
        note(
          `test process start (${kind === "api" ? "tests/api.ts" : "tests/api.ts + e2e harness"}): wall`,
          "s",
          c,
          t.wallS,
        );
        note(
          `test process start (${kind === "api" ? "tests/api.ts" : "tests/api.ts + e2e harness"}): CPU`,
          "s",
          c,
          t.cpuS,
        );
      }
      console.log(
        `round ${round} ${c}: start ${s.wallS.toFixed(2)} s wall, ${
          s.cpuS.toFixed(2)
        } s CPU (load ${loadAverageText()})`,
      );
    }
  }
  if (RUNNER) {
    for (const c of order) {
      const r = await timed(["run", "-A", "scripts/run_tests.ts", "--no-check", ...FILES], rootOf(c), {
        TMPDIR: TMP,
      });
      const total = r.stdout.match(/^ok \| (\d+) passed \| (\d+) failed/m);
      if (!total || total[2] !== "0") throw new Error(`the runner failed in ${rootOf(c)}:\n${r.stdout.slice(-3000)}`);
      const processes = r.stdout.match(/in (\d+) processes \(start, modules\)/)?.[1];
      note(`${FILES.length} test files through the runner: wall`, "s", c, r.wallS);
      note(`${FILES.length} test files through the runner: CPU`, "s", c, r.cpuS);
      const before = r.stdout.match(/before their first file: ([\d.]+) s CPU/)?.[1];
      if (before) note(`${FILES.length} test files through the runner: CPU before their first file`, "s", c, +before);
      console.log(
        `round ${round} ${c}: runner ${r.wallS.toFixed(1)} s wall, ${r.cpuS.toFixed(1)} s CPU, ${total[1]} passed, ` +
          `${processes ?? "?"} processes, ${before ?? "?"} s CPU before their first file (load ${loadAverageText()})`,
      );
    }
  }
  loads.push(Deno.loadavg()[0]);
}
await Deno.remove(TMP, { recursive: true }).catch(() => {});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
console.log(`\n| figure | ${copies.join(" | ")} |\n| --- | ${copies.map(() => "---").join(" | ")} |`);
for (const [metric, f] of figures) {
  console.log(
    `| ${metric} | ${
      copies.map((c) => `${median(f[c]).toFixed(2)} ${f.unit} (${f[c].map((x) => x.toFixed(2)).join(", ")})`).join(
        " | ",
      )
    } |`,
  );
}
const rowsOf = (c: "here" | "before"): ResultRow[] =>
  [...figures].map(([metric, f]) => ({
    bench: "boot",
    metric: `${metric} (median)`,
    unit: f.unit,
    value: +median(f[c]).toFixed(3),
    better: "lower" as const,
  }));
const load: [number, number] = [Math.min(...loads), Math.max(...loads)];
await reportRowsBeside(NAME, rowsOf("here"), BEFORE ? { dir: BEFORE, rows: rowsOf("before") } : null, {
  note: `What a process pays to start: medians of ${ROUNDS} rounds × ${STARTS}` +
    (BEFORE ? `, alternating with the checkout before (${BEFORE_FIRST ? "it" : "this one"} first in odd rounds)` : "") +
    ` (load ${load[0].toFixed(1)} to ${load[1].toFixed(1)}, other helpers' work and CI runs on the machine)`,
  load,
});
