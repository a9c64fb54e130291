/**
 * The suite's CPU: the runner's own and its waited-for children's from /proc/self/stat, and every
 * descendant's by kind of process, sampled from /proc (Linux only; elsewhere null).
 */

/**
 * The CPU seconds (user and system) of this process and of every process it started and waited
 * for (`deno check`, the build, the `deno test` processes and what they waited for: the app's
 * workers, the browsers), from /proc/self/stat; null where there is no /proc (not Linux). Its
 * clock ticks are USER_HZ, 100 a second on every Linux the suite runs on.
 */
export function cpuSeconds(stat = readProcStat()): { self: number; children: number } | null {
  if (!stat) return null;
  // The fields after "pid (name) ": state is the first; utime, stime, cutime, cstime the 12th to 15th.
  const f = statFields(stat).map(Number);
  const [utime, stime, cutime, cstime] = f.slice(11, 15);
  if (![utime, stime, cutime, cstime].every(Number.isFinite)) return null;
  return { self: (utime + stime) / 100, children: (cutime + cstime) / 100 };
}

function readProcStat(pid: number | "self" = "self"): string | null {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/stat`);
  } catch {
    return null;
  }
}

/**
 * Each file's CPU seconds in processes whose files run one after another (a `deno test` process:
 * its shared isolate's files, then its files with isolates of their own): the processes `pids`
 * read from /proc at each file's start (`file`) and at the last one's end (`end`), each reading
 * their own user+system time (every thread: the in-process store's SQLite, the app's workers) and
 * what they waited for (an app instance a test started). What comes before the first file (Deno's
 * start, loading and evaluating the files' modules, which a shared isolate does for all of them
 * first) is `before`. Readings of a process that has ended (or without /proc) count as nothing.
 */
export function fileCpuMeter(pids: number[], read = (pid: number) => cpuSeconds(readProcStat(pid))) {
  const total = () => pids.reduce((n, pid) => n + ((c) => c ? c.self + c.children : 0)(read(pid)), 0);
  const files = new Map<string, number>();
  let current: string | null = null, ended = false, before = 0, last = total();
  const mark = (next: string | null) => {
    if (ended) return;
    const now = total();
    if (current === null) before += now - last;
    else files.set(current, (files.get(current) ?? 0) + now - last);
    current = next;
    last = now;
  };
  return {
    /** `file` starts: the one before it has ended. */
    file: (file: string) => mark(file),
    /** The last file has ended (the process's summary line): later readings are not a file's. */
    end() {
      mark(null);
      ended = true;
    },
    /** Each file's seconds (`cpu`), and those before the first file. */
    result: () => ({ cpu: files, before }),
  };
}

/**
 * The costliest files by CPU, in lines like the slowest tests': `  61.2 s CPU   40.1 s  ./file`, at
 * most `n`, each with its seconds of tests (`wall`, when known) and the part of its CPU that was
 * its shared browser's (`chromium`, when it had one).
 */
export function costliestLines(
  cpu: Map<string, number>,
  wall: Map<string, number>,
  n = 10,
  chromium = new Map<string, number>(),
): string[] {
  return [...cpu].sort((a, b) => b[1] - a[1]).slice(0, n).map(([file, s]) =>
    `${s.toFixed(1).padStart(7)} s CPU ${(wall.has(file) ? wall.get(file)!.toFixed(1) : "?").padStart(7)} s  ${file}` +
    (chromium.has(file) ? `  (Chromium ${chromium.get(file)!.toFixed(1)} s of it)` : "")
  );
}

/**
 * Prints the costliest files by CPU (each file's `cpu` in every process that ran it, with its shared
 * browser's `chromium`, named in its line) and the CPU before the processes' first files, and writes
 * every file's figures to `path`.
 */
export async function reportFileCpu(
  runs: readonly { cpu: Map<string, number>; chromium: Map<string, number>; before: number }[],
  wall: Map<string, number>,
  path: string,
): Promise<void> {
  const fileCpu = new Map<string, number>(), fileChromium = new Map<string, number>();
  const addTo = (m: Map<string, number>, f: string, sec: number) => m.set(f, (m.get(f) ?? 0) + sec);
  for (const r of runs) {
    for (const [f, sec] of r.cpu) addTo(fileCpu, f, sec);
    for (const [f, sec] of r.chromium) addTo(fileCpu, f, sec), addTo(fileChromium, f, sec);
  }
  if (!fileCpu.size) return;
  console.log(
    "\ncostliest files by CPU (their test process and what it waited for, a remote file's KV Connect server, " +
      "a browser file's shared Chromium):",
  );
  // A browser idle beside a file that loads no page (tenths of a second) is not named.
  const shown = new Map([...fileChromium].filter(([, sec]) => sec >= 0.1));
  for (const line of costliestLines(fileCpu, wall, 10, shown)) console.log(line);
  const before = runs.reduce((n, r) => n + r.before, 0);
  console.log(`before their first file: ${before.toFixed(1)} s CPU in ${runs.length} processes (start, modules)`);
  const chromiumSum = [...fileChromium.values()].reduce((n, s) => n + s, 0);
  console.log(`the shared browsers' part: ${chromiumSum.toFixed(1)} s CPU in ${fileChromium.size} files`);
  const rounded = (m: Map<string, number>) =>
    Object.fromEntries([...m].sort((a, b) => b[1] - a[1]).map(([f, s]) => [f, +s.toFixed(2)]));
  const all = { ...rounded(fileCpu), "(before the first file)": before, "(Chromium of it)": rounded(fileChromium) };
  await Deno.writeTextFile(path, JSON.stringify(all, null, 1))
    .then(() => console.log(`every file's CPU: ${path}`), () => {});
}

/** Seconds as `9m05s`. */
export function minutes(s: number): string {
  return `${Math.floor(Math.round(s) / 60)}m${String(Math.round(s) % 60).padStart(2, "0")}s`;
}

/**
 * The run's wall and CPU time in one line. The CPU is that of every process the run started, as
 * `cpuSampler` read it (`sampled`), and the runner's own. The part in processes that were waited
 * for (`cpu`) is given beside it: it leaves out Chromium's renderers and the KV Connect servers,
 * whose parents end before them. Without a sample, that part alone, named as such.
 */
export function timeLine(
  wallMs: number,
  cpu: { self: number; children: number } | null,
  sampled?: Map<string, number>,
): string {
  const wall = `time: ${minutes(wallMs / 1000)} wall`;
  if (!cpu) return wall;
  const waited = minutes(cpu.self + cpu.children);
  if (!sampled) return `${wall}, ${waited} CPU (user+sys of the runner and the processes it waited for)`;
  const all = [...sampled.values()].reduce((n, s) => n + s, cpu.self);
  return `${wall}, ${minutes(all)} CPU (user+sys of every process of the run, read from /proc; ` +
    `${waited} of it in the runner and the processes it waited for)`;
}

/**
 * What a process is, for the CPU breakdown: Chromium by its role (the headless shell named apart from
 * the full browser), Deno by what it runs, else its name.
 */
export function processKind(argv: string[]): string {
  // Chromium's children set their title: their arguments come back as one string.
  if (argv.length === 1 && argv[0].includes(" ")) argv = argv[0].split(" ");
  const exe = argv[0]?.split("/").pop() ?? "?";
  if (exe === "chromium" || exe === "chromium-headless-shell") {
    const type = argv.find((a) => a.startsWith("--type="))?.slice(7);
    return `${exe === "chromium-headless-shell" ? "headless shell" : "chromium"} ${type ?? "browser"}`;
  }
  if (exe === "deno") {
    if (argv[1] === "test") return "deno test";
    if (argv[1] === "check") return "deno check";
    const script = argv.find((a) => /\.ts$/.test(a))?.split("/").pop();
    return `deno ${script ?? argv[1] ?? ""}`.trim();
  }
  return exe || "?";
}

/**
 * The fields of a /proc stat line after "pid (name) " (the name may hold spaces and parentheses):
 * state is [0], the parent's pid [1], utime and stime [11] and [12], cutime and cstime [13] and
 * [14], starttime [19].
 */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** Every live process, read from /proc once (throws where there is no /proc): its stat fields and command name, by pid. */
function processTable(): Map<string, { fields: string[]; name: string }> {
  const all = new Map<string, { fields: string[]; name: string }>();
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const stat = Deno.readTextFileSync(`/proc/${e.name}/stat`);
      all.set(e.name, { fields: statFields(stat), name: stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")) });
    } catch { /* ended meanwhile */ }
  }
  return all;
}

/**
 * The CPU seconds of process `pid` and every live process below it, from one read of /proc: each
 * one's own and what it waited for, so a process that ended counts in the parent that reaped it (a
 * renderer in its zygote). For a tree whose processes are not waited for before it ends, as the
 * shared Chromium's (tests/e2e/browserServer.ts). Null when `pid` has ended or there is no /proc.
 */
export function treeCpuSeconds(pid: number): { self: number; children: number } | null {
  let all: Map<string, { fields: string[]; name: string }>;
  try {
    all = processTable();
  } catch {
    return null;
  }
  const root = all.get(String(pid));
  if (!root) return null;
  const out = { self: 0, children: 0 };
  for (const { fields: f } of [root, ...descendants(pid, all).values()]) {
    out.self += (Number(f[11]) + Number(f[12])) / 100;
    out.children += (Number(f[13]) + Number(f[14])) / 100;
  }
  return out;
}

/**
 * The live descendants of process `root` (this one unless given), from one read of /proc (Linux
 * only; throws where there is no /proc): each one's stat fields and command name, by pid.
 */
export function descendants(
  root = Deno.pid,
  all: Map<string, { fields: string[]; name: string }> = processTable(),
): Map<string, { fields: string[]; name: string }> {
  const me = String(root);
  const ours = new Map<string, { fields: string[]; name: string }>();
  for (const [pid, p] of all) {
    let parent: string | undefined = pid;
    for (let i = 0; i < 20 && parent && parent !== "0" && parent !== "1"; i++) {
      parent = all.get(parent)?.fields[1];
      if (parent === me) {
        ours.set(pid, p);
        break;
      }
    }
  }
  return ours;
}

/**
 * The CPU of every process this run started and all theirs, by kind, read from /proc once a
 * second (Linux only). The CPU line of `cpuSeconds` counts only processes that were waited for:
 * not Chromium's renderers (their zygote outlives the browser that started it) nor a KV Connect
 * test server (left to end with its process). This one sees every descendant while it lives, and
 * keeps each one's last reading (a process's last second may be missed).
 */
export function cpuSampler(): { stop(): Map<string, number> } | null {
  try {
    Deno.statSync("/proc/self/stat");
  } catch {
    return null;
  }
  const seen = new Map<string, { kind: string; cpu: number }>();
  const sample = () => {
    for (const [pid, { fields: f }] of descendants()) {
      // utime, stime: the 12th and 13th fields after the name; starttime (the 20th) tells a reused pid apart.
      const key = `${pid}:${f[19]}`, cpu = (Number(f[11]) + Number(f[12])) / 100;
      const known = seen.get(key);
      // A shell seen first may have become what it runs since (Debian's chromium is a script that execs it),
      // and a zygote seen first a renderer (forked from it, it has the zygote's title until it sets its own).
      if (known && known.kind !== "sh" && !known.kind.endsWith(" zygote")) known.cpu = Math.max(known.cpu, cpu);
      else {
        let argv: string[] = [];
        try {
          argv = Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").filter(Boolean);
          // Chromium starts its helpers as /proc/self/exe until they set their title: named by their binary.
          if (argv[0] === "/proc/self/exe") argv[0] = Deno.readLinkSync(`/proc/${pid}/exe`);
        } catch { /* ended meanwhile */ }
        seen.set(key, { kind: processKind(argv), cpu: Math.max(cpu, known?.cpu ?? 0) });
      }
    }
  };
  const timer = setInterval(sample, 1000);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const byKind = new Map<string, number>();
      for (const { kind, cpu } of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + cpu);
      return byKind;
    },
  };
}

/** The breakdown's line: `CPU by kind: chromium renderer 5m10s, deno test 3m02s, … (sampled total 11m40s)`. */
export function cpuByKindLine(byKind: Map<string, number>, self: number): string {
  const ms = minutes;
  const all = [...byKind.entries(), ["runner", self] as [string, number]].sort((a, b) => b[1] - a[1]);
  const total = all.reduce((n, [, s]) => n + s, 0);
  return `CPU by kind (every process, sampled from /proc): ${all.map(([k, s]) => `${k} ${ms(s)}`).join(", ")}; ` +
    `total ${ms(total)}`;
}
