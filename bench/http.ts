/**
 * The read path at HTTP speed: the app in a subprocess on a seeded local KV file,
 * driven by autocannon, each call beside a bare `Deno.serve` JSON answer (the ceiling) measured in
 * the same run, with the load average. Members call with their own session cookies and addresses
 * (TRUST_PROXY), so the per-account and per-address limits are not what is measured.
 *
 * The app runs as bench/serve.ts serves it, once per variant: the levers that can be
 * turned off (`KEPT_READS=0`: every session, account, block list and withdrawal read from KV,
 * kv/kept.ts) off, then on, in the same run, each on a copy of the same seeded store; and main.ts
 * itself on one process a core (`cores`, WEB_INSTANCES), beside a ceiling of as many bare servers
 * sharing one port. The ceilings (1 process and N) are measured in every round of every call.
 *
 * The variants' apps run at once and each call is measured in rounds that alternate them (the
 * median round is shown), with the server's CPU time per request (from /proc): on a shared
 * machine requests/s move with other load, CPU per request much less.
 *
 * Run: `deno run -A bench/http.ts [--members 10000] [--seconds 4] [--rounds 3] [--connections 50]
 * [--variants off,on,cores,noturns] [--cores N] [--addresses per-viewer|per-request] [--calls like,nearest] [--gzip]
 * [--cpu-prof DIR] [--record]`. `--cpu-prof` writes a V8 CPU profile of each bench/serve.ts variant's process
 * (its whole life: seeding is done by this process, so the profile is the calls) into DIR.
 */

import autocannon from "autocannon";
import { mulberry32 as rng } from "../kv/random.ts";
import { arg, cpuMs, reportRows, type ResultRow, seedCity, spawn } from "./kit.ts";

const MEMBERS = Number(arg("members", "10000"));
const SECONDS = Number(arg("seconds", "4"));
const CONNECTIONS = Number(arg("connections", "50"));
const VIEWERS = 500;
/** `--gzip`: calls accept gzip as browsers do (the answers are then compressed by the server). */
const GZIP = Deno.args.includes("--gzip");
/** Processes of the `cores` variant and of the second ceiling: one a core unless `--cores N`. */
const CORES = Number(arg("cores", String(navigator.hardwareConcurrency)));
/**
 * Where calls come from: each viewer from an address of their own (`per-viewer`, as members do), or
 * every call from a new address (`per-request`: each call then starts a new per-address count, one KV
 * write).
 */
const ADDRESSES = arg("addresses", "per-viewer");
/** Each variant: a column of the table, and the environment of its app process. */
const VARIANTS: Record<string, { label: string; env: Record<string, string> }> = {
  off: { label: "every read from KV, each write alone", env: { KEPT_READS: "0", GROUP_COMMIT: "0" } },
  on: { label: "reads kept, writes grouped (as main.ts serves)", env: {} },
  cores: { label: `main.ts on ${CORES} processes (WEB_INSTANCES)`, env: { WEB_INSTANCES: String(CORES) } },
  noturns: { label: "heavy views without turns (before 0133)", env: { HEAVY_VIEWS_AT_ONCE: "0" } },
};
/** `--cpu-prof DIR`: each bench/serve.ts app writes its CPU profile there when it is stopped. */
const CPU_PROF = arg("cpu-prof", "");
const RUN = arg("variants", "off,on,cores").split(",").filter((v) => v in VARIANTS);
const HOME = { lat: 40.7, lon: -74.0 };

const dir = await Deno.makeTempDir({ prefix: "http-bench-" });
const path = `${dir}/app.kv`;

// --- seed: members around one city with profiles; viewers with sessions, Pro (no daily like limit)
const rand = rng(5);
const { ids, viewers } = await seedCity(path, { members: MEMBERS, viewers: VIEWERS, home: HOME, rand });
console.log(`${MEMBERS.toLocaleString("en-US")} members seeded, ${VIEWERS} viewers with sessions`);

/** A process from `spawn` and the port it printed (the first group of `re`). */
async function listening(args: string[], env: Record<string, string>, re: RegExp) {
  const { child, match } = await spawn(args, env, re);
  return { child, port: Number(match[1]) };
}

interface Call {
  name: string;
  method?: string;
  path: () => string;
  body?: () => string;
  /** Another call driven at the same time (not counted), at `BESIDE_CONNECTIONS`: what it does to this one. */
  beside?: Call;
}

/** Connections of the load driven beside a call (`Call.beside`). */
const BESIDE_CONNECTIONS = 10;

async function drive(port: number, call: Call, seconds = SECONDS, connections = CONNECTIONS) {
  const beside = call.beside ? drive(port, call.beside, seconds, BESIDE_CONNECTIONS) : null;
  let n = 0;
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration: seconds,
    requests: [{
      setupRequest(req: Record<string, unknown>) {
        const v = viewers[n++ % viewers.length];
        return {
          ...req,
          method: call.method ?? "GET",
          path: call.path(),
          headers: {
            cookie: v.cookie,
            origin: `http://127.0.0.1:${port}`,
            "x-forwarded-for": ADDRESSES === "per-viewer"
              ? `10.1.${(n % viewers.length) >> 8}.${(n % viewers.length) & 255}`
              : `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            "content-type": "application/json",
            ...(GZIP ? { "accept-encoding": "gzip" } : {}),
          },
          ...(call.body ? { body: call.body().replace("$VIEWER", v.id) } : {}),
        };
      },
    }],
  });
  await beside;
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    requests: r.requests.total,
  };
}

/** Drives `call` at the processes `pids` listening on `port`; adds the servers' CPU time per request. */
async function measure(pids: number[], port: number, call: Call, seconds = SECONDS) {
  const cpu = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const before = cpu();
  const r = await drive(port, call, seconds);
  return { ...r, cpuUs: 1000 * (cpu() - before) / Math.max(1, r.requests) };
}

const pick = () => ids[VIEWERS + Math.floor(rand() * (ids.length - VIEWERS))];
const NEAREST: Call = { name: "GET /api/profile-briefs/nearest", path: () => "/api/profile-briefs/nearest" };
const BOUNDS: Call = {
  name: "GET /api/profile-briefs/by-bounds (800)",
  path: () => `/api/profile-briefs/by-bounds?latMin=40.62&latMax=40.78&lonMin=-74.1&lonMax=-73.9&size=800`,
};
/**
 * The map's own view (`/api/profile-briefs/map`, what the map asks: decision 0129): a box of about
 * 600 members, whose markers it shows, and the by-bounds box of about 3,500, past the profile cap.
 */
const MAP_VIEW: Call = {
  name: "GET /api/profile-briefs/map (600 in view)",
  path: () => `/api/profile-briefs/map?latMin=40.62&latMax=40.78&lonMin=-74.0&lonMax=-73.966`,
};
const MAP_VIEW_CROWDED: Call = {
  name: "GET /api/profile-briefs/map (3,500 in view: too many)",
  path: () => `/api/profile-briefs/map?latMin=40.62&latMax=40.78&lonMin=-74.1&lonMax=-73.9`,
};
const CALLS: Call[] = [
  { name: "GET /api/ping", path: () => "/api/ping" },
  { name: "GET /api/profile/{id}", path: () => `/api/profile/${pick()}` },
  {
    name: "PUT /api/profile-like",
    method: "PUT",
    path: () => "/api/profile-like",
    body: () =>
      JSON.stringify({
        likerProfileId: "$VIEWER",
        likedProfileId: pick(),
        likeType: rand() < 0.5 ? "LIKE" : "DISLIKE",
      }),
  },
  NEAREST,
  BOUNDS,
  { ...NEAREST, name: `nearest beside a map load (by-bounds 800, c=${BESIDE_CONNECTIONS})`, beside: BOUNDS },
  MAP_VIEW,
  MAP_VIEW_CROWDED,
  { ...NEAREST, name: `nearest beside the map's views (600 in view, c=${BESIDE_CONNECTIONS})`, beside: MAP_VIEW },
];

type Result = Awaited<ReturnType<typeof measure>>;
/** The issue's goals by call: requests/s at c=50 and p99 in ms. */
const GOALS: Record<string, { rps?: number; p99?: number }> = {
  "PUT /api/profile-like": { rps: 3000 },
  "GET /api/profile-briefs/by-bounds (800)": { rps: 1000, p99: 100 },
  [MAP_VIEW.name]: { rps: 1000, p99: 100 },
};
const ROUNDS = Number(arg("rounds", "3"));
/** `--calls like,nearest`: only the calls whose name holds one of these words. */
const ONLY = arg("calls", "").split(",").filter(Boolean);
const RUN_CALLS = CALLS.filter((c) => ONLY.length === 0 || ONLY.some((w) => c.name.includes(w)));
/** Per call and variant, the median of the rounds by requests/s (the rounds alternate variants, so load that comes and goes falls on all). */
const results: Record<string, Result[]> = {};
/** The ceiling in one process and in CORES processes on one port, measured in every round of every call. */
const CEILINGS = ["1", "N"] as const;
const ceilingRounds: Record<string, Result[]> = { "1": [], N: [] };
const apps: Record<string, { child: Deno.ChildProcess; port: number }> = {};
const bares: Record<string, { children: Deno.ChildProcess[]; port: number }> = {};
try {
  // The ceiling: a bare Deno.serve answering JSON, in processes of their own like the app (the N
  // processes share one port with reusePort, as main.ts's supervised instances do).
  const bareServer = (port: number) =>
    `Deno.serve({ port: ${port}, reusePort: true, hostname: "127.0.0.1", onListen: ({ port }) => console.log("port " + port) }, () => Response.json({ pong: true, ts: Date.now() }));`;
  const one = await listening(["eval", "--unstable-net", bareServer(0)], {}, /port (\d+)/);
  bares["1"] = { children: [one.child], port: one.port };
  const probe = Deno.listen({ port: 0 });
  const nPort = probe.addr.port;
  probe.close();
  const group = Array.from(
    { length: CORES },
    () =>
      new Deno.Command(Deno.execPath(), { args: ["eval", "--unstable-net", bareServer(nPort)], stdout: "null" })
        .spawn(),
  );
  bares.N = { children: group, port: nPort };
  for (let i = 0; i < 100; i++) {
    try {
      (await Deno.connect({ port: nPort, hostname: "127.0.0.1" })).close();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const ceilingCall = { name: "bare Deno.serve JSON (ceiling)", path: () => "/" };
  for (const c of CEILINGS) await drive(bares[c].port, ceilingCall, 2);
  const ceilingRound = async () => {
    for (const c of CEILINGS) {
      ceilingRounds[c].push(await measure(bares[c].children.map((p) => p.pid), bares[c].port, ceilingCall));
    }
  };

  // Every variant's app at once, each on its own copy of the seeded store (one SQLite file shared
  // by several processes refuses writes while another writes); each call measured in rounds that
  // alternate them.
  for (const variant of RUN) {
    const copy = `${dir}/${variant}`;
    await Deno.mkdir(copy);
    for await (const f of Deno.readDir(dir)) {
      if (f.isFile && f.name.startsWith("app.kv")) await Deno.copyFile(`${dir}/${f.name}`, `${copy}/${f.name}`);
    }
    apps[variant] = await listening(
      // The `cores` variant is main.ts itself, supervising its processes; the others bench/serve.ts.
      [
        "run",
        "-A",
        ...(CPU_PROF && variant !== "cores" ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF}`] : []),
        new URL(variant === "cores" ? "../main.ts" : "./serve.ts", import.meta.url).pathname,
      ],
      {
        PORT: "0",
        KV_PATH: `${copy}/app.kv`,
        WORKERS: "0",
        LOG_REQUESTS: "0",
        TRUST_PROXY: "1",
        NO_COLOR: "1",
        ...VARIANTS[variant].env,
      },
      /listening on http:\/\/localhost:(\d+)/,
    );
    results[variant] = [];
  }
  for (const call of RUN_CALLS) {
    const rounds: Record<string, Result[]> = Object.fromEntries(RUN.map((v) => [v, []]));
    for (const v of RUN) await drive(apps[v].port, call, 2); // warm up
    for (let r = 0; r < ROUNDS; r++) {
      await ceilingRound();
      for (const v of RUN) rounds[v].push(await measure([apps[v].child.pid], apps[v].port, call));
    }
    for (const v of RUN) results[v].push(median(rounds[v]));
    console.log(`${call.name}: done`);
  }

  const ceiling = median(ceilingRounds["1"]);
  const ceilingN = median(ceilingRounds.N);
  const [l1, l5, l15] = Deno.loadavg();
  console.log(
    `\n| call (c=${CONNECTIONS}; requests/s, latency, server CPU per request) | ${
      RUN.map((v) => VARIANTS[v].label).join(" | ")
    } |`,
  );
  console.log(`|---|${RUN.map(() => "---").join("|")}|`);
  // Each variant's share is of the ceiling with as many processes as it has.
  const ceilingOf = (v: string) => v === "cores" ? ceilingN : ceiling;
  console.log(
    `| bare Deno.serve JSON (ceiling; 1 process, and ${CORES} under "cores") | ${
      RUN.map((v) => cell(ceilingOf(v), ceilingOf(v).rps)).join(" | ")
    } |`,
  );
  RUN_CALLS.forEach((call, i) =>
    console.log(`| ${call.name} | ${RUN.map((v) => cell(results[v][i], ceilingOf(v).rps)).join(" | ")} |`)
  );
  console.log(
    `\n${
      MEMBERS.toLocaleString("en-US")
    } members, addresses ${ADDRESSES}, ${ROUNDS} rounds of ${SECONDS} s per call and variant (the median round), ${navigator.hardwareConcurrency} cores; load average ${
      l1.toFixed(2)
    } ${l5.toFixed(2)} ${l15.toFixed(2)}`,
  );
  // Requests/s of each call beside the bare ceiling with as many processes, and p99, per variant,
  // named as the page's earlier runs named them (so their trends go on).
  const rows: ResultRow[] = [];
  for (const v of RUN) {
    const suffix = (v === "on" ? "" : v === "cores" ? ` (${CORES} processes)` : ` (${VARIANTS[v].label})`) +
      (GZIP ? " (gzip)" : "");
    RUN_CALLS.forEach((call, i) => {
      const r = results[v][i], goal = GOALS[call.name];
      const short = call.beside
        ? (call.beside === MAP_VIEW ? "nearest beside map view" : "nearest beside map load")
        : call === MAP_VIEW
        ? "map view (600 in view)"
        : call === MAP_VIEW_CROWDED
        ? "map view (3,500 in view, too many)"
        : call.name.includes("by-bounds")
        ? "by-bounds-800"
        : call.name;
      rows.push({
        bench: "http",
        metric: short + suffix,
        unit: "req/s",
        value: Math.round(r.rps),
        peer: v === "cores" ? `bare Deno.serve, ${CORES} processes` : "bare Deno.serve",
        peerValue: Math.round(ceilingOf(v).rps),
        ...(goal?.rps ? { goal: goal.rps } : {}),
        better: "higher",
      });
      // No answer within the run: no latency to tell (autocannon reports 0).
      if (r.requests === 0) return;
      rows.push({
        bench: "http",
        metric: `${short.replace("GET /api/profile-briefs/", "")} p99${suffix}`,
        unit: "ms",
        value: r.p99,
        ...(goal?.p99 ? { goal: goal.p99 } : {}),
        better: "lower",
      });
    });
  }
  await reportRows("http", rows, {
    note: `bench/http.ts, ${MEMBERS} members, c=${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s (the median)${
      GZIP ? ", answers gzipped as browsers ask" : ""
    }`,
    load: [l1, Math.max(l1, l5, l15)],
  });
} finally {
  for (
    const app of [
      ...Object.values(apps),
      ...Object.values(bares).map((b) => ({ child: b.children[0] })),
      ...(bares.N?.children.slice(1) ?? []).map((child) => ({ child })),
    ]
  ) {
    try {
      // A profiled app writes its profile as it exits (bench/serve.ts exits on SIGINT).
      app.child.kill(CPU_PROF ? "SIGINT" : "SIGKILL");
    } catch { /* gone */ }
    await app.child.status;
  }
  await Deno.remove(dir, { recursive: true });
}

function median(rs: Result[]): Result {
  return [...rs].sort((a, b) => a.rps - b.rps)[Math.floor(rs.length / 2)];
}

/** requests/s, p99, the share of the ceiling, and any non-2xx answers. */
function cell(r: Result, ceiling: number): string {
  return `${Math.round(r.rps).toLocaleString("en-US")}/s (${
    (100 * r.rps / ceiling).toFixed(0)
  }%), p50 ${r.p50} ms, p99 ${r.p99} ms, ${Math.round(r.cpuUs)} µs CPU${r.non2xx ? `, ${r.non2xx} non-2xx` : ""}`;
}
