/**
 * Store round trips per route: the app in this process, every store call made to wait `--rtt-ms`
 * (5 by default, a remote KV in the same region) and recorded (kv/roundTrips.ts). For each
 * member-facing route: the sequential round trips of its critical path and its calls, warm (asked
 * again at once: the instance's kept reads in force) and cold (asked after more than the kept
 * reads' life idle, those that last aside), and the latency measured at that wait per trip. Then the p50 latency of the
 * calls a member makes most (discovery, a profile, a like, a message) over `--p50-rounds` requests
 * each, one at a time, warm, against the goal of 25 ms at 5 ms a trip. Prints both tables;
 * `--record` (or `deno task bench`) keeps the figures in bench/results.
 *
 *   deno run -A bench/roundtrips.ts [--rtt-ms 5] [--partners 20] [--p50-rounds 50] [--p50-only] [--where] [--only TEXT] [--record]
 */

import { testApp } from "../tests/api.ts";
import { wrapKv } from "../kv/db.ts";
import { countedKv, nameCallsByCaller, tripsOf } from "../kv/roundTrips.ts";
import { KEPT } from "../kv/kept.ts";
import { startKeptReads } from "../kv/kept.ts";
import { loadPositionIndex, startPositionSync, stopPositionSync } from "../kv/positions/mod.ts";
import { arg, pct, processCpuMs, reportRows, sleep } from "./kit.ts";
import { startKvConnectProcess } from "../tests/remoteKv.ts";

const RTT = Number(arg("rtt-ms", "5"));
const PARTNERS = Number(arg("partners", "20"));
/** `--where`: print each route's critical path, every call named by the function that made it. */
const WHERE = Deno.args.includes("--where");
/** `--only TEXT`: the routes whose name holds TEXT. */
const ONLY = arg("only", "");
/** `--p50-rounds N`: requests in each p50 series (0: none). */
const P50_ROUNDS = Number(arg("p50-rounds", "50"));
/** `--p50-only`: the p50 series without the table of trips (quicker: no idle waits for cold requests). */
const P50_ONLY = Deno.args.includes("--p50-only");
/** The p50 goal of each series at 5 ms a trip, in ms. */
const P50_GOAL_MS = 25;
/**
 * Kept reads that last longer than this are kept while they hold, as an instance keeps them, also
 * in a cold request (that a conversation is past its first messages, kv/spam.ts).
 */
const LASTING_MS = 60_000;
/** Idle long enough that every kept read has expired, but those that last. */
const COLD_IDLE_MS = Math.max(...Object.values(KEPT).map((k) => k.ttlMs).filter((ms) => ms <= LASTING_MS)) + 300;

/**
 * `--kv-connect`: the store a KV Connect test server in a process of its own that answers `--rtt-ms` late
 * (tests/remoteKv.ts), so each trip also pays the protocol (HTTP, protobuf, the server's own work); the calls are
 * still counted, with no wait added in process.
 */
const KV_CONNECT = Deno.args.includes("--kv-connect");
const server = KV_CONNECT ? await startKvConnectProcess({ rttMs: RTT }) : undefined;
const t = await testApp(server ? { path: server.newDatabase() } : {});
const box = "latMin=33&lonMin=-113&latMax=34&lonMax=-111";

type M = Awaited<ReturnType<typeof t.member>>;
const place = (m: M, lat: number, lon: number) =>
  t.call("PUT", `/api/profile-position/${m.profileId}`, {
    cookie: m.cookie,
    json: { overrideLat: lat, overrideLon: lon, use: "OVERRIDE", hide: false },
  });
const send = (from: M, to: M, bodyText: string) =>
  t.call("POST", "/api/message", {
    cookie: from.cookie,
    json: { senderProfileId: from.profileId, recipientProfileId: to.profileId, bodyText, profilePicIds: [] },
  });

// A viewer with PARTNERS conversation partners, all placed around Phoenix.
const me = await t.member("trips-me@example.com");
await place(me, 33.45, -112.07);
const partners: M[] = [];
for (let i = 0; i < PARTNERS; i++) {
  const p = await t.member(`trips-${i}@example.com`, { address: `10.9.${i >> 8}.${i & 255}` });
  await place(p, 33.45 + (i % 5) * 0.01, -112.07 + Math.floor(i / 5) * 0.01);
  await send(me, p, `hello ${i}`);
  await send(p, me, `hi back ${i}`);
  partners.push(p);
}
const other = partners[0];
// Members `me` has not written to yet: each first message opens a new conversation (its limits and the spam check of
// a conversation's first messages).
const strangers: M[] = [];
for (let i = 0; i < 5; i++) strangers.push(await t.member(`trips-new-${i}@example.com`, { address: `10.8.0.${i}` }));
// The sender of the p50 series of messages, in a conversation already: `me` is near the limit of 60 a minute.
const writer = await t.member("trips-writer@example.com", { address: "10.7.0.1" });
await place(writer, 33.46, -112.08);
await send(writer, other, "hello, to begin with");

await loadPositionIndex();
startPositionSync();
// Wrapped before the kept reads start: they are kept per handle.
wrapKv((db) => countedKv(db, server ? 0 : RTT));
startKeptReads();
nameCallsByCaller(WHERE);

interface Route {
  name: string;
  kind: "read" | "write";
  call: () => Promise<{ status: number; text: string }>;
}

let likeType: "LIKE" | "DISLIKE" = "LIKE";
let n = 0;
const routes: Route[] = [
  { name: "GET /api/settings", kind: "read", call: () => t.call("GET", "/api/settings", { cookie: me.cookie }) },
  {
    name: "GET /api/profile/:id",
    kind: "read",
    call: () => t.call("GET", `/api/profile/${other.profileId}`, { cookie: me.cookie }),
  },
  {
    name: "GET /api/profile-briefs/nearest",
    kind: "read",
    call: () => t.call("GET", "/api/profile-briefs/nearest", { cookie: me.cookie }),
  },
  {
    name: "GET /api/profile-briefs/by-bounds",
    kind: "read",
    call: () => t.call("GET", `/api/profile-briefs/by-bounds?${box}`, { cookie: me.cookie }),
  },
  {
    name: "GET /api/profile-briefs/map",
    kind: "read",
    call: () => t.call("GET", `/api/profile-briefs/map?${box}`, { cookie: me.cookie }),
  },
  {
    name: `GET /api/messages/most-recent-with/:me (${PARTNERS} partners)`,
    kind: "read",
    call: () => t.call("GET", `/api/messages/most-recent-with/${me.profileId}`, { cookie: me.cookie }),
  },
  {
    name: "GET /api/messages/between/:a/:b",
    kind: "read",
    call: () => t.call("GET", `/api/messages/between/${me.profileId}/${other.profileId}`, { cookie: me.cookie }),
  },
  {
    name: "GET /api/notifications/:me",
    kind: "read",
    call: () => t.call("GET", `/api/notifications/${me.profileId}`, { cookie: me.cookie }),
  },
  {
    name: "GET /profile/:id (page)",
    kind: "read",
    call: () => t.call("GET", `/profile/${other.profileId}`, { cookie: me.cookie }),
  },
  {
    name: "GET /chat/personal (page)",
    kind: "read",
    call: () => t.call("GET", "/chat/personal", { cookie: me.cookie }),
  },
  { name: "GET /search/tile (page)", kind: "read", call: () => t.call("GET", "/search/tile", { cookie: me.cookie }) },
  {
    name: "PUT /api/profile-like",
    kind: "write",
    call: () => {
      likeType = likeType === "LIKE" ? "DISLIKE" : "LIKE";
      return t.call("PUT", "/api/profile-like", {
        cookie: me.cookie,
        json: { likerProfileId: me.profileId, likedProfileId: other.profileId, likeType },
      });
    },
  },
  { name: "POST /api/message", kind: "write", call: () => send(me, other, `a message number ${++n}`) },
  {
    name: "POST /api/message (a new conversation)",
    kind: "write",
    call: () => send(me, strangers.shift()!, `hello there, nice to meet you (${++n})`),
  },
  {
    name: "PUT /api/profile-position/:id",
    kind: "write",
    call: () => place(me, 33.45 + (n++ % 3) * 0.001, -112.07),
  },
];

const round1 = (x: number) => Math.round(x * 10) / 10;

interface Row {
  route: string;
  kind: string;
  warm: number;
  cold: number;
  warmCalls: number;
  coldCalls: number;
  warmMs: number;
  coldMs: number;
}

async function measure(r: Route) {
  const t0 = performance.now();
  const { result, trips } = await tripsOf(r.call);
  const ms = performance.now() - t0;
  if (result.status >= 400) throw new Error(`${r.name} answered ${result.status}: ${result.text.slice(0, 200)}`);
  return { trips, ms };
}

const rows: Row[] = [];
for (const r of P50_ONLY ? [] : routes.filter((r) => r.name.includes(ONLY))) {
  await r.call(); // first use: the route's own one-time work
  await sleep(COLD_IDLE_MS);
  const cold = await measure(r);
  // Warm: best of three asked at once after another, the kept reads in force.
  const warms = [await measure(r), await measure(r), await measure(r)];
  const warm = warms.reduce((a, b) => (b.trips.sequential < a.trips.sequential ? b : a));
  rows.push({
    route: r.name,
    kind: r.kind,
    warm: warm.trips.sequential,
    cold: cold.trips.sequential,
    warmCalls: warm.trips.calls,
    coldCalls: cold.trips.calls,
    warmMs: Math.round(warm.ms * 10) / 10,
    coldMs: Math.round(cold.ms * 10) / 10,
  });
  if (WHERE) {
    console.error(`${r.name}\n  warm ${warm.trips.sequential}: ${warm.trips.path.join(" → ")}`);
    console.error(`  cold ${cold.trips.sequential}: ${cold.trips.path.join(" → ")}`);
  }
}

/** The p50 series: each route asked P50_ROUNDS times, one request at a time, warm. */
interface Series {
  route: string;
  p50Ms: number;
  p90Ms: number;
  p50Trips: number;
  /** This process's CPU over the series ÷ its requests (the app, the client and the wrapper's timers). */
  cpuMs: number;
}
const series: Series[] = [];
const P50_ROUTES: Record<string, () => Promise<{ status: number; text: string }>> = {
  "GET /api/profile-briefs/nearest": routes.find((r) => r.name === "GET /api/profile-briefs/nearest")!.call,
  "GET /api/profile-briefs/by-bounds": routes.find((r) => r.name === "GET /api/profile-briefs/by-bounds")!.call,
  "GET /api/profile-briefs/map": routes.find((r) => r.name === "GET /api/profile-briefs/map")!.call,
  "GET /api/profile/:id": routes.find((r) => r.name === "GET /api/profile/:id")!.call,
  "PUT /api/profile-like": routes.find((r) => r.name === "PUT /api/profile-like")!.call,
  "POST /api/message": () => send(writer, other, `a message in the series, number ${++n}`),
};
for (const [route, call] of P50_ROUNDS > 0 ? Object.entries(P50_ROUTES).filter(([r]) => r.includes(ONLY)) : []) {
  await call(); // warm: the kept reads in force
  const ms: number[] = [], trips: number[] = [];
  const cpu0 = processCpuMs();
  for (let i = 0; i < P50_ROUNDS; i++) {
    const m = await measure({ name: route, kind: "read", call });
    ms.push(m.ms);
    trips.push(m.trips.sequential);
    // What a request leaves to the background (grouped writes, the position index) settles before the next.
    await sleep(20);
  }
  series.push({
    route,
    p50Ms: round1(pct(ms, 0.5)),
    p90Ms: round1(pct(ms, 0.9)),
    p50Trips: pct(trips, 0.5),
    cpuMs: round1((processCpuMs() - cpu0) / P50_ROUNDS),
  });
}

stopPositionSync();
t.close();

const goal = (kind: string) => (kind === "read" ? 3 : 4);
if (rows.length) {
  console.log(`\nStore round trips per request, ${RTT} ms added to every store call, one request at a time\n`);
  console.log("| route | goal | warm trips (calls) | cold trips (calls) | warm ms | cold ms |");
  console.log("| --- | --- | --- | --- | --- | --- |");
  for (const r of rows) {
    console.log(
      `| ${r.route} | ≤ ${
        goal(r.kind)
      } | ${r.warm} (${r.warmCalls}) | ${r.cold} (${r.coldCalls}) | ${r.warmMs} | ${r.coldMs} |`,
    );
  }
}

if (series.length) {
  console.log(
    `\nLatency, ${P50_ROUNDS} requests each, one at a time, warm, ${RTT} ms added to every store call (load ${
      Deno.loadavg().slice(0, 2).map((x) => x.toFixed(1)).join(", ")
    })\n`,
  );
  // The floor: what the p50 would be on a core of its own, the trips' waits and the CPU one after another.
  console.log(`| route | goal | p50 | p90 | sequential trips (p50) | CPU a request (mean) | trips × ${RTT} ms + CPU |`);
  console.log("| --- | --- | --- | --- | --- | --- | --- |");
  for (const s of series) {
    console.log(
      `| ${s.route} | ≤ ${P50_GOAL_MS} ms | ${s.p50Ms} ms | ${s.p90Ms} ms | ${s.p50Trips} | ${s.cpuMs} ms | ${
        round1(s.p50Trips * RTT + s.cpuMs)
      } ms |`,
    );
  }
}

const load = Deno.loadavg();
await reportRows(
  "roundtrips",
  rows.flatMap((r) => [
    ...(["warm", "cold"] as const).map((w) => ({
      bench: "roundtrips",
      metric: `${r.route}, ${w}: sequential store round trips`,
      unit: "trips",
      value: r[w],
      goal: goal(r.kind),
      better: "lower" as const,
    })),
    {
      bench: "roundtrips",
      metric: `${r.route}, warm: latency at ${RTT} ms a trip`,
      unit: "ms",
      value: r.warmMs,
      better: "lower" as const,
    },
  ]).concat(series.map((s) => ({
    bench: "roundtrips",
    metric: `${s.route}: p50 of ${P50_ROUNDS} warm requests at ${RTT} ms a trip${server ? ", KV Connect" : ""}`,
    unit: "ms",
    value: s.p50Ms,
    // The goal is set for 5 ms a trip.
    ...(RTT === 5 ? { goal: P50_GOAL_MS } : {}),
    better: "lower" as const,
  }))).concat((server ? [] : series).map((s) => ({
    bench: "roundtrips",
    metric: `${s.route}: its trips × ${RTT} ms + its CPU (the p50 on a core of its own)`,
    unit: "ms",
    value: round1(s.p50Trips * RTT + s.cpuMs),
    better: "lower" as const,
  }))),
  {
    note: `${RTT} ms added to every store call${
      server ? " by a KV Connect test server in its own process" : ""
    }, one request at a time, ${PARTNERS} conversation partners`,
    load: [load[0], load[1]],
  },
);
await server?.close();
// The app's event bus (its tail of the change log, started with the kept reads) outlives `t.close()`: the bench ends here.
Deno.exit(0);
