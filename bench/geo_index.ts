/**
 * The position index's queries as bench/geo.ts times them against Redis (nearest-30 and
 * by-bounds-800 on its peer points: the same members, viewers and boxes), this checkout's index
 * beside an earlier checkout's (`--before DIR`, its modules installed) loaded from the same KV
 * file, in alternating rounds: a change's before and after in one run. The two answer the same
 * (checked on every peer point first). Each query is searched (its checkout's kept searches
 * forgotten first, as bench/geo.ts judges it); nearest-30 asked again with nothing changed (a kept
 * search, where the checkout keeps one) is timed beside, not judged.
 *
 * Run: `deno run -A bench/geo_index.ts [--before DIR] [--n 100000] [--queries 2000] [--rounds 3]
 * [--name geo-index] [--record]`.
 */

import { arg, loadAverageText, reportRowsBeside, type ResultRow } from "./kit.ts";
import { BOX_HALF_DEG, makeMembers, measure, PEER_POINTS, searched, SEED_CHUNK } from "./geo.ts";
import { fmtUs } from "./geoReport.ts";
import type { Stats } from "./redis.ts";
import { mulberry32 as rng } from "../kv/random.ts";
import { tuneStoreFile } from "../kv/storeFile.ts";
import type { BoundsQuery, ImportItem, NearbyPage, ShownPosition } from "../kv/positions/mod.ts";

const root = new URL("..", import.meta.url).pathname;
const N = Number(arg("n", "100000"));
const QUERIES = Math.max(100, Number(arg("queries", "2000")));
const ROUNDS = Math.max(1, Number(arg("rounds", "3")));
const BEFORE = arg("before", "");
const NAME = arg("name", "geo-index");

/** What this bench uses of a checkout's `PositionStore`. */
interface Store {
  import(items: ImportItem[]): Promise<number>;
  load(): Promise<unknown>;
  shown(id: string): Promise<ShownPosition | null>;
  nearest(id: string, o: { size: number }): Promise<NearbyPage>;
  byBounds(q: BoundsQuery, viewerId: string): Promise<NearbyPage>;
  /** Forgets the checkout's kept searches (kv/positions/keptSearches.ts). */
  forget(): void;
}

async function storeOf(from: string, db: Deno.Kv): Promise<Store> {
  const { PositionStore } = await import(`${from}/kv/positions/mod.ts`);
  const { forgetKeptSearches } = await import(`${from}/kv/positions/keptSearches.ts`);
  return Object.assign(new PositionStore(db, { secret: "bench", snapshots: false }), { forget: forgetKeptSearches });
}

if (import.meta.main) {
  // The members and viewers of bench/geo.ts for this count (the same generator, in the same order).
  const rand = rng(N);
  const m = makeMembers(N, rand);
  const viewers = Array.from({ length: QUERIES }, () => Math.floor(rand() * N));
  const P = Math.min(PEER_POINTS, viewers.length), perPoint = Math.max(100, Math.floor(QUERIES / P));
  const dir = await Deno.makeTempDir({ prefix: "geo-index-bench-" });
  const db = await Deno.openKv(`${dir}/positions.kv`);
  tuneStoreFile(`${dir}/positions.kv`);
  try {
    const seeder = await storeOf(root, db);
    for (let i = 0; i < N; i += SEED_CHUNK) {
      const items: ImportItem[] = [];
      for (let j = i; j < Math.min(N, i + SEED_CHUNK); j++) {
        items.push({ profileId: m.ids[j], lat: m.lat[j], lon: m.lon[j], use: "DEVICE_GPS", hide: false });
      }
      await seeder.import(items);
    }
    const checkouts: [string, Store][] = [["this checkout", await storeOf(root, db)]];
    if (BEFORE) checkouts.push([`before (${BEFORE})`, await storeOf(BEFORE, db)]);
    for (const [, store] of checkouts) await store.load();
    const store = checkouts[0][1];
    const boxes: BoundsQuery[] = [];
    for (let i = 0; i < P; i++) {
      const p = (await store.shown(m.ids[viewers[i]]))!;
      const dLon = BOX_HALF_DEG / Math.cos(p.lat * Math.PI / 180);
      boxes.push({
        latMin: p.lat - BOX_HALF_DEG,
        latMax: p.lat + BOX_HALF_DEG,
        lonMin: p.lon - dLon,
        lonMax: p.lon + dLon,
        size: 800,
      });
    }
    const nearest = (s: Store, i: number) => s.nearest(m.ids[viewers[i % P]], { size: 30 });
    const bounds = (s: Store, i: number) => s.byBounds(boxes[i % P], m.ids[viewers[i % P]]);
    if (BEFORE) {
      for (let i = 0; i < P; i++) {
        for (const ask of [nearest, bounds]) {
          const [a, b] = await Promise.all(checkouts.map(([, s]) => ask(s, i)));
          if (JSON.stringify(a) !== JSON.stringify(b)) {
            throw new Error(`the two checkouts answer peer point ${i} apart`);
          }
        }
      }
      console.log(`the two checkouts answer the same on the ${P} peer points (nearest-30 and by-bounds-800)`);
    }
    const stats = new Map<string, { nearest: Stats[]; bounds: Stats[]; again: Stats[] }>();
    for (let r = 0; r < ROUNDS; r++) {
      for (const [label, s] of r % 2 ? checkouts.toReversed() : checkouts) {
        const near = await measure(P * perPoint, 1, searched((i) => nearest(s, i), s.forget));
        const box = await measure(P * perPoint, 1, searched((i) => bounds(s, i), s.forget));
        const again = await measure(P * perPoint, 1, (i) => nearest(s, i));
        const kept = stats.get(label) ?? { nearest: [], bounds: [], again: [] };
        kept.nearest.push(near);
        kept.bounds.push(box);
        kept.again.push(again);
        stats.set(label, kept);
        console.log(
          `round ${r + 1}, ${label}: nearest-30 p50 ${fmtUs(near.p50)} (mean ${fmtUs(near.mean!)}), ` +
            `by-bounds-800 p50 ${fmtUs(box.p50)} (mean ${fmtUs(box.mean!)}), ` +
            `nearest-30 asked again p50 ${fmtUs(again.p50)} (load ${loadAverageText()})`,
        );
      }
    }
    const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[xs.length >> 1];
    const figures = (label: string): ResultRow[] => {
      const s = stats.get(label)!;
      const at = `${N.toLocaleString("en-US")} members, ${P} peer points, median of ${ROUNDS} rounds`;
      return [
        ["nearest-30 p50", s.nearest.map((x) => x.p50)],
        ["nearest-30 mean", s.nearest.map((x) => x.mean!)],
        ["by-bounds-800 p50", s.bounds.map((x) => x.p50)],
        ["by-bounds-800 mean", s.bounds.map((x) => x.mean!)],
        [
          "nearest-30 asked again with nothing changed (a kept search where kept; not judged) p50",
          s.again.map((x) => x.p50),
        ],
      ].map(([metric, xs]) => ({
        bench: "geo-index",
        metric: `${metric}, ${at}`,
        unit: "µs",
        value: Math.round(median(xs as number[]) * 10) / 10,
        better: "lower",
      }));
    };
    for (const [label] of checkouts) {
      console.log(`${label}: ${figures(label).map((f) => `${f.metric.split(",")[0]} ${f.value} µs`).join(", ")}`);
    }
    const [l1, l5, l15] = Deno.loadavg();
    await reportRowsBeside(
      NAME,
      figures(checkouts[0][0]),
      BEFORE ? { dir: BEFORE, rows: figures(checkouts[1][0]) } : null,
      {
        note: `bench/geo_index.ts, ${N} members, ${QUERIES} queries, ${ROUNDS} rounds`,
        load: [l1, Math.max(l1, l5, l15)],
      },
    );
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
}
