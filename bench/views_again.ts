/**
 * A view asked again (decisions 0192, 0197): the map refetches a member's view every 15 s and the
 * grid its nearest list every few seconds, so most such answers a server gives were asked by the
 * same member moments before. This drives the app in
 * process (main.ts's `createApp`, through its session, limits, route and compression; no HTTP
 * server around it) for 100 viewers at a time, each asking once ("first ask") and then once more
 * ("asked again"), and reads this process's CPU per request. With `--before DIR` (another copy of
 * the repository, its modules installed) that copy's app is driven beside this one in alternating
 * rounds, both on one seeded store (bench/cpu_per_request.ts's city: kit.ts `seedCity`).
 *
 * Run: `deno run -A bench/views_again.ts [--before DIR] [--rounds 4] [--record]`.
 */

import process from "node:process";
import { mulberry32 } from "../kv/random.ts";
import { arg, reportRows, type ResultRow, seedCity } from "./kit.ts";

Deno.env.set("TRUST_PROXY", "1");
Deno.env.set("WORKERS", "0");
Deno.env.set("LOG_REQUESTS", "0");
const BEFORE = arg("before", "");
const ROUNDS = Number(arg("rounds", "4"));
const AT_ONCE = 100;
const CALLS = [
  {
    name: "map view (600 in view)",
    path: "/api/profile-briefs/map?latMin=40.62&latMax=40.78&lonMin=-74.0&lonMax=-73.966",
  },
  {
    name: "by-bounds-800",
    path: "/api/profile-briefs/by-bounds?latMin=40.62&latMax=40.78&lonMin=-74.1&lonMax=-73.9&size=800",
  },
  // The grid's list, which it asks again every few seconds (islands/queries/briefs.ts).
  { name: "nearest 30", path: "/api/profile-briefs/nearest" },
];
const ENCODINGS = [["a browser", "gzip, deflate, br"], ["zstd accepted", "gzip, deflate, br, zstd"]];

const dir = await Deno.makeTempDir({ prefix: "views-again-" });
const path = `${dir}/app.kv`;
const { viewers } = await seedCity(path, {
  members: 10_000,
  viewers: 500,
  home: { lat: 40.7, lon: -74 },
  rand: mulberry32(7),
});

type App = { request: (url: string, init: RequestInit) => Response | Promise<Response> };

/** One copy's app on the seeded store, as bench/serve.ts starts it (index loaded, reads kept). */
async function loadApp(root: string): Promise<App> {
  const db = await import(`${root}/kv/db.ts`);
  const positions = await import(`${root}/kv/positions/mod.ts`);
  const kept = await import(`${root}/kv/kept.ts`);
  const main = await import(`${root}/main.ts`);
  await db.openKv(path);
  await positions.loadPositionIndex();
  kept.startKeptReads();
  return main.createApp();
}
const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const apps: [string, App][] = [["this copy", await loadApp(here)]];
if (BEFORE) apps.unshift(["before", await loadApp(BEFORE.replace(/\/$/, ""))]);

const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

async function ask(app: App, i: number, path: string, encodings: string): Promise<void> {
  const v = viewers[i];
  const headers = { cookie: v.cookie, "accept-encoding": encodings, "x-forwarded-for": `10.1.${i >> 8}.${i & 255}` };
  const res = await app.request(`http://localhost${path}`, { headers });
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

const figures = new Map<string, number[]>();
const loads = [Deno.loadavg()[0]];
for (const call of CALLS) {
  for (const [encName, encodings] of ENCODINGS) {
    for (let r = 0; r < ROUNDS; r++) {
      const from = (r * AT_ONCE) % viewers.length;
      for (const [name, app] of r % 2 ? [...apps].reverse() : apps) {
        for (const pass of ["first ask", "asked again"]) {
          const t = cpuUs();
          for (let i = from; i < from + AT_ONCE; i++) await ask(app, i, call.path, encodings);
          const key = `${call.name}, ${encName}, ${pass}|${name}`;
          figures.set(key, [...figures.get(key) ?? [], (cpuUs() - t) / AT_ONCE]);
        }
      }
      loads.push(Deno.loadavg()[0]);
    }
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log("\n| request | copy | CPU a request (median round) | rounds |\n|---|---|---|---|");
const rows: ResultRow[] = [];
for (const [key, xs] of figures) {
  const [what, name] = key.split("|");
  console.log(`| ${what} | ${name} | ${median(xs).toFixed(0)} µs | ${xs.map((x) => x.toFixed(0)).join(" ")} |`);
  if (name !== "this copy") continue;
  const before = figures.get(`${what}|before`);
  rows.push({
    bench: "views-again",
    metric: `${what}: CPU a request in process`,
    unit: "µs",
    value: Math.round(median(xs)),
    ...(before ? { peer: "the copy before (same rounds)", peerValue: Math.round(median(before)) } : {}),
    better: "lower",
  });
}
const load: [number, number] = [Math.min(...loads), Math.max(...loads)];
console.log(`\nload average ${load[0].toFixed(2)} to ${load[1].toFixed(2)}`);
await reportRows("views-again", rows, {
  note: `bench/views_again.ts, 10000 members, ${ROUNDS} rounds of ${AT_ONCE} viewers${
    BEFORE ? ", beside the copy before in alternating rounds" : ""
  }`,
  load,
});
await Deno.remove(dir, { recursive: true }).catch(() => {});
Deno.exit(0);
