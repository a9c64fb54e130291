/**
 * How long `deno task seed` takes: the whole seed (palette, members with pictures, positions,
 * likes) of `--n` members (default 10,000) into a fresh KV file in a temp dir (deleted after),
 * in this process, as `deno task seed` runs it. Reports the wall time against the one-minute goal,
 * members per second, and this process's CPU time (beside the load average: on a shared machine
 * the wall time is mostly waiting for a core).
 *
 * Run: `deno run -A bench/seed.ts [--n 10000] [--record]`.
 */

import { closeKv, openKv } from "../kv/db.ts";
import { seed } from "../scripts/seed.ts";
import { arg, loadAverageText, processCpuMs, reportRows, type ResultRow } from "./kit.ts";

const N = Number(arg("n", "10000"));
const dir = await Deno.makeTempDir({ prefix: "bench-seed-" });
// The 1-minute load, read every 5 s throughout (the lowest and highest are recorded).
const loads = [Deno.loadavg()[0]];
const sampler = setInterval(() => loads.push(Deno.loadavg()[0]), 5_000);
console.log(`seeding ${N.toLocaleString("en-US")} members (load ${loadAverageText()})`);
try {
  await openKv(`${dir}/app.kv`);
  const cpu0 = processCpuMs();
  const res = await seed({ n: N, seed: 1, variants: true, log: console.log });
  const cpuS = (processCpuMs() - cpu0) / 1000;
  closeKv();
  loads.push(Deno.loadavg()[0]);
  const s = res.ms / 1000;
  console.log(
    `${res.members} members, ${res.pictures} pictures, ${res.likes + res.picLikes} likes in ${s.toFixed(1)} s ` +
      `(${Math.round(res.members / s)} members/s, ${cpuS.toFixed(1)} s CPU; load ${loadAverageText()})`,
  );
  const rows: ResultRow[] = [
    {
      bench: "seed",
      metric: `seed ${N.toLocaleString("en-US")} members with pictures`,
      unit: "s",
      value: s,
      goal: N >= 10_000 ? 60 : undefined,
      better: "lower",
    },
    { bench: "seed", metric: "members seeded per second", unit: "members/s", value: res.members / s, better: "higher" },
    {
      bench: "seed",
      metric: `CPU of the seed of ${N.toLocaleString("en-US")}`,
      unit: "s",
      value: cpuS,
      better: "lower",
    },
  ];
  await reportRows("seed", rows, {
    note: `deno task seed --n ${N} on a fresh local KV file`,
    load: [Math.min(...loads), Math.max(...loads)],
  });
} finally {
  clearInterval(sampler);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
}
