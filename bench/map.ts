/**
 * What the map should ask for the members in its view, at 100k members: the view's box
 * with size 800 (`byBounds`, what the map asks) beside every 1-degree sector the view touches at
 * size 1500 (`bySector`, the spec's sector call), cut to the view afterwards as a client would.
 * Both at the store level (the position index), in the same run, with the answer size in bytes.
 *
 * Run: `deno run -A bench/map.ts [--n 100000] [--queries 300]`. Seeds a temp KV file (deleted
 * after); bounded in time; touches no network.
 */

import { PositionStore } from "../kv/positions/mod.ts";
import { mulberry32 as rng } from "../kv/random.ts";
import { arg, pct, reportRows, type ResultRow } from "./kit.ts";
import { tuneStoreFile } from "../kv/storeFile.ts";

const N = Number(arg("n", "100000"));
const QUERIES = Number(arg("queries", "300"));

/** Members around two cities, as bench/geo.ts spreads them (one standard deviation about 16 km). */
const CITIES = [{ lat: 34.05, lon: -118.24 }, { lat: 40.71, lon: -74.0 }];
const SPREAD = 0.15;

/** Map views: half-heights and half-widths in degrees (a phone at zoom 14, a desktop at zoom 13). */
const VIEWS = [
  { name: "phone, zoom 14", dLat: 0.012, dLon: 0.008 },
  { name: "desktop, zoom 13", dLat: 0.03, dLon: 0.06 },
  { name: "desktop, zoom 11", dLat: 0.12, dLon: 0.24 },
];

const us = (ms: number) => `${Math.round(ms * 1000)} µs`;

const rand = rng(42);
const dir = await Deno.makeTempDir({ prefix: "map-bench-" });
const db = await Deno.openKv(`${dir}/map.kv`);
tuneStoreFile(`${dir}/map.kv`); // as the app's openKv does
try {
  const seeder = new PositionStore(db, { secret: "bench" });
  for (let i = 0; i < N; i += 30_000) {
    const items = [];
    for (let j = i; j < Math.min(N, i + 30_000); j++) {
      const c = CITIES[j % CITIES.length];
      const r = Math.sqrt(-2 * Math.log(1 - rand())), a = 2 * Math.PI * rand();
      items.push({
        profileId: j.toString(16).padStart(28, "0"),
        lat: c.lat + r * Math.cos(a) * SPREAD,
        lon: c.lon + r * Math.sin(a) * SPREAD / Math.cos(c.lat * Math.PI / 180),
        use: "DEVICE_GPS" as const,
        hide: false,
      });
    }
    await seeder.import(items);
  }
  const store = new PositionStore(db, { secret: "bench" });
  await store.load();
  const viewer = "f".repeat(28);
  await store.report(viewer, { lat: CITIES[0].lat, lon: CITIES[0].lon, use: "OVERRIDE", hide: false });

  const rows: string[][] = [];
  const figures: ResultRow[] = [];
  for (const v of VIEWS) {
    const bounds: number[] = [], sectors: number[] = [], bBytes: number[] = [], sBytes: number[] = [];
    let bItems = 0, sItems = 0, sCalls = 0;
    for (let q = 0; q < QUERIES; q++) {
      const c = CITIES[q % CITIES.length];
      const lat = c.lat + (rand() - 0.5) * 0.3, lon = c.lon + (rand() - 0.5) * 0.3;
      const box = { latMin: lat - v.dLat, latMax: lat + v.dLat, lonMin: lon - v.dLon, lonMax: lon + v.dLon };
      let t = performance.now();
      const b = await store.byBounds({ ...box, page: 0, size: 800 }, viewer);
      bounds.push(performance.now() - t);
      bItems += b.items.length;
      bBytes.push(JSON.stringify(b.items).length);
      // The sectors the view touches, each at size 1500, then cut to the view.
      t = performance.now();
      const all = [];
      for (let sl = Math.floor(box.latMin); sl <= Math.floor(box.latMax); sl++) {
        for (let so = Math.floor(box.lonMin); so <= Math.floor(box.lonMax); so++) {
          const page = await store.bySector(`${sl}:${so}`, { page: 0, size: 1500 }, viewer);
          all.push(...page.items);
          sCalls++;
        }
      }
      sectors.push(performance.now() - t);
      sBytes.push(JSON.stringify(all).length);
      sItems += all.filter((it) =>
        it.lat >= box.latMin && it.lat <= box.latMax && it.lon >= box.lonMin && it.lon <= box.lonMax
      ).length;
    }
    figures.push(
      {
        bench: "map",
        metric: `by-bounds 800 p99, ${v.name}, ${N} members`,
        unit: "µs",
        value: Math.round(pct(bounds, 0.99) * 1000),
        better: "lower",
      },
      {
        bench: "map",
        metric: `by-bounds 800 answer, ${v.name}, ${N} members`,
        unit: "KB",
        value: Math.round(pct(bBytes, 0.5) / 1024),
        better: "lower",
      },
    );
    rows.push([
      v.name,
      `${us(pct(bounds, 0.5))} / ${us(pct(bounds, 0.99))}`,
      `${Math.round(pct(bBytes, 0.5) / 1024)} KB`,
      String(Math.round(bItems / QUERIES)),
      `${us(pct(sectors, 0.5))} / ${us(pct(sectors, 0.99))}`,
      `${Math.round(pct(sBytes, 0.5) / 1024)} KB`,
      (sCalls / QUERIES).toFixed(1),
      String(Math.round(sItems / QUERIES)),
    ]);
  }
  const [l1, l5, l15] = Deno.loadavg();
  console.log(`\n${N.toLocaleString("en-US")} members, ${QUERIES} views each; load average ${l1} ${l5} ${l15}`);
  const head = [
    "view",
    "by-bounds 800 p50 / p99",
    "answer",
    "in view",
    "by-sector 1500 p50 / p99",
    "answers",
    "sectors",
    "in view",
  ];
  console.log(`| ${head.join(" | ")} |\n|${head.map(() => "---").join("|")}|`);
  for (const r of rows) console.log(`| ${r.join(" | ")} |`);
  await reportRows("map", figures, {
    note: `bench/map.ts, ${N} members, ${QUERIES} views each`,
    load: [l1, Math.max(l1, l5, l15)],
  });
} finally {
  db.close();
  await Deno.remove(dir, { recursive: true });
}
