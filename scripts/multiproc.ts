/**
 * `deno task multiproc [--writes 2000] [--seed-members 30]`: many processes on one local KV file,
 * as docs/operations.md allows. Two web instances (`WORKERS=0`), one `deno task worker` and a
 * `deno task seed` run share one file while members register (their login mails are jobs for the
 * worker) and a burst of likes and messages goes to both instances at once. Then it checks:
 *
 * - no answer of the burst or of the registrations is a 5xx, and none is lost in transit;
 * - every acknowledged write is there, read back through the other instance;
 * - the seed run exits 0 with all its members;
 * - every job is done: the queue is empty and no job is a dead letter;
 * - counters and indexes agree with their records (scripts/chaos.ts `checkStoreFile`).
 *
 * Prints one line of figures (with how many store calls met the lock and waited) and exits 1 if
 * anything is off. tests/multiproc_test.ts runs a short version in `deno task test`.
 */

import { keys } from "../kv/keys.ts";
import { mulberry32 } from "../kv/random.ts";
import {
  call,
  checkStoreFile,
  freePort,
  inBatches,
  kill,
  type Member,
  missingReason,
  planBurst,
  registerMembers,
  send,
  type Server,
  startServer,
} from "./chaos.ts";

const ROOT = new URL("../", import.meta.url).pathname;

export interface MultiprocOptions {
  /** Writes in the burst, half likes and half messages, spread over both web instances. */
  writes: number;
  /** Members the seed run adds meanwhile (with their pictures). */
  seedMembers: number;
  seed?: number;
  log?: (line: string) => void;
}

export interface MultiprocResult {
  members: number;
  writes: number;
  acked: number;
  /** Answers 500 or above (burst and registrations). */
  serverErrors: string[];
  /** Requests with no answer. */
  failedRequests: number;
  missing: string[];
  inconsistent: string[];
  seedExit: number;
  seedLine: string;
  /** Jobs still queued or dead after the worker drained. */
  jobsLeft: string[];
  /** Lines "the store file is busy" printed by all processes: the waits the store handle made. */
  busyWaits: number;
  /** Lines of store errors that reached a log (a call that gave up, a worker failure). */
  storeErrors: string[];
  ms: number;
}

/** A process other than the server (worker, seed) on the file, its output kept in `logPath`. */
function spawnScript(script: string, args: string[], kvPath: string, logPath: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    env: { KV_PATH: kvPath, KV_URL: "", SMTP_URL: "", OTEL_DENO: "" },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const done = (async () => {
    const log = await Deno.open(logPath, { write: true, create: true, append: true });
    const write = new WritableStream<Uint8Array>({ write: (b) => void log.writeSync(b) });
    await Promise.allSettled([child.stdout.pipeTo(write), child.stderr.pipeTo(write)]);
    log.close();
  })();
  return { child, done };
}

/** One run: start everything on one file, register, burst while seeding, drain, check. */
export async function multiprocRun(opts: MultiprocOptions): Promise<MultiprocResult> {
  const t0 = performance.now();
  const seedNo = opts.seed ?? Date.now();
  const random = mulberry32(seedNo);
  const tag = seedNo.toString(36);
  const dir = await Deno.makeTempDir({ prefix: "multiproc-" });
  const kvPath = `${dir}/app.kv`;
  const log = (name: string) => `${dir}/${name}.log`;
  const client = Deno.createHttpClient({});
  const servers: Server[] = [];
  let worker: ReturnType<typeof spawnScript> | undefined;
  try {
    const web = { WORKERS: "0" };
    servers.push(await startServer(kvPath, freePort(), log("web-a"), web));
    servers.push(await startServer(kvPath, freePort(), log("web-b"), web));
    worker = spawnScript("workers/run.ts", [], kvPath, log("worker"));
    const [a, b] = servers;

    // The seed run starts first: its pictures' blobs are long writes the rest must wait out.
    const seeding = spawnScript(
      "scripts/seed.ts",
      ["--n", String(opts.seedMembers), "--seed", String(seedNo % 100_000), "--no-variants"],
      kvPath,
      log("seed"),
    );
    const members = Math.ceil((1 + Math.sqrt(1 + 2 * opts.writes)) / 2);
    const serverErrors: string[] = [];
    let people: Member[];
    try {
      people = await registerMembers(client, a.origin, members, tag);
    } catch (e) {
      serverErrors.push(`registration: ${e instanceof Error ? e.message : e}`);
      people = [];
    }
    const burst = planBurst(people, people.length ? opts.writes : 0, random, tag);
    let failedRequests = 0;
    const statuses = await inBatches(burst.map((w, i) => ({ w, i })), 64, async ({ w, i }) => {
      const origin = (i % 2 ? b : a).origin;
      try {
        const r = await send(client, origin, w);
        if (r.status >= 500) serverErrors.push(`${w.kind} ${r.status}: ${r.text.slice(0, 200)}`);
        return r.status;
      } catch {
        failedRequests++;
        return 0;
      }
    });
    const acked = burst.filter((_, i) => statuses[i] >= 200 && statuses[i] < 300);
    const seedStatus = await seeding.child.status;
    await seeding.done;
    const seedLog = await Deno.readTextFile(log("seed"));
    const seedLine = seedLog.split("\n").find((l) => l.startsWith("done in")) ?? seedLog.slice(-300);

    // Read back through the instance that did not take the write.
    const missing = (await inBatches(
      acked.map((w) => ({ w, i: burst.indexOf(w) })),
      20,
      ({ w, i }) => missingReason(client, (i % 2 ? a : b).origin, w),
    )).filter((m): m is string => m !== null);

    // The worker drains the queue (mail of the registrations, the seed's jobs if any are left).
    const jobsLeft: string[] = [];
    const until = performance.now() + 20_000;
    for (;;) {
      const db = await Deno.openKv(kvPath);
      jobsLeft.length = 0;
      try {
        for await (const e of db.list({ prefix: keys.jobsDue() })) jobsLeft.push(`due ${e.key.join("/")}`);
        for await (const e of db.list({ prefix: keys.jobsDead() })) {
          jobsLeft.push(`dead ${JSON.stringify(e.value).slice(0, 200)}`);
        }
      } finally {
        db.close();
      }
      if (jobsLeft.length === 0 || performance.now() > until) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const ping = await call(client, a.origin, "GET", "/api/ping");
    if (ping.status !== 200) serverErrors.push(`ping after the run: ${ping.status}`);

    for (const s of servers.splice(0)) await kill(s);
    worker.child.kill("SIGTERM");
    await worker.child.status;
    await worker.done;
    worker = undefined;

    const inconsistent = await checkStoreFile(kvPath);
    const logs = await Promise.all(["web-a", "web-b", "worker", "seed"].map((n) => Deno.readTextFile(log(n))));
    const lines = logs.join("\n").split("\n");
    const result: MultiprocResult = {
      members: people.length,
      writes: burst.length,
      acked: acked.length,
      serverErrors,
      failedRequests,
      missing,
      inconsistent,
      seedExit: seedStatus.code,
      seedLine,
      jobsLeft,
      busyWaits: lines.filter((l) => l.includes("the store file is busy")).length,
      storeErrors: lines.filter((l) => /database is locked|still met a busy store|job worker:/.test(l)).slice(0, 20),
      ms: performance.now() - t0,
    };
    if (!multiprocOk(result)) opts.log?.(`logs kept in ${dir}`);
    else await Deno.remove(dir, { recursive: true });
    return result;
  } finally {
    for (const s of servers) await kill(s);
    if (worker) {
      worker.child.kill("SIGKILL");
      await worker.child.status;
      await worker.done;
    }
    client.close();
  }
}

/** Did the run hold every promise? */
function multiprocOk(r: MultiprocResult): boolean {
  return r.serverErrors.length === 0 && r.failedRequests === 0 && r.missing.length === 0 &&
    r.inconsistent.length === 0 && r.seedExit === 0 && r.jobsLeft.length === 0 && r.storeErrors.length === 0;
}

/** A run as one line. */
export function describeRun(r: MultiprocResult): string {
  return `${r.writes} writes by ${r.members} members over two instances, with a worker and a seed run on one file: ` +
    `${r.acked} acknowledged, ${r.serverErrors.length} 5xx, ${r.failedRequests} unanswered, ` +
    `${r.missing.length} acknowledged missing, ${r.inconsistent.length} counters or indexes off, ` +
    `${r.jobsLeft.length} jobs left, seed exit ${r.seedExit} (${r.seedLine.trim()}), ` +
    `${r.busyWaits} busy bursts waited out, ${r.storeErrors.length} store errors logged (${
      (r.ms / 1000).toFixed(1)
    } s)`;
}

if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const i = Deno.args.indexOf(`--${name}`);
    return i >= 0 ? Number(Deno.args[i + 1]) : fallback;
  };
  const r = await multiprocRun({
    writes: arg("writes", 2000),
    seedMembers: arg("seed-members", 30),
    log: console.log,
  });
  console.log(describeRun(r));
  for (const m of [...r.serverErrors, ...r.missing, ...r.inconsistent, ...r.jobsLeft, ...r.storeErrors].slice(0, 30)) {
    console.log(`  ${m}`);
  }
  Deno.exit(multiprocOk(r) ? 0 : 1);
}
