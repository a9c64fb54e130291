/**
 * What the benches and the soak share: command-line arguments, percentiles, a seeded store of
 * members with sessions, and the app started as a subprocess on a KV file.
 */

import { closeKv, openKv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { importPositions } from "../kv/positions/mod.ts";
import type { BenchResult } from "../scripts/perf_page.ts";
import { type MemberPlan, writeMembers } from "../scripts/seeding.ts";
import { descendants, statFields } from "../scripts/runTests/cpu.ts";

/** The value of `--name value` or `--name=value` on the command line (or in `args`), else `fallback`. */
export function arg(name: string, fallback: string, args: string[] = Deno.args): string {
  const i = args.indexOf(`--${name}`);
  if (i >= 0 && args[i + 1]) return args[i + 1];
  const eq = args.find((a) => a.startsWith(`--${name}=`));
  return eq ? eq.slice(name.length + 3) : fallback;
}

/** The `p` quantile (0..1) of `xs`, NaN when empty. */
export const pct = (xs: number[], p: number) =>
  xs.length ? [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))] : NaN;

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A member of a seeded store: their profile and the cookie of a session. */
export interface Member {
  profileId: string;
  cookie: string;
}

/** Members three days old: no new-member limits. */
const established = () => Date.now() - 3 * 24 * 3_600_000;

/**
 * Seeds `n` established members (three days old, so no new-member limits) with a session each
 * into the KV file at `path` (scripts/seeding.ts, as `deno task seed` writes them), and closes it.
 */
export async function seedMembers(path: string, n: number, prefix = "bench"): Promise<Member[]> {
  await openKv(path);
  const { members } = await writeMembers(
    Array.from(
      { length: n },
      (_, i) => ({ email: `${prefix}-${i}@bench.invalid`, name: `${prefix} ${i}`, signIn: true }),
    ),
    { tsCreated: established(), sessionAs: "bench" },
  );
  closeKv();
  return members.map((m) => ({ profileId: m.profileId, cookie: m.cookie! }));
}

/**
 * Seeds the HTTP benches' city into the KV file at `path` (scripts/seeding.ts, as `deno task seed`
 * writes members): `members` members with a profile (birthdate, description), three days old,
 * placed within 0.3° around `home`; the first `viewers` are Pro (no daily like limit) with a
 * session each. Closes the store.
 */
export async function seedCity(
  path: string,
  o: { members: number; viewers: number; home: { lat: number; lon: number }; rand: () => number },
): Promise<{ ids: string[]; viewers: { id: string; cookie: string }[] }> {
  await openKv(path);
  const plans: MemberPlan[] = Array.from({ length: o.members }, (_, i) => ({
    email: `h${i}@bench.invalid`,
    name: `Member ${i}`,
    roles: i < o.viewers ? ["USER", "PRO"] : ["USER"],
    profile: { birthdate: "1990-05-01", description: "Coffee, hikes and old films." },
    signIn: i < o.viewers,
  }));
  // Drawn in member order, latitude then longitude (as `placeAround` draws).
  for (const p of plans) {
    p.position = { lat: o.home.lat + (o.rand() - 0.5) * 0.3, lon: o.home.lon + (o.rand() - 0.5) * 0.3, hide: false };
  }
  const { members } = await writeMembers(plans, { tsCreated: established(), sessionAs: "bench" });
  closeKv();
  return {
    ids: members.map((m) => m.profileId),
    viewers: members.flatMap((m) => m.cookie ? [{ id: m.profileId, cookie: m.cookie }] : []),
  };
}

/**
 * CPU time (user + system, ms) a process and its children (a supervisor's web processes) have used
 * so far, from /proc (Linux); NaN elsewhere.
 */
export function cpuMs(pid: number): number {
  const stat = (p: number | string) => Deno.readTextFileSync(`/proc/${p}/stat`).split(") ")[1].split(" ");
  try {
    let ticks = 0;
    for (const e of Deno.readDirSync("/proc")) {
      if (!/^\d+$/.test(e.name)) continue;
      try {
        const fields = stat(e.name);
        // fields[1] is the parent's pid; 11 and 12 user and system time in ticks of 10 ms (CLK_TCK 100).
        if (e.name === String(pid) || Number(fields[1]) === pid) ticks += Number(fields[11]) + Number(fields[12]);
      } catch { /* ended meanwhile */ }
    }
    return ticks * 10;
  } catch {
    return NaN;
  }
}

/** Places the profiles `ids` at random within `span` degrees around `home` (an override point, shown). */
export function placeAround(ids: string[], home: { lat: number; lon: number }, span: number, rand: () => number) {
  return importPositions(ids.map((id) => ({
    profileId: id,
    lat: home.lat + (rand() - 0.5) * span,
    lon: home.lon + (rand() - 0.5) * span,
    use: "OVERRIDE" as const,
    hide: false,
  })));
}

/** A process started from a Deno command line; resolves when it printed a line matching `re`. */
export async function spawn(args: string[], env: Record<string, string>, re: RegExp, cwd?: string) {
  const child = new Deno.Command(Deno.execPath(), { args, env, cwd, stdout: "piped", stderr: "inherit" }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let printed = "";
  while (!re.test(printed)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`process ended: ${printed}`);
    printed += value;
  }
  void (async () => {
    while (!(await reader.read()).done) { /* drain */ }
  })();
  return { child, match: printed.match(re)! };
}

/**
 * The app (`main.ts`) on the KV file at `kvPath`, on a free port, without its job workers, on
 * React's production build (as `deno task start` runs it; `NODE_ENV` in `env` says otherwise); with
 * `LIVE_PORT` in `env`, its live listener's origin too. `denoFlags` go to `deno run` (a CPU profile:
 * `--cpu-prof --cpu-prof-dir=<dir>`, written when the app exits); `root`: the app of another checkout.
 */
export async function startApp(
  kvPath: string,
  env: Record<string, string> = {},
  denoFlags: string[] = [],
  /** Another checkout of the repository to run the app of (a bench's "before"), from its folder with its deno.json. */
  root?: string,
) {
  const main = root
    ? [`--config=${root}/deno.json`, `${root}/main.ts`]
    : [new URL("../main.ts", import.meta.url).pathname];
  const { child, match } = await spawn(
    ["run", "-A", ...denoFlags, ...main],
    {
      PORT: "0",
      WEB_INSTANCES: "1",
      KV_PATH: kvPath,
      WORKERS: "0",
      LOG_REQUESTS: "0",
      DEV_OUTBOX_PRINT: "0",
      NO_COLOR: "1",
      // React's production build, as `deno task start` runs the app (decision 0196).
      NODE_ENV: "production",
      // Every simulated member connects from this machine's one address.
      MAX_OPEN_PER_ADDRESS: "1000000",
      MAX_FEEDS_PER_ADDRESS: "1000000",
      ...env,
    },
    env.LIVE_PORT ? /live sockets on port (\d+)/ : /listening on http:\/\/localhost:(\d+)/,
    // Another checkout runs from its own folder (its islands' build names files from there).
    root,
  );
  const printed = match.input ?? "";
  // With LIVE_PORT the pattern matched the live port; the main port was printed before it.
  const port = printed.match(/listening on http:\/\/localhost:(\d+)/)![1];
  return {
    child,
    origin: `http://127.0.0.1:${port}`,
    live: env.LIVE_PORT ? `http://127.0.0.1:${match[1]}` : "",
  };
}

/** Busy loops in `n` other processes (a machine whose cores are taken); `stop` ends them. */
export function burnCpu(n: number): { stop(): void } {
  const children = Array.from(
    { length: n },
    () => new Deno.Command(Deno.execPath(), { args: ["eval", "for (;;) {}"], stdout: "null", stderr: "null" }).spawn(),
  );
  return {
    stop() {
      for (const c of children) {
        try {
          c.kill("SIGKILL");
        } catch { /* gone */ }
      }
    },
  };
}

/** One figure of a run, as scripts/perf_page.ts reads it. */
export type ResultRow = BenchResult;

/**
 * Writes a run's figures to bench/results/<date>-<name>.json (the format of scripts/perf_page.ts),
 * with the machine's cores, memory and the load averages seen; returns the file's path.
 */
export async function recordResults(
  name: string,
  results: ResultRow[],
  o: { note: string; load: [number, number]; at?: Date },
): Promise<string> {
  const date = (o.at ?? new Date()).toISOString().replace(/\.\d+Z$/, "Z");
  const memory = Math.round(Deno.systemMemoryInfo().total / 1024 / 1024);
  const run = { date, note: o.note, machine: { cores: navigator.hardwareConcurrency, memory, load: o.load }, results };
  // A second run of the day gets its time in the name rather than replacing the first.
  let path = new URL(`./results/${date.slice(0, 10)}-${name}.json`, import.meta.url).pathname;
  if (await Deno.stat(path).then(() => true, () => false)) {
    path = path.replace(/\.json$/, `-${date.slice(11, 19).replaceAll(":", "")}.json`);
  }
  await Deno.writeTextFile(path, JSON.stringify(run, null, 2) + "\n");
  return path;
}

/**
 * Hands a bench's figures on: to `deno task bench` (bench/all.ts names a file of JSON lines in
 * BENCH_ROWS, and records the whole run in one results file), else with `--record` on the command
 * line to a results file of this bench alone. Otherwise the printed table is all.
 */
export async function reportRows(
  name: string,
  rows: ResultRow[],
  o: { note: string; load: [number, number]; at?: Date },
) {
  const to = Deno.env.get("BENCH_ROWS");
  if (to) {
    await Deno.writeTextFile(to, rows.map((r) => JSON.stringify(r) + "\n").join(""), { append: true });
  } else if (Deno.args.includes("--record")) {
    console.log(`recorded in ${await recordResults(name, rows, o)}`);
  }
}

/**
 * `reportRows` for a run measured beside an earlier checkout (`--before DIR`, in the same rounds):
 * the earlier one's figures as a run of their own named `<name>-before`, dated a second before this
 * run's so the page's trend reads before → after (left out under `deno task bench`, which records
 * only the checkout it runs), then this run's.
 */
export async function reportRowsBeside(
  name: string,
  rows: ResultRow[],
  before: { dir: string; rows: ResultRow[] } | null,
  o: { note: string; load: [number, number] },
) {
  if (before && !Deno.env.get("BENCH_ROWS")) {
    await reportRows(`${name}-before`, before.rows, {
      note: `${o.note}: the checkout before these changes (${before.dir}), in the same rounds as the next run`,
      load: o.load,
      at: new Date(Date.now() - 1000),
    });
  }
  await reportRows(name, rows, o);
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat (all its threads,
 * ended ones too; 10 ms resolution); NaN where there is no /proc.
 */
export function processCpuMs(pid: number | "self" = "self"): number {
  try {
    const f = statFields(Deno.readTextFileSync(`/proc/${pid}/stat`));
    return (Number(f[11]) + Number(f[12])) * 10; // utime, stime in ticks of 10 ms (USER_HZ 100)
  } catch {
    return NaN;
  }
}

/**
 * CPU time (ms) of this process's live descendants whose command name matches `name` (e.g.
 * Chromium's processes, which a bench starts through Playwright), with what they reaped of their
 * own children that ended (a renderer closed); NaN where there is no /proc.
 */
export function descendantsCpuMs(name: RegExp): number {
  try {
    let ms = 0;
    for (const { fields: f, name: comm } of descendants().values()) {
      // utime, stime, cutime, cstime in ticks of 10 ms (USER_HZ 100)
      if (name.test(comm)) ms += (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * 10;
    }
    return ms;
  } catch {
    return NaN;
  }
}

/**
 * Time (ms) the live threads of this process's descendants whose command name matches `name` spent
 * runnable but waiting for a core (see `processWaitMs`); NaN where there is no /proc.
 */
export function descendantsWaitMs(name: RegExp): number {
  try {
    let ms = 0;
    for (const [pid, { name: comm }] of descendants()) if (name.test(comm)) ms += processWaitMs(Number(pid)) || 0;
    return ms;
  } catch {
    return NaN;
  }
}

/**
 * Time a process's live threads spent runnable but waiting for a core (ms), summed from
 * /proc/<pid>/task/<tid>/schedstat (its second field, ns): what sharing the cores cost it. NaN
 * where the kernel does not keep it.
 */
export function processWaitMs(pid: number | "self" = "self"): number {
  try {
    let ns = 0;
    for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(Deno.readTextFileSync(`/proc/${pid}/task/${t.name}/schedstat`).split(" ")[1]);
      } catch { /* the thread ended */ }
    }
    return ns / 1e6;
  } catch {
    return NaN;
  }
}

/**
 * CPU time (ms) of each live thread of a process by the thread's name (threads of one name summed:
 * "deno" is the JavaScript thread, "sw-0" Deno KV's SQLite writer, "tokio-runtime-w" I/O, "V8
 * DefaultWorke" the collector's helpers), from /proc/<pid>/task/<tid>/stat; empty where there is no
 * /proc.
 */
export function threadCpuMs(pid: number | "self" = "self"): Map<string, number> {
  const out = new Map<string, number>();
  eachThread(pid, (dir) => {
    const st = Deno.readTextFileSync(`${dir}/stat`);
    const name = st.slice(st.indexOf("(") + 1, st.lastIndexOf(")"));
    const f = statFields(st);
    out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
  });
  return out;
}

/**
 * Calls `read` with the /proc directory of each live thread of process `pid`; a thread that ends
 * meanwhile is skipped, and nothing is read where there is no /proc.
 */
function eachThread(pid: number | "self", read: (dir: string) => void): void {
  try {
    for (const t of Deno.readDirSync(`/proc/${pid}/task`)) {
      try {
        read(`/proc/${pid}/task/${t.name}`);
      } catch { /* the thread ended */ }
    }
  } catch { /* no /proc */ }
}

/**
 * The I/O counts of each live thread of this process by the thread's name (threads of one name
 * summed; see `threadCpuMs`), from /proc/self/task/<tid>/io: `syscr` and `syscw` (system calls
 * that read and that wrote), `rchar` and `wchar` (their bytes), `read_bytes` and `write_bytes`
 * (what went to or came from the storage layer); empty where there is no /proc.
 */
export function threadIo(): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  eachThread("self", (dir) => {
    const comm = Deno.readTextFileSync(`${dir}/comm`).trim();
    const sum = out.get(comm) ?? {};
    for (const line of Deno.readTextFileSync(`${dir}/io`).trim().split("\n")) {
      const [k, v] = line.split(": ");
      sum[k] = (sum[k] ?? 0) + Number(v);
    }
    out.set(comm, sum);
  });
  return out;
}

/** The 1/5/15-minute load average as printed ("3.10 2.95 2.40"), or "unknown". */
export function loadAverageText(): string {
  try {
    return Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  } catch {
    return "unknown";
  }
}

/** One trace event, as Chromium writes it (the Lighthouse and grid-tasks benches read them). */
export interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  /** The thread's CPU time in the event, in µs (what the thread ran, not the time it waited for a core). */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: Record<string, unknown>; beginData?: Record<string, unknown> };
}

/**
 * Sets every thread of this process to `nice` (Linux keeps a nice value per thread; threads and
 * processes started later take their starter's). The soak's clients stand for members' phones,
 * which run on other machines: niced, they take what the server and the busy processes leave.
 */
export async function niceThisProcess(nice: number): Promise<void> {
  const threads = [...Deno.readDirSync("/proc/self/task")].map((e) => e.name);
  const out = await new Deno.Command("renice", { args: ["-n", String(nice), "-p", ...threads], stdout: "null" })
    .output();
  if (!out.success) throw new Error(`renice failed: ${new TextDecoder().decode(out.stderr)}`);
}

/** The store's events version (kv/events.ts: each commit with member events adds one) in the KV file at `path`. */
export async function eventsVersionIn(path: string): Promise<number> {
  const db = await Deno.openKv(path);
  try {
    return Number((await db.get<Deno.KvU64>(keys.eventsVersion())).value?.value ?? 0n);
  } finally {
    db.close();
  }
}
