/**
 * Nearby queries and position writes: KV + the in-memory position index (kv/positions/mod.ts) beside
 * Redis 7 GEOSEARCH on the same shown points, in the same run.
 *
 * Run: `deno run -A bench/geo.ts [--n 100000,1000000] [--queries 2000] [--max-minutes 9.5] [--no-start]
 * [--record] [--name geo]` (`--name`: the results file's, bench/results/<date>-<name>.json).
 * Per member count: seeds members clustered around a few cities into a KV file in a temp dir
 * (deleted after), loads the index from KV, starts `redis-server` on a free 127.0.0.1 port
 * (`--save '' --appendonly no`, stopped after; `redis-server` and `redis-tools` installed with
 * apt-get when missing and root, else the Redis figures are left out and the run says so) and
 * GEOADDs the same shown points. Redis is timed by its own C client, `redis-benchmark` (one
 * connection, one request at a time), on PEER_POINTS viewers, and the index on the same points:
 * nearest-30 against GEOSEARCH BYRADIUS ... ASC COUNT 31 WITHDIST and by-bounds-800 against BYBOX
 * ... ASC COUNT 801 WITHCOORD (the same answer; the ids-only variants beside), with a PING for
 * the round trip under them; the ratio Redis ÷ index is recorded (goal BOUNDS_FACTOR). Position
 * writes are measured quiet and with the other core burning (a busy loop in a process of its own),
 * beside `redis-benchmark -P 16` GEOADD in the same phase, each with CPU per write and the time
 * the writer waited for a core. Every loop is bounded in count and time; the whole run stops early
 * (and says so) near `MAX_RUN_MS`. Talks only to 127.0.0.1. The load average is printed beside
 * every figure.
 */

import { PositionStore } from "../kv/positions/mod.ts";
import { METERS_PER_DEGREE } from "../domain/geo.ts";
import { mulberry32 as rng } from "../kv/random.ts";
import { arg, burnCpu, loadAverageText, processCpuMs, processWaitMs, reportRows } from "./kit.ts";
import { BOUNDS_FACTOR, fmtRate, fmtUs, report, type Result, table } from "./geoReport.ts";
import {
  commandUs,
  ensureRedis,
  GEOADD_PIPELINE,
  haveCommand,
  KEY,
  Redis,
  redisBenchmark,
  redisGeoadd,
  redisNearest,
  type Reply,
  startRedis,
  type Stats,
} from "./redis.ts";
import { tuneStoreFile } from "../kv/storeFile.ts";
import { forgetKeptSearches } from "../kv/positions/keptSearches.ts";

/** The whole run's bound (`--max-minutes`, default 9.5; a million members on a busy machine need more). */
const MAX_RUN_MS = Number(arg("max-minutes", "9.5")) * 60_000;
/** Leaves out the fresh-start timings (`--no-start`: two more processes loading the index). */
const START = !Deno.args.includes("--no-start");
const PHASE_MS = 3_000;
const WRITE_MS = 6_000;
const WRITE_MAX = 100_000;
const WRITE_CONCURRENCY = 256;
/** Viewers whose queries redis-benchmark times (a process per point and variant). */
export const PEER_POINTS = 20;
export const SEED_CHUNK = 30_000;
export const BOX_HALF_DEG = 0.05; // by-bounds box: ±0.05° (about 11 km square), a city map view
/** The goal on nearest-30 and by-bounds-800: a p50 this many times faster than Redis's C client's. */

const t0 = Date.now();
const deadline = t0 + MAX_RUN_MS;
const timeLeft = () => deadline - Date.now();

// --- arguments

const COUNTS = arg("n", "100000,1000000").split(",").map((s) => Number(s.replace(/_/g, ""))).filter((x) => x > 0);
const QUERIES = Math.max(100, Number(arg("queries", "2000")));

// --- data: members clustered around cities

const CITIES = [
  { name: "Los Angeles", lat: 34.05, lon: -118.24, w: 0.2 },
  { name: "New York", lat: 40.71, lon: -74.0, w: 0.2 },
  { name: "London", lat: 51.51, lon: -0.13, w: 0.14 },
  { name: "Phoenix", lat: 33.45, lon: -112.07, w: 0.12 },
  { name: "Berlin", lat: 52.52, lon: 13.4, w: 0.12 },
  { name: "São Paulo", lat: -23.55, lon: -46.63, w: 0.1 },
  { name: "Sydney", lat: -33.87, lon: 151.21, w: 0.06 },
  { name: "Tokyo", lat: 35.68, lon: 139.69, w: 0.06 },
];
const SPREAD_DEG = 0.15; // one standard deviation, about 16 km

export function makeMembers(n: number, rand: () => number): { ids: string[]; lat: Float64Array; lon: Float64Array } {
  const ids: string[] = new Array(n);
  const lat = new Float64Array(n), lon = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let x = rand(), c = CITIES[0];
    for (const city of CITIES) {
      if ((x -= city.w) < 0) {
        c = city;
        break;
      }
    }
    const r = Math.sqrt(-2 * Math.log(1 - rand())), a = 2 * Math.PI * rand();
    ids[i] = i.toString(16).padStart(28, "0");
    lat[i] = Math.max(-89, Math.min(89, c.lat + r * Math.cos(a) * SPREAD_DEG));
    lon[i] = c.lon + r * Math.sin(a) * SPREAD_DEG / Math.cos(c.lat * Math.PI / 180);
  }
  return { ids, lat, lon };
}

// --- measuring

/**
 * `ask` with every query searched: the index's kept answers (kv/positions/keptSearches.ts,
 * decisions 0206 and 0281) forgotten before each, as Redis keeps none. A viewer's answer asked
 * again while nothing near changed is timed apart (`measure` of `ask` itself).
 */
export function searched<T>(ask: (i: number) => Promise<T>, forget = forgetKeptSearches): (i: number) => Promise<T> {
  return (i) => {
    forget();
    return ask(i);
  };
}

function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

/** Latency: `count` calls one at a time (after a warm-up); throughput: `inflight` callers for PHASE_MS. */
export async function measure(count: number, inflight: number, call: (i: number) => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < Math.min(200, count); i++) await call(i);
  const lat = new Float64Array(count);
  let done = 0;
  const stopAt = Date.now() + Math.min(PHASE_MS * 2, Math.max(1000, timeLeft() / 20));
  for (; done < count && Date.now() < stopAt; done++) {
    const s = performance.now();
    await call(done);
    lat[done] = performance.now() - s;
  }
  const sorted = lat.subarray(0, done).sort();
  const mean = sorted.reduce((a, x) => a + x, 0) / Math.max(1, done);
  let calls = 0, k = 0;
  const t = performance.now();
  const end = t + Math.min(PHASE_MS, Math.max(500, timeLeft() / 20));
  await Promise.all(Array.from({ length: inflight }, async () => {
    while (performance.now() < end && calls < 2_000_000) {
      await call(k++ % count);
      calls++;
    }
  }));
  return {
    p50: percentile(sorted, 0.5) * 1000,
    p99: percentile(sorted, 0.99) * 1000,
    qps: calls / ((performance.now() - t) / 1000),
    n: done,
    mean: mean * 1000,
  };
}

// --- one member count

async function runOne(n: number, redisMissing: string | null, benchMissing: boolean): Promise<Result> {
  const note: string[] = [];
  const rand = rng(n);
  console.log(`\n== ${n.toLocaleString("en-US")} members around ${CITIES.length} cities`);
  const m = makeMembers(n, rand);
  const dir = await Deno.makeTempDir({ prefix: "geo-bench-" });
  const db = await Deno.openKv(`${dir}/positions.kv`);
  tuneStoreFile(`${dir}/positions.kv`); // as the app's openKv does
  let redis: { port: number; child: Deno.ChildProcess; client: Redis } | undefined;
  try {
    // Seed through the bulk import (the same records and change log as reportPosition).
    let seeder: PositionStore | undefined = new PositionStore(db, { secret: "bench" });
    let ts = performance.now();
    for (let i = 0; i < n; i += SEED_CHUNK) {
      if (timeLeft() < 60_000) throw new Error("out of time while seeding");
      const items = [];
      for (let j = i; j < Math.min(n, i + SEED_CHUNK); j++) {
        items.push({ profileId: m.ids[j], lat: m.lat[j], lon: m.lon[j], use: "DEVICE_GPS" as const, hide: false });
      }
      await seeder.import(items);
    }
    const seedMs = performance.now() - ts;
    console.log(`seeded KV in ${(seedMs / 1000).toFixed(1)} s (${fmtRate(n / seedMs * 1000)} bulk)`);
    seeder = undefined;

    // A fresh instance: load the index from KV.
    const store = new PositionStore(db, { secret: "bench" });
    const load = await store.load();
    console.log(
      `index loaded from KV: ${load.members.toLocaleString("en-US")} in ${(load.ms / 1000).toFixed(2)} s ` +
        `(process RSS ${(Deno.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB)`,
    );

    // A fast start: the index's snapshot, then a new process that starts from it (and one that
    // lists every record, the old way), each timed to its first answered query, with its RSS.
    if (START && timeLeft() > 120_000) {
      ts = performance.now();
      const snap = await store.writeSnapshot();
      const snapMs = performance.now() - ts;
      console.log(
        `snapshot written: ${(snap!.bytes / 2 ** 20).toFixed(1)} MiB in ${(snapMs / 1000).toFixed(2)} s`,
      );
      for (const how of ["snapshot", "records"] as const) {
        const out = await new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            "--v8-flags=--expose-gc",
            new URL(import.meta.url).pathname,
            "--start",
            `${dir}/positions.kv`,
            m.ids[0],
            how,
          ],
          stdout: "piped",
          stderr: "inherit",
        }).output();
        const r = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
        startRows.push({ n, how, ...r });
        console.log(
          `start from ${r.from}: first answer after ${(r.firstAnswerMs / 1000).toFixed(2)} s, index RSS ${
            r.indexRssMiB.toFixed(0)
          } MiB after a GC, ${r.indexRssNoGcMiB.toFixed(0)} MiB before (process ${r.rssMiB.toFixed(0)} MiB)`,
        );
      }
    }

    // The same shown points into Redis.
    // Shown points as two typed arrays (a million small objects would only feed the GC).
    const shownLat = new Float64Array(n), shownLon = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const p = (await store.shown(m.ids[i]))!;
      shownLat[i] = p.lat;
      shownLon[i] = p.lon;
    }
    const shown = (i: number) => ({ lat: shownLat[i], lon: shownLon[i] });
    let redisLoadMs = NaN;
    if (!redisMissing) {
      const r = await startRedis();
      redis = r;
      ts = performance.now();
      const batch: (string | number)[][] = [];
      const pending: Promise<Reply[]>[] = [];
      for (let i = 0; i < n; i += 500) {
        const cmd: (string | number)[] = ["GEOADD", KEY];
        for (let j = i; j < Math.min(n, i + 500); j++) cmd.push(shownLon[j], shownLat[j], m.ids[j]);
        batch.push(cmd);
        if (batch.length === 20) {
          pending.push(r.client.pipeline(batch.splice(0)));
          if (pending.length > 4) await pending.shift();
        }
      }
      if (batch.length) pending.push(r.client.pipeline(batch));
      await Promise.all(pending);
      redisLoadMs = performance.now() - ts;
      const card = await r.client.command("ZCARD", KEY);
      if (card !== n) throw new Error(`redis holds ${card} members, expected ${n}`);
      console.log(`redis GEOADD (pipelined): ${(redisLoadMs / 1000).toFixed(2)} s`);
    }

    // Viewers: random members (so mostly where members are dense).
    const viewers = Array.from({ length: QUERIES }, () => Math.floor(rand() * n));
    const box = (i: number) => {
      const p = shown(viewers[i]);
      const dLon = BOX_HALF_DEG / Math.cos(p.lat * Math.PI / 180);
      return { latMin: p.lat - BOX_HALF_DEG, latMax: p.lat + BOX_HALF_DEG, lonMin: p.lon - dLon, lonMax: p.lon + dLon };
    };
    const boxMeters = 2 * BOX_HALF_DEG * METERS_PER_DEGREE;

    // Sanity: both sides agree on the nearest 30 (same points, same metric up to Redis' geohash precision).
    let agree = 0, checked = 0;
    for (let i = 0; i < 20 && redis; i++) {
      const v = viewers[i];
      const ours = (await store.nearest(m.ids[v], { size: 30 })).items.map((x) => x.profileId);
      const theirs = (await redisNearest(redis.client, shown(v), m.ids[v], 250)).map((x) => x[0] as string);
      agree += ours.filter((id) => theirs.includes(id)).length;
      checked += 30;
    }
    if (checked) console.log(`nearest-30 overlap with Redis: ${(100 * agree / checked).toFixed(1)} % of ids`);

    const ourNearest = await measure(QUERIES, 1, searched((i) => store.nearest(m.ids[viewers[i]], { size: 30 })));
    const ourBounds = await measure(
      QUERIES,
      1,
      searched((i) => store.byBounds({ ...box(i), size: 800 }, m.ids[viewers[i]])),
    );
    console.log(
      `ours: nearest-30 p50 ${fmtUs(ourNearest.p50)}, by-bounds-800 p50 ${
        fmtUs(ourBounds.p50)
      } (load ${loadAverageText()})`,
    );

    // Redis answered by its own C client (redis-benchmark, one connection, one request at a time):
    // the same shown points, from PEER_POINTS viewers, the same points our index answers below.
    const redisNearestStats: [string, Stats][] = [];
    const redisBoundsStats: [string, Stats][] = [];
    const P = Math.min(PEER_POINTS, viewers.length);
    let pingP50 = NaN;
    const perPoint = Math.max(100, Math.floor(QUERIES / P));
    const peerNearest = (i: number) => store.nearest(m.ids[viewers[i % P]], { size: 30 });
    const samePointsNearest = await measure(P * perPoint, 1, searched(peerNearest));
    const samePointsBounds = await measure(
      P * perPoint,
      1,
      searched((i) => store.byBounds({ ...box(i % P), size: 800 }, m.ids[viewers[i % P]])),
    );
    // Each point's nearest-30 asked again with nothing changed: its kept search, not judged.
    const againNearest = await measure(P * perPoint, 1, peerNearest);
    console.log(
      `ours on the ${P} peer points, each searched: nearest-30 p50 ${fmtUs(samePointsNearest.p50)}, by-bounds-800 p50 ${
        fmtUs(samePointsBounds.p50)
      }; nearest-30 asked again (kept) p50 ${fmtUs(againNearest.p50)} (load ${loadAverageText()})`,
    );
    if (redis && !benchMissing) {
      // Nearest 30 in one query: the radius that holds 31 members (the viewer too) for each point,
      // found first with this file's client; redis-benchmark then times that single query.
      const radii: number[] = [];
      for (let i = 0; i < P; i++) {
        let r = 250;
        while (r < 160_000 && (await redisNearest(redis.client, shown(viewers[i]), m.ids[viewers[i]], r)).length < 30) {
          r *= 2;
        }
        radii.push(r);
      }
      const over = async (label: string, cmd: (i: number) => (string | number)[]) => {
        // Redis's own time in the command, without the round trip: its INFO commandstats over
        // exactly this variant's calls (the counters reset just before).
        await redis!.client.command("CONFIG", "RESETSTAT");
        const s = await redisBenchmark(redis!.port, P, perPoint, cmd);
        s.ownUs = commandUs(String(await redis!.client.command("INFO", "commandstats")), "geosearch");
        console.log(
          `redis-benchmark ${label}: p50 ${fmtUs(s.p50)}, p99 ${fmtUs(s.p99)}; Redis's own time ${
            fmtUs(s.ownUs ?? NaN)
          } a call (INFO commandstats usec_per_call) (load ${loadAverageText()})`,
        );
        return [label, s] as [string, Stats];
      };
      const at = (i: number) => ["FROMLONLAT", shown(viewers[i]).lon, shown(viewers[i]).lat];
      // The floor under every Redis figure: a PING's round trip through the same client.
      const ping = await redisBenchmark(redis.port, 1, P * perPoint, () => ["PING"]);
      note.push(`redis-benchmark PING (the round trip under every Redis figure): p50 ${fmtUs(ping.p50)}`);
      pingP50 = ping.p50;
      redisNearestStats.push(
        await over(
          "BYRADIUS ASC COUNT 31",
          (i) => ["GEOSEARCH", KEY, ...at(i), "BYRADIUS", radii[i], "m", "ASC", "COUNT", 31],
        ),
      );
      redisNearestStats.push(
        await over(
          "BYRADIUS ASC COUNT 31 WITHDIST",
          (i) => ["GEOSEARCH", KEY, ...at(i), "BYRADIUS", radii[i], "m", "ASC", "COUNT", 31, "WITHDIST"],
        ),
      );
      redisBoundsStats.push(
        await over(
          "BYBOX ASC COUNT 801 (ids only)",
          (i) => ["GEOSEARCH", KEY, ...at(i), "BYBOX", boxMeters, boxMeters, "m", "ASC", "COUNT", 801],
        ),
      );
      redisBoundsStats.push(
        await over(
          "BYBOX ASC COUNT 801 WITHCOORD",
          (i) => ["GEOSEARCH", KEY, ...at(i), "BYBOX", boxMeters, boxMeters, "m", "ASC", "COUNT", 801, "WITHCOORD"],
        ),
      );
    } else if (redis) note.push(`redis-benchmark missing (apt-get install redis-tools): no Redis query figures`);

    // Writes: members move a little (GPS updates), 256 in flight, with the sync (watch + tail)
    // running. First as the client sends them (spec ProfilePosition: the other, override point
    // included, so the index supplies the rest of the record), then without the other point,
    // which makes every write read the private record first. Each phase moves different members.
    store.startSync();
    const moves = Array.from({ length: 4096 }, () => [(rand() - 0.5) * 0.002, (rand() - 0.5) * 0.002]);
    let k = 0;
    const writePhase = async (fullBody: boolean, label = "") => {
      let writes = 0;
      const cpu0 = processCpuMs(), wait0 = processWaitMs();
      const t1 = performance.now();
      const end = t1 + Math.min(WRITE_MS, Math.max(1000, timeLeft() / 20));
      await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, async () => {
        while (performance.now() < end && writes < WRITE_MAX) {
          const i = (k * 7919 + 13) % n;
          const d = moves[k++ % moves.length];
          const lat = m.lat[i] + d[0], lon = m.lon[i] + d[1];
          await store.report(
            m.ids[i],
            fullBody
              ? {
                lat,
                lon,
                use: "DEVICE_GPS",
                hide: false,
                gpsTimestamp: Date.now(),
                overrideLat: null,
                overrideLon: null,
              }
              : { lat, lon, use: "DEVICE_GPS", hide: false },
          );
          writes++;
        }
      }));
      const secs = (performance.now() - t1) / 1000;
      console.log(
        `ours (${fullBody ? "client body" : "no other point"}${label ? `, ${label}` : ""}): ${
          fmtRate(writes / secs)
        } position writes (${writes} in ${secs.toFixed(1)} s, load ${loadAverageText()}); CPU ${
          ((processCpuMs() - cpu0) * 1000 / writes).toFixed(0)
        } µs a write, ${(processCpuMs() - cpu0).toFixed(0)} ms CPU and ${
          (processWaitMs() - wait0).toFixed(0)
        } ms waiting for a core over ${(secs * 1000).toFixed(0)} ms`,
      );
      return writes / secs;
    };
    const ourWrites = await writePhase(true);
    const loadQuiet = loadAverageText();
    const redisWrites = redis && !benchMissing ? await redisGeoadd(redis.port, n) : NaN;
    const ourWritesRead = await writePhase(false);
    // The same with the other core taken by a busy loop (a process of its own), Redis too.
    const burner = burnCpu(1);
    let ourWritesBusy = NaN, redisWritesBusy = NaN, loadBusy = "";
    try {
      await new Promise((r) => setTimeout(r, 500));
      ourWritesBusy = await writePhase(true, "one core burning");
      loadBusy = loadAverageText();
      if (redis && !benchMissing) redisWritesBusy = await redisGeoadd(redis.port, n);
    } finally {
      burner.stop();
    }
    await store.stopSync();
    console.log(
      `Redis GEOADD (redis-benchmark -P ${GEOADD_PIPELINE}): ${fmtRate(redisWrites)} quiet (load ${loadQuiet}), ` +
        `${fmtRate(redisWritesBusy)} with a core burning (load ${loadBusy})`,
    );

    return report({
      n,
      queries: QUERIES,
      peerPoints: P,
      indexLoadMs: load.ms,
      redisLoadMs,
      ourNearest,
      ourBounds,
      samePointsNearest,
      samePointsBounds,
      againNearest,
      redisNearestStats,
      redisBoundsStats,
      pingP50,
      writeConcurrency: WRITE_CONCURRENCY,
      ourWrites,
      ourWritesBusy,
      ourWritesRead,
      redisWrites,
      redisWritesBusy,
      loadQuiet,
      loadBusy,
    }, note);
  } finally {
    if (redis) {
      await redis.client.close().catch(() => {});
      redis.child.kill("SIGTERM");
      await redis.child.status;
    }
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
}

// --- a fast start (a subprocess: its own RSS): `--start <kv file> <viewer id> snapshot|records`

interface StartRow {
  n: number;
  how: "snapshot" | "records";
  from: string;
  firstAnswerMs: number;
  /** Process RSS growth from before opening KV to after the first answer and a full GC. */
  indexRssMiB: number;
  /** The same before that GC (garbage of the load still held). */
  indexRssNoGcMiB: number;
  rssMiB: number;
}
const startRows: StartRow[] = [];

if (import.meta.main && Deno.args[0] === "--start") {
  const [, path, viewer, how] = Deno.args;
  const db = await Deno.openKv(path);
  const rss0 = Deno.memoryUsage().rss;
  const t = performance.now();
  const store = new PositionStore(db, { secret: "bench", snapshots: how === "snapshot" });
  const load = await store.load();
  await store.nearest(viewer, { size: 30 });
  const firstAnswerMs = performance.now() - t;
  const rssNoGc = Deno.memoryUsage().rss;
  // The load's garbage (the snapshot's bytes) is freed by a full GC; the engine frees an array
  // buffer's memory on a background thread, hence the short wait.
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const rss = Deno.memoryUsage().rss;
  console.log(
    JSON.stringify({
      from: load.from,
      firstAnswerMs,
      indexRssMiB: (rss - rss0) / 2 ** 20,
      indexRssNoGcMiB: (rssNoGc - rss0) / 2 ** 20,
      rssMiB: rss / 2 ** 20,
    }),
  );
  db.close();
  Deno.exit(0);
}

// --- main

if (import.meta.main) {
  const redisMissing = await ensureRedis();
  if (redisMissing) console.log(`Redis columns skipped: ${redisMissing}`);
  const benchMissing = !redisMissing && !(await haveCommand("redis-benchmark"));
  if (benchMissing) {
    console.log("redis-benchmark is not installed (apt-get install redis-tools): Redis figures skipped");
  }
  console.log(`load average at start: ${loadAverageText()}`);
  console.log(
    `bench/geo: ${Deno.build.os}/${Deno.build.arch}, ${navigator.hardwareConcurrency} cores, Deno ${Deno.version.deno}, ` +
      `${QUERIES} queries per cell, counts ${COUNTS.join(", ")}`,
  );
  const results: Result[] = [];
  for (const n of COUNTS) {
    if (timeLeft() < 90_000) {
      console.log(`stopping before N=${n}: the run is near its ${MAX_RUN_MS / 60_000} min bound`);
      break;
    }
    results.push(await runOne(n, redisMissing, benchMissing));
  }
  for (const r of results) {
    console.log("\n" + table(r.rows));
    for (const line of r.note) console.log(`  ${line}`);
  }
  if (startRows.length) {
    console.log("\nA fresh instance, timed to its first answered nearest-30 (a new process each):\n");
    console.log("| members | start from | first answer | index RSS (after a GC) | before the GC | process RSS |");
    console.log("|---|---|---|---|---|---|");
    for (const r of startRows) {
      console.log(
        `| ${r.n.toLocaleString("en-US")} | ${r.from} | ${(r.firstAnswerMs / 1000).toFixed(2)} s | ${
          r.indexRssMiB.toFixed(0)
        } MiB | ${r.indexRssNoGcMiB.toFixed(0)} MiB | ${r.rssMiB.toFixed(0)} MiB |`,
      );
    }
  }
  const yesNo = (ok: boolean | undefined) => ok === undefined ? "n/a" : ok ? "yes" : "NO";
  console.log("\nTargets:");
  for (const r of results) {
    console.log(
      `  N=${r.n.toLocaleString("en-US")}: p50 ${BOUNDS_FACTOR}× faster than Redis' C client: nearest-30 ${
        r.nearestOk ? "yes" : "NO"
      }, by-bounds-800 ${r.boundsOk ? "yes" : "NO"}; than Redis's own time a call: nearest-30 ${
        yesNo(r.nearestOwnOk)
      }, by-bounds-800 ${yesNo(r.boundsOwnOk)}; writes ≥ 20,000/s quiet: ${r.writes >= 20_000 ? "yes" : "NO"} (${
        fmtRate(r.writes)
      }), ≥ 5,000/s with a core burning: ${r.writesBusy >= 5000 ? "yes" : "NO"} (${fmtRate(r.writesBusy)}); ${
        fmtRate(r.writesRead)
      } reading first`,
    );
  }
  console.log(`total ${((Date.now() - t0) / 1000).toFixed(0)} s; load average at end: ${loadAverageText()}`);
  const [l1, l5, l15] = Deno.loadavg();
  await reportRows(arg("name", "geo"), results.flatMap((r) => r.figures), {
    note: `bench/geo.ts, ${QUERIES} queries per cell, counts ${COUNTS.join(", ")}`,
    load: [l1, Math.max(l1, l5, l15)],
  });
}
