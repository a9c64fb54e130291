/**
 * Position writes from an instance that did not make the members' last writes: a store seeded
 * with members, then two instances in turn on the same KV file. The first (loaded from the
 * records) moves members a few metres, again and again: quiet writes, the shown point unchanged.
 * Then a second, started after them (a restart, or another instance behind the balancer), moves
 * the members the first moved, in another order: in the first's order each of its commits would
 * meet the store's pages (the expiry index's above all) just as the first's commit left them
 * together, which members' phones reporting in their own time do not. Each phase: writes a second, the JavaScript thread's and the
 * SQLite writer's CPU a write, and the commits that failed a check. With `--before DIR` (a checkout
 * of an earlier commit, its modules installed) the same run is made with that checkout's position
 * store, alternating, in the same rounds. Each round ends with Redis GEOADD pipelined (`redis-benchmark
 * -P 16`, as bench/geo.ts runs it) on a Redis started for the run: its writes a second and its
 * server's CPU a write, and ours as a ratio to it (left out, and said, when Redis is not installed).
 * Each phase also prints what a write costs the store: its checks, sets, deletes and bytes of
 * values (the atomics counted), and the SQLite writer thread's system calls that read and write
 * the file and its log, and the bytes it wrote (/proc's I/O counts of that thread). With
 * `--burn N`, N busy loops take cores for the whole run, ours and Redis's alike; with `--swap`, this
 * checkout's run comes first in each round.
 *
 * Run: `deno run -A bench/position_writes.ts [--n 100000] [--ms 6000] [--rounds 2] [--before DIR]
 * [--swap] [--burn 1] [--record] [--name position-writes]` (`--name`: the results file's,
 * bench/results/<date>-<name>.json).
 */

import {
  arg,
  burnCpu,
  loadAverageText,
  processCpuMs,
  reportRowsBeside,
  type ResultRow,
  threadCpuMs,
  threadIo,
} from "./kit.ts";
import { GEOADD_PIPELINE, haveCommand, redisGeoadd, startRedis } from "./redis.ts";
import { mulberry32 as rng } from "../kv/random.ts";
import { tuneStoreFile } from "../kv/storeFile.ts";
import { countingCommits } from "../tests/kv.ts";

const root = new URL("..", import.meta.url).pathname;
const N = Number(arg("n", "100000"));
const MS = Number(arg("ms", "6000"));
const ROUNDS = Number(arg("rounds", "2"));
const CONCURRENCY = 256;
const NAME = arg("name", "position-writes");
const BURN = Number(arg("burn", "0"));
/** The GEOADDs redis-benchmark sends in a round (bench/redis.ts). */
const GEOADDS = 200_000;

interface Phase {
  writes: number;
  perSecond: number;
  jsUs: number;
  sqliteUs: number;
  failedChecks: number;
  commits: number;
  /** A write's share of the atomics' checks, sets, deletes and bytes of values set as bytes. */
  checks: number;
  sets: number;
  deletes: number;
  valueBytes: number;
  /** A write's share of the SQLite writer's system calls that read and that write, and bytes written. */
  sqliteReads: number;
  sqliteWrites: number;
  sqliteBytesWritten: number;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** One run with the position store of checkout `from`: seed, the first instance's writes, the second's. */
async function child(from: string): Promise<{ first: Phase; second: Phase }> {
  const { PositionStore } = await import(`${from}/kv/positions/mod.ts`);
  const rand = rng(N);
  const ids: string[] = [], lat = new Float64Array(N), lon = new Float64Array(N);
  for (let i = 0; i < N; i++) {
    ids.push(i.toString(16).padStart(28, "0"));
    lat[i] = 40.7 + (rand() - 0.5) * 0.6;
    lon[i] = -74 + (rand() - 0.5) * 0.8;
  }
  const dir = await Deno.makeTempDir({ prefix: "position-writes-" });
  const path = `${dir}/positions.kv`;
  const db = await Deno.openKv(path);
  tuneStoreFile(path);
  const { db: counted, commits } = countingCommits(db);
  try {
    const seeder = new PositionStore(db, { secret: "bench" });
    for (let i = 0; i < N; i += 30_000) {
      const items = [];
      for (let j = i; j < Math.min(N, i + 30_000); j++) {
        items.push({ profileId: ids[j], lat: lat[j], lon: lon[j], use: "DEVICE_GPS", hide: false });
      }
      await seeder.import(items);
    }
    const moves = Array.from({ length: 4096 }, () => [(rand() - 0.5) * 0.0002, (rand() - 0.5) * 0.0002]);
    /** One instance's writes, the `k`th to member `order(k)`. */
    const phase = async (order: (k: number) => number): Promise<Phase> => {
      const store = new PositionStore(counted, { secret: "bench" });
      await store.load();
      store.startSync();
      const t0 = threadCpuMs(), c0 = { ...commits }, io0 = threadIo().get("sw-0");
      let writes = 0, k = 0;
      const start = performance.now(), end = start + MS;
      await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
        while (performance.now() < end) {
          // Members in a scattered order, as their phones report (bench/geo.ts's order).
          const i = order(k), d = moves[k++ % moves.length];
          await store.report(ids[i], {
            lat: lat[i] + d[0],
            lon: lon[i] + d[1],
            use: "DEVICE_GPS",
            hide: false,
            gpsTimestamp: Date.now(),
            overrideLat: null,
            overrideLon: null,
          });
          writes++;
        }
      }));
      const secs = (performance.now() - start) / 1000;
      const t1 = threadCpuMs(), io1 = threadIo().get("sw-0");
      await store.stopSync();
      const us = (name: string) => ((t1.get(name) ?? 0) - (t0.get(name) ?? 0)) * 1000 / writes;
      const io = (k: "syscr" | "syscw" | "write_bytes") => ((io1?.[k] ?? NaN) - (io0?.[k] ?? NaN)) / writes;
      const share = (k: "checks" | "sets" | "deletes" | "byteValues") => (commits[k] - c0[k]) / writes;
      return {
        writes,
        perSecond: writes / secs,
        jsUs: us("deno"),
        sqliteUs: us("sw-0"),
        failedChecks: commits.failed - c0.failed,
        commits: commits.all - c0.all,
        checks: share("checks"),
        sets: share("sets"),
        deletes: share("deletes"),
        valueBytes: share("byteValues"),
        sqliteReads: io("syscr"),
        sqliteWrites: io("syscw"),
        sqliteBytesWritten: io("write_bytes"),
      };
    };
    const scattered = (k: number) => (k * 7919 + 13) % N;
    const first = await phase(scattered);
    // The members the first wrote, by a stride prime to their number (so each comes once a pass).
    const w = Math.max(1, Math.min(first.writes, N));
    let stride = 4099;
    while (gcd(stride, w) !== 1) stride += 2;
    const second = await phase((k) => scattered((k * stride) % w));
    return { first, second };
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  if (Deno.args.includes("--child")) {
    console.log(JSON.stringify(await child(arg("from", root))));
  } else {
    const before = Deno.args.includes("--before") ? arg("before", "") : "";
    const runs: { label: string; from: string }[] = [
      ...(before ? [{ label: "before", from: before.replace(/\/$/, "") }] : []),
      { label: "after", from: root.replace(/\/$/, "") },
    ];
    // `--swap`: this checkout first in each round, the earlier one second.
    if (Deno.args.includes("--swap")) runs.reverse();
    const got = new Map<string, { first: Phase; second: Phase }[]>();
    const load0 = Number(loadAverageText().split(" ")[0]);
    const burning = BURN > 0 ? `, ${BURN} core${BURN > 1 ? "s" : ""} burning` : "";
    const redis = await haveCommand("redis-server") && await haveCommand("redis-benchmark") ? await startRedis() : null;
    if (!redis) console.log("redis-server or redis-benchmark missing: no Redis GEOADD beside ours");
    const redisRounds: { perSecond: number; cpuUs: number }[] = [];
    const burner = BURN > 0 ? burnCpu(BURN) : null;
    try {
      for (let r = 0; r < ROUNDS; r++) {
        for (const run of runs) {
          const out = await new Deno.Command(Deno.execPath(), {
            args: ["run", "-A", "--config", `${root}deno.json`, new URL(import.meta.url).pathname, "--child"]
              .concat(["--from", run.from, "--n", String(N), "--ms", String(MS)]),
            stdout: "piped",
            stderr: "inherit",
          }).output();
          const res = JSON.parse(new TextDecoder().decode(out.stdout).trim().split("\n").pop()!);
          got.set(run.label, [...got.get(run.label) ?? [], res]);
          const line = (p: Phase) =>
            `${(p.perSecond / 1000).toFixed(1)} k/s, ${p.jsUs.toFixed(0)} µs JS + ${p.sqliteUs.toFixed(0)} µs SQLite ` +
            `a write, ${p.failedChecks} of ${p.commits} commits failed a check; a write: 1/${
              (p.writes / p.commits).toFixed(0)
            } of a commit, ${p.checks.toFixed(2)} checks, ${p.sets.toFixed(2)} sets, ${p.deletes.toFixed(2)} deletes, ${
              p.valueBytes.toFixed(0)
            } bytes of values; SQLite's thread ${p.sqliteReads.toFixed(1)} reads and ${
              p.sqliteWrites.toFixed(1)
            } writes (system calls), ${(p.sqliteBytesWritten / 1024).toFixed(1)} KiB written`;
          console.log(
            `round ${r + 1} ${run.label} (load ${loadAverageText()}): first instance ${line(res.first)}; ` +
              `a new instance after them ${line(res.second)}`,
          );
        }
        if (redis) {
          const cpu0 = processCpuMs(redis.child.pid);
          const perSecond = await redisGeoadd(redis.port, N);
          const cpuUs = (processCpuMs(redis.child.pid) - cpu0) * 1000 / GEOADDS;
          redisRounds.push({ perSecond, cpuUs });
          console.log(
            `round ${r + 1} Redis GEOADD (redis-benchmark -P ${GEOADD_PIPELINE}, load ${loadAverageText()}): ${
              (perSecond / 1000).toFixed(1)
            } k/s, ${cpuUs.toFixed(1)} µs of its server's CPU a write`,
          );
        }
      }
    } finally {
      burner?.stop();
      if (redis) {
        await redis.client.close().catch(() => {});
        redis.child.kill("SIGTERM");
        await redis.child.status;
      }
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const redisRate = redisRounds.length ? median(redisRounds.map((x) => x.perSecond)) : NaN;
    const rowsOf = (label: string): ResultRow[] => [
      ...(["first", "second"] as const).flatMap((which) => {
        const rs = got.get(label) ?? [];
        const what = (which === "first" ? "the instance that seeded" : "a new instance after quiet writes") + burning;
        const rate = median(rs.map((x) => x[which].perSecond));
        return [
          {
            bench: "position-writes",
            metric: `position writes, ${what}, ${N.toLocaleString("en-US")} members`,
            unit: "writes/s",
            value: Math.round(rate),
            better: "higher" as const,
          },
          {
            bench: "position-writes",
            metric: `CPU a position write (JS + SQLite), ${what}`,
            unit: "µs",
            value: Math.round(median(rs.map((x) => x[which].jsUs + x[which].sqliteUs))),
            better: "lower" as const,
          },
          ...(redisRounds.length
            ? [{
              bench: "position-writes",
              metric: `position writes ÷ Redis GEOADD pipelined (-P ${GEOADD_PIPELINE}), ${what}`,
              unit: "×",
              value: Math.round(rate / redisRate * 1000) / 1000,
              better: "higher" as const,
            }]
            : []),
        ];
      }),
      ...(redisRounds.length
        ? [{
          bench: "position-writes",
          metric: `Redis GEOADD pipelined (redis-benchmark -P ${GEOADD_PIPELINE}), in memory${burning}`,
          unit: "writes/s",
          value: Math.round(redisRate),
          better: "higher" as const,
        }, {
          bench: "position-writes",
          metric: `Redis GEOADD pipelined: its server's CPU a write${burning}`,
          unit: "µs",
          value: Math.round(median(redisRounds.map((x) => x.cpuUs)) * 10) / 10,
          better: "lower" as const,
        }]
        : []),
    ];
    const load: [number, number] = [load0, Number(loadAverageText().split(" ")[0])];
    const order = before ? (Deno.args.includes("--swap") ? ", this checkout first" : ", the earlier first") : "";
    const note =
      `bench/position_writes.ts, ${N} members, ${MS} ms a phase, ${ROUNDS} rounds (the median)${burning}${order}`;
    await reportRowsBeside(
      NAME,
      rowsOf("after"),
      before ? { dir: before, rows: rowsOf("before") } : null,
      {
        note,
        load,
      },
    );
  }
}
