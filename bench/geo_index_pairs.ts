/**
 * The position index's nearest-30 search alone (`PositionIndex.search`, no KV, no query around
 * it), this checkout beside an earlier one (`--before DIR`, its modules installed), in paired
 * rounds. Each round times every call cycling over bench/geo.ts's peer points, one checkout and
 * then the other (the order alternating), and keeps each one's p50. The pair's ratio is taken
 * while the machine's load is the same for both, so a busy shared machine still tells a change of
 * a tenth. Both indexes hold bench/geo.ts's members (their points as generated) and answer the
 * same on every peer point (checked first).
 *
 * Run: `deno run -A bench/geo_index_pairs.ts --before DIR [--n 100000] [--pairs 40] [--name geo-index-pairs]
 * [--record]`.
 */

import { arg, loadAverageText, reportRowsBeside, type ResultRow } from "./kit.ts";
import { makeMembers, PEER_POINTS } from "./geo.ts";
import { mulberry32 as rng } from "../kv/random.ts";
import type { Region } from "../kv/positions/types.ts";

const root = new URL("..", import.meta.url).pathname;
const N = Number(arg("n", "100000"));
const PAIRS = Math.max(2, Number(arg("pairs", "40")));
const BEFORE = arg("before", "");
const NAME = arg("name", "geo-index-pairs");
/** Calls a round (cycling over the peer points). */
const ROUND_CALLS = 4000;

interface Searcher {
  /** Runs peer point k's search; the answer's ids and haversines, for the check. */
  search(k: number): string;
  time(k: number): void;
}

async function searcherOf(from: string, m: ReturnType<typeof makeMembers>, viewers: number[], t: number) {
  const { PositionIndex } = await import(`${from}/kv/positions/memoryIndex.ts`);
  const { newColumns } = await import(`${from}/kv/positions/grid.ts`);
  const cols = newColumns(N, ["bench"]);
  for (let i = 0; i < N; i++) {
    cols.ids[i] = m.ids[i];
    cols.lat[i] = m.lat[i];
    cols.lon[i] = m.lon[i];
    cols.ts[i] = t - 1000;
    cols.until[i] = t + 3_600_000;
    cols.sector[i] = 0;
  }
  const index = PositionIndex.fromColumns(cols, t, "bench");
  // As queries.ts asks a viewer's nearest: a degree each way, the viewer left out, one more than the page.
  const points = viewers.map((v) => {
    const lat = m.lat[v], lon = m.lon[v], latMin = lat - 1, latMax = lat + 1, lonMin = lon - 1;
    const region: Region = {
      latMin,
      latMax,
      lonMin,
      lonMax: lonMin + 2,
      test: (la, lo) => la >= latMin && la <= latMax && ((lo - lonMin) % 360 + 360) % 360 <= 2,
    };
    return { lat, lon, region, self: index.slotOf(m.ids[v]) as number };
  });
  const run = (k: number) => {
    const p = points[k];
    return index.search(p.lat, p.lon, p.region, 31, t, p.self, null) as { a: number[]; m: number[] };
  };
  return {
    search: (k: number) => {
      const top = run(k);
      return top.m.map((x, i) => `${index.idAt(x)}@${top.a[i]}`).join(",");
    },
    time: (k: number) => void run(k),
  } satisfies Searcher;
}

/** One round: every call's time (ms) cycling over the points, its p50 in µs. */
function round(s: Searcher, points: number, times: Float64Array): number {
  for (let i = 0; i < times.length; i++) {
    const start = performance.now();
    s.time(i % points);
    times[i] = performance.now() - start;
  }
  return times.slice().sort()[times.length >> 1] * 1000;
}

if (import.meta.main) {
  if (!BEFORE) throw new Error("--before DIR is required: this bench compares two checkouts");
  const rand = rng(N);
  const m = makeMembers(N, rand);
  // bench/geo.ts's viewers for this count: its peer points are the first of them.
  const viewers = Array.from({ length: PEER_POINTS }, () => Math.floor(rand() * N));
  const t = Date.now();
  const ours = await searcherOf(root, m, viewers, t), theirs = await searcherOf(BEFORE, m, viewers, t);
  for (let k = 0; k < PEER_POINTS; k++) {
    if (ours.search(k) !== theirs.search(k)) throw new Error(`the two checkouts answer peer point ${k} apart`);
  }
  console.log(`the two checkouts answer the same on the ${PEER_POINTS} peer points`);
  const times = new Float64Array(ROUND_CALLS);
  for (let i = 0; i < 5; i++) (round(ours, PEER_POINTS, times), round(theirs, PEER_POINTS, times));
  const a: number[] = [], b: number[] = [];
  for (let r = 0; r < PAIRS; r++) {
    if (r % 2) (b.push(round(theirs, PEER_POINTS, times)), a.push(round(ours, PEER_POINTS, times)));
    else (a.push(round(ours, PEER_POINTS, times)), b.push(round(theirs, PEER_POINTS, times)));
  }
  const median = (xs: number[]) => xs.toSorted((x, y) => x - y)[xs.length >> 1];
  const ratio = median(a.map((x, i) => x / b[i])), faster = a.filter((x, i) => x < b[i]).length;
  console.log(
    `N ${N}: p50 ${median(a).toFixed(2)} µs this checkout, ${median(b).toFixed(2)} µs before; median ratio ${
      ratio.toFixed(3)
    }, this checkout faster in ${faster} of ${PAIRS} pairs (load ${loadAverageText()})`,
  );
  const rows = (xs: number[]): ResultRow[] => [{
    bench: "geo-index-pairs",
    metric: `index nearest-30 search p50, ${N.toLocaleString("en-US")} members, ${PEER_POINTS} peer points cycled, ` +
      `median of ${PAIRS} paired rounds`,
    unit: "µs",
    value: Math.round(median(xs) * 100) / 100,
    better: "lower",
  }];
  const [l1, l5, l15] = Deno.loadavg();
  await reportRowsBeside(NAME, rows(a), { dir: BEFORE, rows: rows(b) }, {
    note: `bench/geo_index_pairs.ts, ${N} members, ${PAIRS} pairs: median ratio ${ratio.toFixed(3)}, ` +
      `this checkout faster in ${faster} of ${PAIRS}`,
    load: [l1, Math.max(l1, l5, l15)],
  });
}
