/**
 * Store round trips per route: the app in this process, every store call made to wait `--rtt-ms`
 * (5 by default, a remote KV in the same region) and recorded (kv/roundTrips.ts). For each
 * member-facing route: the sequential round trips of its critical path and its calls, warm (asked
 * again at once: the instance's kept reads in force) and cold (asked after more than the kept
 * reads' life idle), and the latency measured at that wait per trip. Prints a table; `--record` (or
 * `deno task bench`) keeps the figures in bench/results.
 *
 *   deno run -A bench/roundtrips.ts [--rtt-ms 5] [--partners 20] [--where] [--only TEXT] [--record]
 */

import { testApp } from "../tests/api.ts";
import { wrapKv } from "../kv/db.ts";
import { countedKv, nameCallsByCaller, tripsOf } from "../kv/roundTrips.ts";
import { KEPT } from "../kv/kept.ts";
import { startKeptReads } from "../kv/kept.ts";
import { loadPositionIndex, startPositionSync, stopPositionSync } from "../kv/positions/mod.ts";
import { arg, reportRows, sleep } from "./kit.ts";

const RTT = Number(arg("rtt-ms", "5"));
const PARTNERS = Number(arg("partners", "20"));
/** `--where`: print each route's critical path, every call named by the function that made it. */
const WHERE = Deno.args.includes("--where");
/** `--only TEXT`: the routes whose name holds TEXT. */
const ONLY = arg("only", "");
/** Idle long enough that every kept read has expired. */
const COLD_IDLE_MS = Math.max(...Object.values(KEPT).map((k) => k.ttlMs)) + 300;

const t = await testApp();
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

await loadPositionIndex();
startPositionSync();
// Wrapped before the kept reads start: they are kept per handle.
wrapKv((db) => countedKv(db, RTT));
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
for (const r of routes.filter((r) => r.name.includes(ONLY))) {
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

stopPositionSync();
t.close();

const goal = (kind: string) => (kind === "read" ? 3 : 4);
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
  ]),
  {
    note: `${RTT} ms added to every store call, one request at a time, ${PARTNERS} conversation partners`,
    load: [load[0], load[1]],
  },
);
