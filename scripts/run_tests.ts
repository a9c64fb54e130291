/**
 * The test suite as `deno task test` runs it: builds the islands once (tests/islands_build.ts),
 * then runs the files in slots side by side: DENO_JOBS slots for the files on the local store and
 * REMOTE_PROCESSES more for the remote lane (the API files again on remote KV), which go on with
 * local files once that lane is done. A slot runs `deno test` processes one after another, each over
 * the next batch of a queue kept longest first (`takeBatch`: the long files first, the batches
 * shrinking as the queue empties, so the slots end together); a slot keeps one Chromium for all its
 * browser files (tests/e2e/browserServer.ts). A process's shareable files share one isolate, the
 * others each have their own (scripts/runTests/shared.ts). A batch holds one kind of file: the browser
 * files run on React's production build but the accessibility walk (scripts/runTests/reactBuild.ts).
 * Beside them every test file is type-checked once; then the files that must run alone (SERIAL) run in one more process. Prints each file's results
 * as it ends, when each slot ended, the ten slowest tests, the ten costliest files by CPU (every file's kept in
 * $TMPDIR/lambda-test-cpu.json), the failed ones by name, the run's wall and CPU time and its CPU
 * by kind of process, and one total line in `deno test`'s own form (`ok | N passed | M failed
 * (…)`), which .ci/run reads. Exits non-zero when a test failed, a file did not type-check, or a
 * process did not finish its files.
 *
 * Arguments: files or folders to run (default: every test file), and flags passed on to
 * `deno test` (e.g. `--filter=name`). DENO_JOBS: how many local slots (default: the number of
 * cores, 2 to 4). Why processes and not `deno test --parallel`: a test file's environment variables
 * (Deno.env.set) and the harness's are the whole process's; files in one process never overlap.
 * E2E_SHARED_BROWSER=0: no shared Chromium. Its test processes get E2E_SHOTS=0 (no screenshot into
 * tests/e2e/screenshots/, which nothing reads) unless E2E_SHOTS is given. See
 * docs/decisions/0146-test-suite-parallel-shared-build.md, 0176-suite-shared-browser-cpu-by-kind.md,
 * 0184-suite-slots-and-batches.md, 0194-suite-takes-no-unread-screenshots.md,
 * 0201-test-files-share-one-isolate.md, 0215-suite-cpu-by-file-and-work-not-repeated.md and
 * 0220-test-members-made-in-the-store.md and 0300-suite-processes-node-modules-as-installed.md.
 */

import {
  cpuByKindLine,
  cpuSampler,
  cpuSeconds,
  fileCpuMeter,
  minutes,
  reportFileCpu,
  timeLine,
  treeCpuSeconds,
} from "./runTests/cpu.ts";
import {
  type Counts,
  failedTests,
  fileStarted,
  parseJunit,
  parseSummary,
  summaryLine,
  testEnded,
  type Timed,
} from "./runTests/output.ts";
import { testFiles } from "./runTests/files.ts";
import { reactBuildEnv } from "./runTests/reactBuild.ts";
import {
  installed,
  NODE_MODULES,
  NODE_MODULES_ENV,
  type SharedBrowser,
  startKvServer,
  startSharedBrowser,
} from "./runTests/services.ts";
import { entryModule, isEntryHeader, loadsTheApp, MARK, markedFile, ownIsolateReason } from "./runTests/shared.ts";

const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

/**
 * Files that must not run beside others: they judge time on a machine they expect quiet (page
 * budgets: LCP with CPU throttling), or change what every process on the machine sees: the two
 * machines' test (tests/two_machines_test.ts) adds and removes network links on the host, and
 * Chromium, told by the kernel that the network changed, fails the requests it has in flight
 * (`ERR_NETWORK_CHANGED`): a browser test beside it lost its page's scripts and never hydrated.
 * Its own namespaces, subnet and ports are its alone. Not here: the soak's short run (tests/soak_test.ts):
 * it takes a core on purpose and asserts that no message or receipt is lost and that the server's
 * CPU was counted, which a busier machine does not change (its latencies are judged by
 * `deno task soak`, run alone).
 */
export const SERIAL = new Set([
  "./tests/e2e/budgets_test.ts",
  "./tests/two_machines_test.ts",
]);

/**
 * The remote lane: files run once more, with the store on remote KV (TEST_KV=remote: a KV Connect
 * server 5 ms away, a database per test, tests/remoteKv.ts), first in REMOTE_PROCESSES slots of
 * their own beside the others: every API file (routes/api/) and the health spends' flush; the
 * browser journeys on remote KV are a file of their own (tests/e2e/remote_journeys_test.ts). Each
 * with its seconds on remote KV as measured on two cores, to order them until a run here has
 * measured them. Run when the suite runs them (every file, or these named); their times are kept
 * apart from the local runs'. See docs/decisions/0170-remote-kv-in-every-test-run.md.
 */
export const REMOTE_LANE: Record<string, number> = {
  "./kv/healthSpends_test.ts": 5,
  "./routes/api/account_test.ts": 24,
  "./routes/api/admin_test.ts": 2,
  "./routes/api/auth_test.ts": 16,
  "./routes/api/contact_test.ts": 1,
  "./routes/api/dungeon_test.ts": 44,
  "./routes/api/events_test.ts": 16,
  "./routes/api/games_arbitration_test.ts": 8,
  "./routes/api/games_pictures_test.ts": 20,
  "./routes/api/games_test.ts": 22,
  "./routes/api/health_store_file_test.ts": 12,
  "./routes/api/health_test.ts": 15,
  "./routes/api/hotOrNot_test.ts": 16,
  "./routes/api/identify_test.ts": 42,
  "./routes/api/likes_test.ts": 38,
  "./routes/api/login_throttle_test.ts": 20,
  "./routes/api/messages_delete_test.ts": 14,
  "./routes/api/messages_test.ts": 26,
  "./routes/api/messages_viewonce_test.ts": 5,
  "./routes/api/moderation_test.ts": 22,
  "./routes/api/notes_test.ts": 17,
  "./routes/api/notifications_test.ts": 24,
  "./routes/api/passkeys_test.ts": 2,
  "./routes/api/pictures_jobs_test.ts": 22,
  "./routes/api/pictures_manage_test.ts": 14,
  "./routes/api/pictures_test.ts": 24,
  "./routes/api/positions_map_test.ts": 46,
  "./routes/api/positions_test.ts": 70,
  "./routes/api/presence_test.ts": 7,
  "./routes/api/profiles_test.ts": 10,
  "./routes/api/reports_test.ts": 5,
  "./routes/api/safety_test.ts": 7,
  "./routes/api/secretChats_devices_test.ts": 9,
  "./routes/api/secretChats_pictures_test.ts": 9,
  "./routes/api/secretChats_test.ts": 15,
  "./routes/api/settings_test.ts": 38,
  "./routes/api/system_test.ts": 1,
};
/**
 * The remote lane's slots: its tests mostly wait for the store (5 ms a call), so two halve its
 * wall time for little more CPU; they then take local files like the others.
 */
const REMOTE_PROCESSES = 2;

/**
 * The fewest seconds of files a batch takes while files remain (decision 0208): each `deno test`
 * process costs a second or two of CPU before its first test (Deno, the app's modules, Playwright),
 * so the queue's tail goes in fewer, larger batches; at 40 s the slots still end within a batch of
 * one another (from 60 s on, a whole run's last slot ends later).
 */
export const LEAST_BATCH_S = 40;

/**
 * The fewest seconds of files a remote-lane batch takes (seconds on remote KV, mostly waiting for
 * the store). Its batches need not shrink as the local ones do: a remote slot goes on with local
 * files once the lane is done, and those even out the slots' ends. So the lane runs in about half as
 * many processes, each one fewer saving a Deno start and the app's modules loaded (about 1.5 s of
 * CPU).
 */
export const REMOTE_LEAST_BATCH_S = 150;

/**
 * The next batch a free slot runs as one `deno test` process, taken from the head of `queue` (the
 * files still to run, longest first; the batch is removed from it): its first file, then the next
 * ones while the batch stays within half a slot's share of the queue's time (the queue's seconds
 * over twice `slots`), and never less than `least` seconds (LEAST_BATCH_S) while files remain. So the long files
 * start first, each alone or nearly so, and the batches shrink as the queue empties: every slot ends
 * at about the same time, none with a long file or a long batch alone at the end (half a share
 * leaves room for the figures being off, as they are on a busy machine), and few processes are
 * started (each costs a Deno start; the slot's browser is kept). With `group`, a batch takes only
 * files of its first file's group (the files of other groups are passed over, left in the queue in
 * their order): one process runs one kind of file (the runner's kinds: browser files or not, on one React build).
 */
export function takeBatch(
  queue: string[],
  slots: number,
  weight: (f: string) => number,
  least = LEAST_BATCH_S,
  group: (f: string) => string = () => "",
): string[] {
  if (!queue.length) return [];
  const left = queue.reduce((n, f) => n + weight(f), 0);
  const share = Math.max(least, left / (2 * Math.max(1, slots)));
  const kind = group(queue[0]);
  const taken = [0];
  let load = weight(queue[0]);
  for (let i = 1; i < queue.length; i++) {
    if (group(queue[i]) !== kind) continue;
    if (load + weight(queue[i]) > share) break;
    load += weight(queue[i]), taken.push(i);
  }
  const batch = taken.map((i) => queue[i]);
  for (const i of taken.reverse()) queue.splice(i, 1);
  return batch;
}

/** `files`, longest first (by name among equals): the order a queue is taken in. */
export function longestFirst(files: string[], weight: (f: string) => number): string[] {
  return [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
}

/** Where each file's seconds from the last run are kept, to balance the next run's processes. */
const TIMINGS = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lambda-test-timings.json`;
/** Where every file's CPU seconds of the last run are kept (the run prints the ten costliest). */
const FILE_CPU = `${Deno.env.get("TMPDIR") ?? "/tmp"}/lambda-test-cpu.json`;

/** Each file's seconds as measured on a quiet 2-core machine, for a first run on a new machine. */
const MEASURED = new URL("../tests/timings.json", import.meta.url);

/** Where a file runs: on the local store, or again on remote KV (REMOTE_LANE). */
export type Lane = "local" | "remote";

/**
 * How long a file took last time here (else as measured): on remote KV as last measured there, else
 * REMOTE_LANE's figure; a browser test counts more than another when not known.
 */
function weigher(): (f: string, lane: Lane) => number {
  const read = (at: string | URL): Record<string, number> => {
    try {
      return JSON.parse(Deno.readTextFileSync(at));
    } catch {
      return {};
    }
  };
  const known = { ...read(MEASURED), ...read(TIMINGS) };
  return (f, lane) =>
    lane === "remote"
      ? known[`${f} on remote KV`] ?? REMOTE_LANE[f] ?? 10
      : known[f] ?? (f.startsWith("./tests/e2e/") ? 20 : 3);
}

/**
 * How long a test process may go without a test ending before it is stopped as stuck: past the
 * browser harness's own limit for its longest walk (8 minutes, then its bounded closing steps),
 * so only a test whose harness could not end it meets this.
 */
const STALL_MS = 15 * 60_000;

/**
 * One `deno test` process over `files`: its output printed a whole file at a time, its counts and
 * times, and each file's CPU (`cpu`: the process's and what it waited for, and the processes
 * `also` names, the slot's KV Connect server, between the file's start and the next one's) with
 * the CPU before its first file (`before`: Deno's start and the shared isolate's modules loaded);
 * and, apart, the CPU of the slot's shared `browser` (`chromium`: every process of its tree, which
 * nothing waits for before the slot ends), whose address the process is given (E2E_BROWSER_URL).
 * A process in which no test ends for STALL_MS is stopped (a failure, its stuck file named); the
 * files it had not started are returned as `unstarted`, to be run by another process.
 */
async function runProcess(
  label: string,
  files: string[],
  flags: string[],
  tmp: string,
  env: Record<string, string> = {},
  also: number[] = [],
  browser?: SharedBrowser | null,
): Promise<
  {
    counts: Counts | null;
    timed: Timed[];
    ok: boolean;
    tail: string;
    unstarted: string[];
    cpu: Map<string, number>;
    chromium: Map<string, number>;
    before: number;
  }
> {
  const junit = `${tmp}/${label}.xml`;
  // The shareable files in one isolate (scripts/runTests/shared.ts), the others each in its own.
  // Not under --filter: it filters the marker tests too, and a file's tests would be printed under another's name.
  const filtered = flags.some((f) => f.startsWith("--filter"));
  const shared = sharedMode === "0" || filtered ? [] : files.filter((f) => !ownIsolate.has(f));
  if (sharedMode === "reverse") shared.reverse();
  // The app's graph loaded with the process's own when a file loads the app, a lone file or one in its own isolate
  // too: a root of the process's graph, main.ts spares every isolate's import() of it Deno's repeats (decision 0249).
  const preload = files.some((f) => appLoaders.has(f)) ? ["./main.ts"] : [];
  const entry = shared.length >= 2 || preload.length ? `${tmp}/${label}.shared_test.ts` : null;
  if (entry) await Deno.writeTextFile(entry, entryModule(root, shared, preload));
  const specifiers = entry ? [entry, ...files.filter((f) => !shared.includes(f))] : files;
  let markers = 0;
  const browserEnv: Record<string, string> = browser ? { E2E_BROWSER_URL: browser.url } : {};
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "test",
      "-A",
      "--no-check",
      // node_modules as `deno install` left it (NODE_MODULES): no set-up of the folder at each graph Deno loads.
      ...NODE_MODULES,
      `--junit-path=${junit}`,
      ...flags.filter((f) => f !== "--no-check"),
      ...specifiers,
    ],
    cwd: root,
    // Screenshots nobody reads (tests/e2e/screenshots/) are not taken unless asked (decision 0194).
    env: { NO_COLOR: "1", E2E_SHOTS: Deno.env.get("E2E_SHOTS") ?? "0", ...NODE_MODULES_ENV, ...env, ...browserEnv },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  running.add(child);
  const meter = fileCpuMeter([child.pid, ...also]);
  const chromium = browser ? fileCpuMeter([browser.pid], treeCpuSeconds) : null;
  let block: string[] = [], summary: Counts | null = null, reported = false;
  const tail: string[] = [];
  const flush = () => {
    if (block.length) console.log(block.join("\n"));
    block = [];
  };
  const started: string[] = [];
  let lastEnded = performance.now(), stalled = false;
  const onLine = (line: string) => {
    // In the shared isolate a file starts at its marker test; the entry module's own header starts none.
    const marked = markedFile(line);
    if (marked) markers++, line = `running tests from ${marked} (in one isolate with ${shared.length - 1} more)`;
    if (marked && shared.length === 1) line = `running tests from ${marked}`;
    const header = entry !== null && isEntryHeader(line, entry);
    if (header) line = `[${label}] ${shared.length} file${shared.length === 1 ? "" : "s"} in one isolate`;
    const file = marked ?? (header ? null : fileStarted(line));
    if (file || header || testEnded(line)) lastEnded = performance.now();
    // A file's results are printed when the next file starts: lines of two processes never interleave.
    if (file || header) flush();
    if (file) started.push(file), meter.file(file), chromium?.file(file);
    let counts = parseSummary(line);
    if (counts) {
      meter.end();
      chromium?.end();
      // The marker tests are not tests: they leave the ignored count.
      counts = { ...counts, ignored: counts.ignored - markers };
      summary = counts;
      line = `[${label}] ${line.replace(/ \| \d+ ignored/, counts.ignored ? ` | ${counts.ignored} ignored` : "")}`;
    }
    if (/^ (ERRORS|FAILURES) $/.test(line)) reported = true;
    if (reported) tail.push(line);
    block.push(line);
  };
  const read = async (stream: ReadableStream<Uint8Array>) => {
    let rest = "";
    const text = new TextDecoder();
    for await (const bytes of stream) {
      const lines = (rest + text.decode(bytes, { stream: true })).split("\n");
      rest = lines.pop()!;
      lines.forEach(onLine);
    }
    if (rest) onLine(rest);
  };
  const guard = setInterval(() => {
    if (performance.now() - lastEnded < STALL_MS) return;
    clearInterval(guard);
    stalled = true;
    const stuck = `[${label}] no test ended in ${STALL_MS / 60_000} min in ${started.at(-1) ?? files[0]}: ` +
      "the process is stopped, its file failed; the files it had not started go to another process";
    tail.push(stuck);
    block.push(stuck);
    try {
      child.kill();
    } catch { /* it ended meanwhile */ }
  }, 5_000);
  const reading = Promise.all([read(child.stdout), read(child.stderr)]);
  const status = await child.status;
  clearInterval(guard);
  // A stopped process's own children (a browser it launched) may hold its output open.
  await (stalled ? Promise.race([reading, new Promise((r) => setTimeout(r, 5_000))]) : reading);
  running.delete(child);
  flush();
  let timed: Timed[] = [];
  try {
    timed = parseJunit(await Deno.readTextFile(junit)).filter((t) => !t.name.startsWith(MARK));
  } catch { /* the process ended before writing it */ }
  // A file's uncaught error ends the isolate it shares: the shared files that never started go to another process.
  // Without a marker seen, the entry did not load (its preload) or a --filter hid them (no entry then). Sent back,
  // they run in isolates of their own.
  const cut = !status.success && entry ? shared.filter((f) => !started.includes(f)) : [];
  cut.forEach((f) => ownIsolate.set(f, "left unstarted when a file beside it ended their shared isolate"));
  return {
    counts: summary,
    timed,
    ok: status.success && summary !== null && !stalled,
    tail: tail.join("\n"),
    unstarted: stalled ? files.filter((f) => !started.includes(f)) : cut,
    ...meter.result(),
    chromium: chromium?.result().cpu ?? new Map(),
  };
}

/** A remote-lane run with its tests' files named " on remote KV", apart from the same files' local times. */
function onRemoteKv<T extends { timed: Timed[]; cpu: Map<string, number>; chromium: Map<string, number> }>(
  r: T,
): T {
  const named = (m: Map<string, number>) => new Map([...m].map(([f, s]) => [`${f} on remote KV`, s]));
  return {
    ...r,
    timed: r.timed.map((t) => ({ ...t, file: `${t.file} on remote KV` })),
    cpu: named(r.cpu),
    chromium: named(r.chromium),
  };
}

/**
 * Beside the test processes: every file type-checked once (the processes skip it; a file that
 * does not check fails the run, and the processes still running are stopped). Before them, when a
 * browser or page test is among them, the islands built once (so no process waits on another's
 * build). The check does not hold the processes back: on a fresh clone it is the longest step
 * before them (about 24 s of CPU), and they need only the build. Each one's seconds are printed.
 */
function prepare(files: string[], noCheck: boolean): { checked: Promise<boolean>; built: Promise<void> } {
  const timed = async <T>(what: string, f: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const r = await f();
    console.log(`${what}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return r;
  };
  const checked = noCheck
    ? Promise.resolve(true)
    : timed("type check", async () =>
      (await new Deno.Command(Deno.execPath(), { args: ["check", "--quiet", ...files], cwd: root }).spawn().status)
        .success);
  const built = files.some((f) => f.startsWith("./tests/e2e/") || f.startsWith("./routes/pages/"))
    ? timed("islands build", async () => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["eval", `await (await import("${root}/tests/islands_build.ts")).sharedBuild();`],
        cwd: root,
      }).output();
      if (!out.success) console.log("the shared build failed; each test process will try it again");
    })
    : Promise.resolve();
  return { checked, built };
}

/**
 * SHARED_ISOLATE: `1` (default) runs a batch's shareable files in one isolate, `0` each file in its
 * own, `reverse` shares them loaded in reverse order (to see that none depends on loading first).
 */
const sharedMode = Deno.env.get("SHARED_ISOLATE") ?? "1";
/** The files that keep an isolate of their own, with why (scripts/runTests/shared.ts). */
const ownIsolate = new Map<string, string>();
/** The files that load the app (main.ts), read from their text (`loadsTheApp`). */
const appLoaders = new Set<string>();

/** The test processes running now, stopped when the type check fails. */
const running = new Set<Deno.ChildProcess>();

if (import.meta.main) {
  const started = performance.now();
  const paths: string[] = [], flags: string[] = [];
  for (const a of Deno.args) {
    let isPath = false;
    try {
      isPath = !a.startsWith("-") && !!Deno.statSync(`${root}/${a.replace(/^\.\//, "")}`);
    } catch { /* a flag's value */ }
    (isPath ? paths : flags).push(a);
  }
  const files = [...new Set((paths.length ? paths : ["."]).flatMap((p) => testFiles(root, p)))].sort();
  const jobs = Math.max(
    1,
    Number(Deno.env.get("DENO_JOBS")) || Math.min(4, Math.max(2, navigator.hardwareConcurrency)),
  );
  const tmp = await Deno.makeTempDir({ prefix: "lambda-tests-" });
  const total: Counts = { passed: 0, passedSteps: 0, failed: 0, failedSteps: 0, ignored: 0 };
  const add = (c: Counts) => {
    for (const k of Object.keys(total) as (keyof Counts)[]) total[k] += c[k];
  };
  const sampler = cpuSampler();
  const finish = (code: number): never => {
    const cpu = cpuSeconds(), byKind = sampler?.stop();
    console.log(timeLine(performance.now() - started, cpu, byKind));
    if (byKind && cpu) console.log(cpuByKindLine(byKind, cpu.self));
    console.log(summaryLine(total, performance.now() - started));
    Deno.removeSync(tmp, { recursive: true });
    Deno.exit(code);
  };

  await installed();
  const prepared = prepare(files, flags.includes("--no-check"));
  void prepared.checked.then((ok) => {
    if (ok) return;
    total.failed++;
    console.log("FAILED: the test files do not type-check (deno check above)");
    for (const child of running) child.kill();
    finish(1);
  });
  for (const f of files) {
    const text = Deno.readTextFileSync(`${root}/${f.slice(2)}`);
    const why = ownIsolateReason(f, text);
    if (why) ownIsolate.set(f, why);
    if (loadsTheApp(text)) appLoaders.add(f);
  }
  if (sharedMode !== "0" && ownIsolate.size) {
    console.log(`in isolates of their own: ${[...ownIsolate].map(([f, why]) => `${f} (${why})`).join(", ")}`);
  }
  const weight = weigher();
  const serial = files.filter((f) => SERIAL.has(f));
  // Two queues, longest first: the files on the local store, and the remote lane's on remote KV.
  const queues: Record<Lane, string[]> = {
    local: longestFirst(files.filter((f) => !SERIAL.has(f)), (f) => weight(f, "local")),
    remote: longestFirst(files.filter((f) => f in REMOTE_LANE), (f) => weight(f, "remote")),
  };
  const remoteSlots = queues.remote.length ? REMOTE_PROCESSES : 0;
  const slotCount = jobs + remoteSlots;
  console.log(
    `${files.length} test files: ${slotCount} processes at a time (DENO_JOBS=${jobs}` +
      (remoteSlots ? ` on the local store, ${remoteSlots} on remote KV first` : "") + ")" +
      (serial.length ? `, then ${serial.length} alone` : ""),
  );
  if (queues.remote.length) {
    console.log(`and ${queues.remote.length} of them again on remote KV (REMOTE_LANE)`);
  }
  // A slot that runs browser files keeps one Chromium for all of them (tests/e2e/browserServer.ts).
  const sharing = Deno.env.get("E2E_SHARED_BROWSER") !== "0";
  const isBrowserFile = (f: string) => f.startsWith("./tests/e2e/");
  // A local batch holds one kind of file: browser files or not, on one React build (decision 0248).
  const batchKind = (f: string) => `${isBrowserFile(f)} ${reactBuildEnv([f]).NODE_ENV}`;
  const withBrowser = async (label: string, g: string[], env: Record<string, string> = {}) => {
    const browser = sharing && g.filter(isBrowserFile).length >= 2 ? await startSharedBrowser(label) : null;
    try {
      return await runProcess(label, g, flags, tmp, env, [], browser);
    } finally {
      await browser?.stop();
    }
  };
  type Run = Awaited<ReturnType<typeof runProcess>>;
  const runs: Run[] = [];
  const slotEnds: string[] = [];
  /**
   * One slot: `deno test` processes one after another, each over the next batch of the lane it
   * prefers (then of the other, once that one is empty), until both queues are empty. Its shared
   * Chromium and its KV Connect server are started when a batch first needs them and kept for its
   * later batches. The remote slots start at once: their files need no islands build.
   */
  const slot = async (name: string, lanes: Lane[]) => {
    let browser: SharedBrowser | null | undefined;
    let kv: Awaited<ReturnType<typeof startKvServer>> | undefined;
    let n = 0;
    try {
      for (;;) {
        const lane = lanes.find((l) => queues[l].length);
        if (!lane) break;
        if (lane === "local") await prepared.built;
        const batch = lane === "local"
          ? takeBatch(queues.local, slotCount, (f) => weight(f, lane), LEAST_BATCH_S, batchKind)
          : takeBatch(queues.remote, remoteSlots || 1, (f) => weight(f, lane), REMOTE_LEAST_BATCH_S);
        batch.sort();
        if (!batch.length) continue;
        const label = `${name}.${++n}`;
        // React's production build where every file is a browser file but the accessibility walk (decision 0248).
        const env: Record<string, string> = reactBuildEnv(batch);
        if (lane === "remote") {
          if (kv === undefined) kv = await startKvServer(label);
          Object.assign(env, { TEST_KV: "remote" }, kv?.env);
        } else if (kv) {
          // The remote lane is done for this slot: its server is not kept idle beside the others.
          await kv.stop();
          kv = undefined;
        }
        // Tried once: a browser that did not start leaves each test to launch its own, as without it.
        if (sharing && browser === undefined && batch.some(isBrowserFile)) browser = await startSharedBrowser(label);
        const r = await runProcess(label, batch, flags, tmp, env, kv && lane === "remote" ? [kv.pid] : [], browser);
        // A stuck process's files not yet started go back to the queue's head.
        queues[lane].unshift(...r.unstarted);
        // Their times named apart (" on remote KV"): they are not the local runs' weights.
        runs.push(lane === "remote" ? onRemoteKv(r) : r);
      }
    } finally {
      await Promise.all([browser?.stop(), kv?.stop()]);
    }
    slotEnds.push(`${name} ${minutes((performance.now() - started) / 1000)} (${n} processes)`);
  };
  await Promise.all([
    ...Array.from({ length: jobs }, (_, i) => slot(`p${i + 1}`, ["local", "remote"])),
    ...Array.from({ length: remoteSlots }, (_, i) => slot(`r${i + 1}`, ["remote", "local"])),
  ]);
  console.log(`slots ended: ${slotEnds.join(", ")}`);
  if (serial.length) {
    await prepared.built;
    runs.push(await withBrowser("alone", serial, reactBuildEnv(serial)));
  }

  // The check ends long before the processes; a failed one has ended the run already.
  await prepared.checked;
  let ok = true;
  const timed: Timed[] = [];
  for (const r of runs) {
    timed.push(...r.timed);
    if (r.counts) add(r.counts);
    if (!r.ok) {
      ok = false;
      // A process that ended without its summary (a file that would not load, a crash) counts as a failure.
      if (!r.counts || r.counts.failed === 0) total.failed++;
    }
  }
  const failures = runs.map((r) => r.tail).filter(Boolean);
  if (failures.length) console.log(`\n${failures.join("\n\n")}`);

  console.log("\nslowest tests:");
  for (const t of [...timed].sort((a, b) => b.seconds - a.seconds).slice(0, 10)) {
    console.log(`${t.seconds.toFixed(1).padStart(7)} s  ${t.file}  ${t.name}`);
  }
  // Each file's time, for the next run's split (files not run this time keep theirs).
  const perFile: Record<string, number> = {};
  for (const t of timed) perFile[t.file] = (perFile[t.file] ?? 0) + t.seconds;
  // A file run in two processes (a stuck one's files run again) counts both, as its time does.
  await reportFileCpu(runs, new Map(Object.entries(perFile)), FILE_CPU);
  const failed = runs.flatMap((r) => failedTests(r.tail));
  if (failed.length) console.log(`\nfailed:\n${failed.map((f) => `  ${f}`).join("\n")}`);
  try {
    const known = JSON.parse(await Deno.readTextFile(TIMINGS).catch(() => "{}"));
    await Deno.writeTextFile(TIMINGS, JSON.stringify({ ...known, ...perFile }));
  } catch { /* only a hint */ }
  console.log("");
  finish(ok ? 0 : 1);
}
