/**
 * What one request costs the server: its CPU time per request answered (user + system of the app's
 * process, from /proc, over the requests it answered) and the bytes each answer takes on the wire,
 * for the calls members make most, each beside a bare `Deno.serve` JSON answer measured in the same
 * rounds (the ceiling: what any request costs this runtime on this machine). On a shared machine
 * requests/s move with other load; CPU per request much less, and its ratio to the bare server's
 * least of all, so the goals are those.
 *
 * The app is bench/serve.ts (main.ts's app in one process) on 10k members seeded as bench/http.ts
 * seeds them (kit.ts `seedCity`), 500 of them signed in, each calling from an address of their own
 * (TRUST_PROXY) with the headers a browser sends (`Accept-Encoding: gzip, deflate, br`; the "zstd accepted"
 * calls as current Chromium and Firefox send it, `zstd` named too), at c=50.
 * Each call is measured in rounds that alternate the bare server and the app (the median round).
 *
 * `--cpu-prof`: then each call is driven once more at an app (and the bare server) started with
 * `--cpu-prof`, and the samples of that load are summed up (bench/profile.ts) into
 * bench/results/profiles/<date>-<call>.md: where the time went, by part of the app (session,
 * limits, routing, validation, telemetry, headers, compression, the route's own work) and by
 * function, in µs per request.
 *
 * Run: `deno run -A bench/cpu_per_request.ts [--members 10000] [--seconds 3] [--rounds 3]
 * [--connections 50] [--calls floor,like] [--before DIR] [--cpu-prof [--cpu-prof-dir DIR]] [--record [--name NAME]]` (or through `deno task bench`).
 */

import autocannon from "autocannon";
import { mulberry32 as rng } from "../kv/random.ts";
import { arg, cpuMs, reportRowsBeside, type ResultRow, seedCity, spawn, threadCpuMs } from "./kit.ts";
import { type CpuProfile, type ProfileSummary, summariseProfile } from "./profile.ts";

const MEMBERS = Number(arg("members", "10000"));
const SECONDS = Number(arg("seconds", "3"));
const ROUNDS = Number(arg("rounds", "3"));
const CONNECTIONS = Number(arg("connections", "50"));
const PROFILE = Deno.args.includes("--cpu-prof");
/**
 * `--before DIR`: the app of another copy of the repository (an earlier commit, its modules
 * installed) measured in the same rounds, its figures recorded as a run of their own just before
 * this one's (so the page's trend reads before → after).
 */
const BEFORE = arg("before", "");
/** `--name NAME`: the results file's name with `--record` (`<date>-NAME.json`, and `NAME-before` for `--before`). */
const RESULTS_NAME = arg("name", "cpu");
/** `--cpu-prof-dir DIR`: the raw `.cpuprofile` files are kept there too (for Chrome DevTools). */
const KEEP_PROFILES = arg("cpu-prof-dir", "");
const VIEWERS = 500;
const HOME = { lat: 40.7, lon: -74.0 };
/** What a browser sends. */
const BROWSER_ENCODINGS = "gzip, deflate, br";
/** What current Chromium (123 on) and Firefox (126 on) send: Zstandard named too (Safari does not). */
const CURRENT_BROWSER_ENCODINGS = "gzip, deflate, br, zstd";

interface Call {
  /** A short name: the row's metric, and `--calls` picks by it. */
  name: string;
  method?: string;
  path: () => string;
  body?: () => string;
  /** Accept-Encoding sent (a browser's unless given). */
  encodings?: string;
  /** The goal in µs of server CPU per request, and in KB per answer on the wire. */
  goalUs?: number;
  goalKB?: number;
  /**
   * A request each connection makes next, as the viewer's partner (the viewer beside them in the
   * list: a conversation), before the connection's next viewer: the figures count both alike.
   * `$VIEWER` and `$PARTNER` in a path or body stand for the two members' ids.
   */
  then?: Omit<Call, "name" | "then">;
  /** Requests that warm the call up before it is measured (by default every signed-in viewer's two). */
  warmUp?: number;
}

const dir = await Deno.makeTempDir({ prefix: "cpu-bench-" });
const rand = rng(7);
const { ids, viewers } = await seedCity(`${dir}/app.kv`, { members: MEMBERS, viewers: VIEWERS, home: HOME, rand });
console.log(`${MEMBERS.toLocaleString("en-US")} members seeded, ${VIEWERS} of them signed in`);
const pick = () => ids[VIEWERS + Math.floor(rand() * (ids.length - VIEWERS))];

const BY_BOUNDS = "/api/profile-briefs/by-bounds?latMin=40.62&latMax=40.78&lonMin=-74.1&lonMax=-73.9&size=800";
const CALLS: Call[] = [
  { name: "signed-in floor (GET /api/ping)", path: () => "/api/ping", goalUs: 60 },
  { name: "GET /api/profile/{id}", path: () => `/api/profile/${pick()}`, goalUs: 150 },
  { name: "nearest 30", path: () => "/api/profile-briefs/nearest", goalUs: 250 },
  {
    name: "like (PUT /api/profile-like)",
    method: "PUT",
    path: () => "/api/profile-like",
    body: () =>
      JSON.stringify({
        likerProfileId: "$VIEWER",
        likedProfileId: pick(),
        likeType: rand() < 0.5 ? "LIKE" : "DISLIKE",
      }),
    goalUs: 300,
  },
  {
    // In pairs of viewers taking turns, as the soak's members talk (bench/soak.ts): warmed up past the
    // conversations' first messages (their spam check), so every one is a message of a conversation going on.
    name: "a message and its read (POST /api/message, then PUT /api/messages/read/{id} as the recipient)",
    method: "POST",
    path: () => "/api/message",
    body: () =>
      JSON.stringify({
        senderProfileId: "$VIEWER",
        recipientProfileId: "$PARTNER",
        bodyText: "how are you doing",
        profilePicIds: [],
      }),
    then: { method: "PUT", path: () => "/api/messages/read/$VIEWER" },
    warmUp: 8 * VIEWERS,
  },
  {
    name: "map view (600 in view)",
    path: () => "/api/profile-briefs/map?latMin=40.62&latMax=40.78&lonMin=-74.0&lonMax=-73.966",
    goalUs: 400,
  },
  {
    name: "map view (600 in view), zstd accepted",
    path: () => "/api/profile-briefs/map?latMin=40.62&latMax=40.78&lonMin=-74.0&lonMax=-73.966",
    encodings: CURRENT_BROWSER_ENCODINGS,
    goalUs: 400,
  },
  { name: "by-bounds-800", path: () => BY_BOUNDS, goalUs: 600, goalKB: 60 },
  {
    name: "by-bounds-800, zstd accepted",
    path: () => BY_BOUNDS,
    encodings: CURRENT_BROWSER_ENCODINGS,
    goalUs: 600,
    goalKB: 60,
  },
  { name: "by-bounds-800 as rows (form=rows)", path: () => `${BY_BOUNDS}&form=rows`, goalUs: 600, goalKB: 60 },
  {
    name: "by-bounds-800 as rows (form=rows), zstd accepted",
    path: () => `${BY_BOUNDS}&form=rows`,
    encodings: CURRENT_BROWSER_ENCODINGS,
    goalUs: 600,
    goalKB: 60,
  },
  { name: "by-bounds-800 (gzip only)", path: () => BY_BOUNDS, encodings: "gzip" },
  { name: "by-bounds-800 (not compressed)", path: () => BY_BOUNDS, encodings: "identity" },
];
/** Names split at a comma not followed by a space (a name may hold ", "). */
const ONLY = arg("calls", "").split(/,(?! )/).filter(Boolean);
/** `--calls`: each word picks the calls whose names hold it, or only the one so named exactly. */
const RUN = CALLS.filter((c) =>
  ONLY.length === 0 || ONLY.some((w) => CALLS.some((x) => x.name === w) ? c.name === w : c.name.includes(w))
);
const BARE: Call = { name: "bare Deno.serve JSON", path: () => "/" };

/** The bare server: a JSON answer, as the ceiling of bench/http.ts. */
const BARE_SOURCE = `Deno.addSignalListener("SIGINT", () => Deno.exit(0));
Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: ({ port }) => console.log("port " + port) }, () => Response.json({ pong: true, ts: Date.now() }));`;

/** A process and the port it printed. */
async function listening(args: string[], env: Record<string, string>, re: RegExp) {
  const { child, match } = await spawn(args, env, re);
  return { child, port: Number(match[1]) };
}

/** The bare server, profiled or not. */
async function startBare(profileDir?: string) {
  const file = `${dir}/bare.ts`;
  await Deno.writeTextFile(file, BARE_SOURCE);
  return await listening(
    ["run", "-A", ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []), file],
    {},
    /port (\d+)/,
  );
}

/** The app (of the repository at `root`) on its own copy of the seeded store (a call's writes do not reach the next app). */
async function startApp(name: string, profileDir?: string, root = new URL("../", import.meta.url).pathname) {
  const copy = `${dir}/${name}`;
  await Deno.mkdir(copy);
  for await (const f of Deno.readDir(dir)) {
    if (f.isFile && f.name.startsWith("app.kv")) await Deno.copyFile(`${dir}/${f.name}`, `${copy}/${f.name}`);
  }
  return await listening(
    [
      "run",
      "-A",
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
      `${root}/bench/serve.ts`,
    ],
    { PORT: "0", KV_PATH: `${copy}/app.kv`, WORKERS: "0", LOG_REQUESTS: "0", TRUST_PROXY: "1", NO_COLOR: "1" },
    /listening on http:\/\/localhost:(\d+)/,
  );
}

/** Stops a process (SIGINT: bench/serve.ts exits on it, and a profiled one writes its profile). */
async function stop(p: { child: Deno.ChildProcess }, signal: Deno.Signal = "SIGKILL") {
  try {
    p.child.kill(signal);
  } catch { /* gone */ }
  await p.child.status;
}

interface Measured {
  rps: number;
  requests: number;
  non2xx: number;
  /** Server CPU per request, µs. */
  cpuUs: number;
  /** Bytes per answer on the wire (status line, headers and body as sent). */
  bytes: number;
  p99: number;
  /**
   * Of `cpuUs`, the JavaScript thread's ("deno") and the store's SQLite thread's ("sw-0"), µs a
   * request: a CPU profile sees only the first.
   */
  jsUs: number;
  storeUs: number;
  /** Of `cpuUs`, V8's helper threads' ("V8 DefaultWorke": the garbage collector's), µs a request. */
  gcUs: number;
}

/**
 * Drives `call` at `port` for `seconds` (or, given `amount`, for that many requests); the CPU the
 * process `pid` used meanwhile, per request.
 */
async function measure(pid: number, port: number, call: Call, seconds = SECONDS, amount?: number): Promise<Measured> {
  let n = 0;
  const threadsBefore = threadCpuMs(pid);
  const before = cpuMs(pid);
  const r = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections: CONNECTIONS,
    ...(amount === undefined ? { duration: seconds } : { amount }),
    requests: [call, ...(call.then ? [call.then] : [])].map((step, j) => ({
      setupRequest(req: Record<string, unknown>, context: { viewer?: number }) {
        if (j === 0) context.viewer = n++ % viewers.length;
        // The viewer's partner: the one beside them (0 and 1, 2 and 3 …).
        const viewer = context.viewer!, partner = viewer ^ 1;
        const i = j === 0 ? viewer : partner;
        const v = viewers[i];
        const fill = (text: string) =>
          text.replaceAll("$VIEWER", viewers[viewer].id).replaceAll("$PARTNER", viewers[partner].id);
        return {
          ...req,
          method: step.method ?? "GET",
          path: fill(step.path()),
          headers: {
            cookie: v.cookie,
            origin: `http://127.0.0.1:${port}`,
            "x-forwarded-for": `10.1.${i >> 8}.${i & 255}`,
            "content-type": "application/json",
            "accept-encoding": step.encodings ?? BROWSER_ENCODINGS,
          },
          ...(step.body ? { body: fill(step.body()) } : {}),
        };
      },
    })),
  });
  const used = cpuMs(pid) - before;
  const threadsAfter = threadCpuMs(pid);
  const requests = Math.max(1, r.requests.total);
  const threadUs = (name: string) => 1000 * ((threadsAfter.get(name) ?? 0) - (threadsBefore.get(name) ?? 0)) / requests;
  return {
    rps: r.requests.average,
    requests: r.requests.total,
    non2xx: r.non2xx,
    cpuUs: 1000 * used / requests,
    bytes: r.throughput.total / requests,
    p99: r.latency.p99,
    jsUs: threadUs("deno"),
    storeUs: threadUs("sw-0"),
    gcUs: threadUs("V8 DefaultWorke"),
  };
}

const median = (xs: Measured[]) => [...xs].sort((a, b) => a.cpuUs - b.cpuUs)[Math.floor(xs.length / 2)];

const loads: number[] = [Deno.loadavg()[0]];
const results: { call: Call; app: Measured; bare: Measured; before?: Measured }[] = [];
const bare = await startBare();
const app = await startApp("measured");
const before = BEFORE ? await startApp("before", undefined, BEFORE) : null;
try {
  await measure(bare.child.pid, bare.port, BARE, 1);
  for (const call of RUN) {
    // Warmed up until every signed-in viewer has called twice, as the profile below is: by count,
    // since under load a second of it left many viewers' first asks (written and compressed, where
    // later asks are mostly sent as kept) in the first round, and the figure moved with the load.
    await measure(app.child.pid, app.port, call, 1, call.warmUp ?? 2 * VIEWERS);
    if (before) await measure(before.child.pid, before.port, call, 1, call.warmUp ?? 2 * VIEWERS);
    const appRounds: Measured[] = [], bareRounds: Measured[] = [], beforeRounds: Measured[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      bareRounds.push(await measure(bare.child.pid, bare.port, BARE));
      // The two apps swap places each round: two copies of the same code measured one after the
      // other came out dearer in the second place.
      const pair = [
        async () => appRounds.push(await measure(app.child.pid, app.port, call)),
        async () => before && beforeRounds.push(await measure(before.child.pid, before.port, call)),
      ];
      if (r % 2) pair.reverse();
      for (const run of pair) await run();
      loads.push(Deno.loadavg()[0]);
    }
    results.push({
      call,
      app: median(appRounds),
      bare: median(bareRounds),
      ...(before ? { before: median(beforeRounds) } : {}),
    });
    const last = results.at(-1)!;
    console.log(
      `${call.name}: ${last.app.cpuUs.toFixed(0)} µs CPU a request (bare ${last.bare.cpuUs.toFixed(1)} µs), ${
        Math.round(last.app.bytes).toLocaleString("en-US")
      } B an answer${last.app.non2xx ? `, ${last.app.non2xx} not 2xx` : ""}; of it the JavaScript thread ${
        last.app.jsUs.toFixed(0)
      } µs, the store's thread ${last.app.storeUs.toFixed(0)} µs, the collector's ${
        last.app.gcUs.toFixed(0)
      } µs; p99 ${last.app.p99} ms${
        last.before
          ? ` (before: ${last.before.cpuUs.toFixed(0)} µs, JavaScript ${last.before.jsUs.toFixed(0)}, store ${
            last.before.storeUs.toFixed(0)
          }, collector ${last.before.gcUs.toFixed(0)}; p99 ${last.before.p99} ms)`
          : ""
      }`,
    );
  }
} finally {
  await stop(app);
  await stop(bare);
  if (before) await stop(before);
}

const [l1, l5, l15] = Deno.loadavg();
const beforeHead = BEFORE ? " before: CPU, × bare, on the wire |" : "";
console.log(
  `\n| call (c=${CONNECTIONS}) |${beforeHead} server CPU a request | bare Deno.serve | × bare | goal | on the wire | requests/s | p99 |`,
);
console.log(`|---|${BEFORE ? "---|" : ""}---|---|---|---|---|---|---|`);
for (const { call, app, bare, before } of results) {
  const was = before
    ? ` ${before.cpuUs.toFixed(0)} µs, ${(before.cpuUs / bare.cpuUs).toFixed(1)}×, ${
      (before.bytes / 1024).toFixed(1)
    } KB |`
    : "";
  console.log(
    `| ${call.name} |${was} ${app.cpuUs.toFixed(0)} µs | ${bare.cpuUs.toFixed(1)} µs | ${
      (app.cpuUs / bare.cpuUs).toFixed(1)
    }× | ${call.goalUs ? `≤ ${call.goalUs} µs` : "—"}${call.goalKB ? `, ≤ ${call.goalKB} KB` : ""} | ${
      (app.bytes / 1024).toFixed(1)
    } KB | ${Math.round(app.rps).toLocaleString("en-US")} | ${app.p99} ms |`,
  );
}
console.log(
  `\n${
    MEMBERS.toLocaleString("en-US")
  } members, ${ROUNDS} rounds of ${SECONDS} s per call (the median by CPU), ${navigator.hardwareConcurrency} cores; load average ${
    Math.min(...loads).toFixed(2)
  } to ${Math.max(...loads).toFixed(2)} (now ${l1.toFixed(2)} ${l5.toFixed(2)} ${l15.toFixed(2)})`,
);

/** The rows of a run: each call's CPU a request and bytes on the wire, beside the bare server's. */
function rowsOf(which: "app" | "before"): ResultRow[] {
  const rows: ResultRow[] = [];
  for (const r of results) {
    const { call, bare } = r;
    const app = r[which]!;
    rows.push({
      bench: "cpu",
      metric: `${call.name}: server CPU a request`,
      unit: "µs",
      value: Math.round(app.cpuUs * 10) / 10,
      peer: "bare Deno.serve",
      peerValue: Math.round(bare.cpuUs * 10) / 10,
      ...(call.goalUs ? { goal: call.goalUs } : {}),
      better: "lower",
    });
    // The same figure as a multiple of the bare server's, the measure that moves least with load.
    rows.push({
      bench: "cpu",
      metric: `${call.name}: CPU a request, × bare Deno.serve`,
      unit: "×",
      value: Math.round(10 * app.cpuUs / bare.cpuUs) / 10,
      better: "lower",
    });
    rows.push({
      bench: "cpu",
      metric: `${call.name}: on the wire`,
      unit: "KB",
      value: Math.round(app.bytes / 102.4) / 10,
      ...(call.goalKB ? { goal: call.goalKB } : {}),
      better: "lower",
    });
  }
  return rows;
}
const note =
  `bench/cpu_per_request.ts, ${MEMBERS} members, c=${CONNECTIONS}, ${ROUNDS} rounds of ${SECONDS} s (the median)`;
const load: [number, number] = [Math.min(...loads), Math.max(...loads)];
await reportRowsBeside(RESULTS_NAME, rowsOf("app"), BEFORE ? { dir: BEFORE, rows: rowsOf("before") } : null, {
  note,
  load,
});

if (PROFILE) {
  const out = new URL("./results/profiles/", import.meta.url).pathname;
  await Deno.mkdir(out, { recursive: true });
  const date = new Date().toISOString().slice(0, 10);
  for (const call of [BARE, ...RUN]) {
    const profDir = await Deno.makeTempDir({ dir, prefix: "prof-" });
    const server = call === BARE ? await startBare(profDir) : await startApp(`prof-${rand()}`, profDir);
    let m: Measured;
    try {
      // Warmed up until every signed-in viewer has called twice (a session's first call does more, and
      // a view's first answer is written and compressed where the rounds above send most as kept):
      // by count, not time, since a profiled app answers several times fewer a second.
      await measure(server.child.pid, server.port, call, 3, call.warmUp ?? 2 * VIEWERS);
      m = await measure(server.child.pid, server.port, call);
    } finally {
      await stop(server, "SIGINT");
    }
    const file = [...Deno.readDirSync(profDir)].find((f) => f.name.endsWith(".cpuprofile"));
    if (!file) {
      console.error(`${call.name}: no profile written`);
      continue;
    }
    const profile: CpuProfile = JSON.parse(await Deno.readTextFile(`${profDir}/${file.name}`));
    const summary = summariseProfile(profile, SECONDS * 1000);
    const slug = call.name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");
    if (KEEP_PROFILES) {
      await Deno.mkdir(KEEP_PROFILES, { recursive: true });
      await Deno.copyFile(`${profDir}/${file.name}`, `${KEEP_PROFILES}/${slug}.cpuprofile`);
    }
    const path = `${out}${date}-${slug}.md`;
    await Deno.writeTextFile(path, profileMarkdown(call, m, summary));
    console.log(`${call.name}: profile summary in ${path}`);
  }
}
await Deno.remove(dir, { recursive: true });

/** A profile summary as a page: µs per request by part and by function. */
function profileMarkdown(call: Call, m: Measured, s: ProfileSummary): string {
  const per = (ms: number) => (1000 * ms / Math.max(1, m.requests)).toFixed(1);
  const table = (title: string, lines: ProfileSummary["parts"]) => [
    `## ${title}`,
    "",
    "| | µs a request | share of busy time |",
    "| --- | --- | --- |",
    ...lines.map((l) => `| ${l.name.replaceAll("|", "\\|")} | ${per(l.ms)} | ${(100 * l.share).toFixed(1)}% |`),
    "",
  ];
  return [
    `# CPU profile: ${call.name}`,
    "",
    `bench/cpu_per_request.ts --cpu-prof, ${
      new Date().toISOString()
    }: ${m.requests} requests in ${SECONDS} s at c=${CONNECTIONS}, ` +
    `${m.cpuUs.toFixed(0)} µs of CPU a request from /proc (all threads: the JavaScript thread ${
      m.jsUs.toFixed(0)
    } µs, the store's SQLite thread ${m.storeUs.toFixed(0)} µs, the collector's helpers ${
      m.gcUs.toFixed(0)
    } µs); the profile (the JavaScript thread) saw ` +
    `${s.busyMs} ms busy of ${s.windowMs} ms, ${per(s.busyMs)} µs a request. Load average ${
      Deno.loadavg().map((l) => l.toFixed(2)).join(" ")
    }.`,
    "",
    ...table("By part (each sample counted for the innermost part on its stack)", s.parts),
    ...table("By function, self time", s.self),
    ...table("The app's own functions, inclusive time", s.inclusive),
  ].join("\n");
}
