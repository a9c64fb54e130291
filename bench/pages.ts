/**
 * Server CPU a page: the app (main.ts, one process) renders public pages in turn, once with React's
 * production build (`NODE_ENV=production`, as `deno task start` runs it: decision 0196) and once with
 * its development build (`deno task dev`),
 * alternating in the same rounds, the server's own CPU from /proc over the pages answered.
 *
 * Run: `deno run -A bench/pages.ts [--pages 100] [--rounds 3] [--record]` (or through `deno task bench`).
 */

import { arg, loadAverageText, pct, processCpuMs, reportRows, type ResultRow, startApp } from "./kit.ts";

const PAGES = ["/", "/aboutus", "/register", "/login"];
const N = Number(arg("pages", "100"));
const ROUNDS = Number(arg("rounds", "3"));
const BUILDS = { production: { NODE_ENV: "production" }, development: { NODE_ENV: "development" } } as const;

const kvPath = await Deno.makeTempFile({ suffix: ".kv" });
const perPage: Record<keyof typeof BUILDS, number[]> = { production: [], development: [] };
const loads: number[] = [Deno.loadavg()[0]];
try {
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of Object.keys(BUILDS) as (keyof typeof BUILDS)[]) {
      const app = await startApp(kvPath, BUILDS[build]);
      try {
        const all = async (times: number) => {
          for (let i = 0; i < times; i++) {
            for (const p of PAGES) await (await fetch(app.origin + p)).arrayBuffer();
          }
        };
        await all(Math.max(5, N / 4)); // warm: compiled, kept
        const before = processCpuMs(app.child.pid);
        await all(N);
        perPage[build].push((processCpuMs(app.child.pid) - before) * 1000 / (N * PAGES.length));
      } finally {
        app.child.kill("SIGTERM");
        await app.child.status;
      }
      loads.push(Deno.loadavg()[0]);
    }
  }
} finally {
  await Deno.remove(kvPath).catch(() => {});
}

const prod = pct(perPage.production, 0.5), dev = pct(perPage.development, 0.5);
console.log(`server CPU a public page (${PAGES.join(", ")}), median of ${ROUNDS} rounds of ${N} each:`);
console.log(`  React production build: ${prod.toFixed(0)} µs; development build: ${dev.toFixed(0)} µs`);
console.log(`  load ${loadAverageText()}`);
const rows: ResultRow[] = [{
  bench: "pages",
  metric: "public page, React production build: server CPU a page",
  unit: "µs",
  value: Math.round(prod),
  peer: "React development build (same rounds)",
  peerValue: Math.round(dev),
  better: "lower",
}];
await reportRows("pages", rows, {
  note: `bench/pages.ts, ${PAGES.length} public pages, ${ROUNDS} rounds of ${N}`,
  load: [Math.min(...loads), Math.max(...loads)],
});
