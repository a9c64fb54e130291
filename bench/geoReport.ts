/**
 * bench/geo.ts's report of one member count: the table rows printed, the figures handed on to the
 * bench log (bench/kit.ts reportRows) and whether each goal was met, from what the run measured.
 */

import type { ResultRow } from "./kit.ts";
import { GEOADD_PIPELINE, type Stats } from "./redis.ts";

/** The goal: the index this many times faster than Redis on nearest-30 and by-bounds-800. */
export const BOUNDS_FACTOR = 10;

export function fmtUs(us: number): string {
  return us >= 10_000
    ? `${(us / 1000).toFixed(1)} ms`
    : us >= 1000
    ? `${(us / 1000).toFixed(2)} ms`
    : `${us.toFixed(0)} µs`;
}

export function fmtRate(x: number): string {
  return x >= 1e6 ? `${(x / 1e6).toFixed(2)} M/s` : x >= 1e3 ? `${(x / 1e3).toFixed(1)} k/s` : `${x.toFixed(0)}/s`;
}

export function table(rows: string[][]): string {
  const w = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: string[]) => "| " + r.map((x, c) => x.padEnd(w[c])).join(" | ") + " |";
  return [line(rows[0]), "|" + w.map((n) => "-".repeat(n + 2)).join("|") + "|", ...rows.slice(1).map(line)].join("\n");
}

export interface Result {
  /** The figures handed on to the bench log. */
  figures: ResultRow[];
  n: number;
  writesRead: number;
  rows: string[][];
  nearestOk: boolean;
  boundsOk: boolean;
  /** The same goals against Redis's own time a call (no round trip); undefined without it. */
  nearestOwnOk?: boolean;
  boundsOwnOk?: boolean;
  writes: number;
  writesBusy: number;
  note: string[];
}

/** What one member count measured (bench/geo.ts runOne). */
export interface Measured {
  n: number;
  /** The viewers over all queries, and the peer's points among them. */
  queries: number;
  peerPoints: number;
  indexLoadMs: number;
  /** NaN without Redis. */
  redisLoadMs: number;
  ourNearest: Stats;
  ourBounds: Stats;
  /** On the peer's points, each query searched (bench/geo.ts `searched`): the judged figures. */
  samePointsNearest: Stats;
  samePointsBounds: Stats;
  /** Nearest-30 on the peer's points asked again with nothing changed: the kept search, not judged. */
  againNearest: Stats;
  redisNearestStats: [string, Stats][];
  redisBoundsStats: [string, Stats][];
  pingP50: number;
  writeConcurrency: number;
  ourWrites: number;
  ourWritesBusy: number;
  ourWritesRead: number;
  redisWrites: number;
  redisWritesBusy: number;
  loadQuiet: string;
  loadBusy: string;
}

/** The rows, figures and goals of one member count; `note` gets the Redis variants' lines. */
export function report(m: Measured, note: string[]): Result {
  const P = m.peerPoints;
  const best = (xs: [string, Stats][], key: "p50" | "p99") =>
    xs.length ? xs.reduce((a, b) => (b[1][key] < a[1][key] ? b : a)) : undefined;
  // The peer that answers what the index answers: ids with their distance (nearest) or their
  // point (a map's bounds). The ids-only variants, which answer less, are reported beside it.
  const bn = m.redisNearestStats.find((x) => x[0].includes("WITHDIST"));
  const bb = m.redisBoundsStats.find((x) => x[0].includes("WITHCOORD"));
  const bbIds = m.redisBoundsStats.find((x) => x[0].includes("ids only"));
  const faster = (redisV: number, ours: number) =>
    !Number.isFinite(redisV)
      ? "n/a"
      : redisV >= ours
      ? `ours ${(redisV / ours).toFixed(1)}× faster`
      : `Redis ${(ours / redisV).toFixed(1)}× faster`;
  const more = (ours: number, redisV: number) =>
    Number.isFinite(redisV) ? `ours ${(ours / redisV).toFixed(2)}× Redis` : "n/a";
  const show = (x: [string, Stats] | undefined, key: "p50" | "p99") => x ? `${fmtUs(x[1][key])} (${x[0]})` : "n/a";
  // p50 and p99 of one query on the peer's points, ours against the best Redis variant for each.
  const queryRows = (label: string, ours: Stats, same: [string, Stats] | undefined, all: [string, Stats][]) => {
    const b50 = best(all, "p50");
    return [
      [`${label} p50`, fmtUs(ours.p50), show(same, "p50"), faster(same?.[1].p50 ?? NaN, ours.p50)],
      [`${label} p99`, fmtUs(ours.p99), show(same, "p99"), faster(same?.[1].p99 ?? NaN, ours.p99)],
      [
        `${label} p50, Redis' fastest variant`,
        fmtUs(ours.p50),
        show(b50, "p50"),
        faster(b50?.[1].p50 ?? NaN, ours.p50),
      ],
    ];
  };
  // The fair peer: Redis's own time in the same command, without its client's round trip
  // (the index's p50 has none either: it is called in process).
  // Redis's figure is a mean over the variant's calls: beside it the index's p50 and its mean.
  const ownRow = (label: string, ours: Stats, same: [string, Stats] | undefined) => [
    `${label} p50 (mean) against Redis's own time a call (a mean)`,
    `${fmtUs(ours.p50)} (${fmtUs(ours.mean ?? NaN)})`,
    same?.[1].ownUs !== undefined ? `${fmtUs(same[1].ownUs)} (INFO commandstats usec_per_call, ${same[0]})` : "n/a",
    `${faster(same?.[1].ownUs ?? NaN, ours.p50)} (means: ${faster(same?.[1].ownUs ?? NaN, ours.mean ?? NaN)})`,
  ];
  const rows: string[][] = [
    [
      `N = ${m.n.toLocaleString("en-US")}`,
      "KV + in-memory index (in process)",
      "Redis 7 GEOSEARCH by redis-benchmark (C client, 1 connection), the same answer",
      "comparison",
    ],
    [
      "ready to serve",
      `${(m.indexLoadMs / 1000).toFixed(2)} s index load from KV`,
      Number.isFinite(m.redisLoadMs) ? `${(m.redisLoadMs / 1000).toFixed(2)} s GEOADD pipelined` : "n/a",
      "(different work)",
    ],
    ...queryRows("nearest-30", m.samePointsNearest, bn, m.redisNearestStats),
    ownRow("nearest-30", m.samePointsNearest, bn),
    ...queryRows("by-bounds-800", m.samePointsBounds, bb, m.redisBoundsStats),
    ownRow("by-bounds-800", m.samePointsBounds, bb),
    [
      "nearest-30 p50 asked again, nothing changed",
      `${fmtUs(m.againNearest.p50)} (the kept search)`,
      "",
      "not judged: Redis keeps no answer",
    ],
    [
      "nearest-30 / by-bounds-800 p50 over all viewers",
      `${fmtUs(m.ourNearest.p50)} / ${fmtUs(m.ourBounds.p50)}`,
      "",
      `${m.queries} viewers (the peer's: ${P})`,
    ],
    [
      "position writes (client body), quiet",
      `${fmtRate(m.ourWrites)} (durable KV, ${m.writeConcurrency} in flight; load ${m.loadQuiet})`,
      Number.isFinite(m.redisWrites)
        ? `${fmtRate(m.redisWrites)} (GEOADD -P ${GEOADD_PIPELINE}, in memory only)`
        : "n/a",
      more(m.ourWrites, m.redisWrites),
    ],
    [
      "position writes (client body), one core burning",
      `${fmtRate(m.ourWritesBusy)} (load ${m.loadBusy})`,
      Number.isFinite(m.redisWritesBusy) ? `${fmtRate(m.redisWritesBusy)} (GEOADD -P ${GEOADD_PIPELINE})` : "n/a",
      more(m.ourWritesBusy, m.redisWritesBusy),
    ],
    [
      "position writes (read first), quiet",
      `${fmtRate(m.ourWritesRead)} (no other point: reads the record)`,
      "",
      more(m.ourWritesRead, m.redisWrites),
    ],
  ];
  for (const [name, s] of [...m.redisNearestStats, ...m.redisBoundsStats]) {
    note.push(`redis-benchmark ${name}: p50 ${fmtUs(s.p50)}, p99 ${fmtUs(s.p99)} (median over ${P} points)`);
  }
  // The figures handed on (bench/kit.ts reportRows): p50 (µs) on the peer's points beside the
  // best Redis variant timed by its C client, their ratio (goal BOUNDS_FACTOR), and writes.
  const at = `${m.n.toLocaleString("en-US")} members`;
  const peerName = "Redis 7 GEOSEARCH, redis-benchmark (C client), the same answer";
  const figures: ResultRow[] = [];
  for (
    const [metric, ours, peer] of [
      ["nearest-30 p50", m.samePointsNearest.p50, bn?.[1].p50],
      ["by-bounds-800 p50", m.samePointsBounds.p50, bb?.[1].p50],
    ] as [string, number, number | undefined][]
  ) {
    figures.push({
      bench: "geo",
      metric: `${metric}, ${at}`,
      unit: "µs",
      value: Math.round(ours * 10) / 10,
      ...(peer !== undefined ? { peer: peerName, peerValue: Math.round(peer * 10) / 10 } : {}),
      better: "lower",
    });
    if (peer !== undefined) {
      figures.push({
        bench: "geo",
        metric: `${metric}: Redis (C client) ÷ index, ${at}`,
        unit: "×",
        value: Math.round(peer / ours * 10) / 10,
        goal: BOUNDS_FACTOR,
        better: "higher",
      });
    }
  }
  for (
    const [metric, ours, own] of [
      ["nearest-30 p50", m.samePointsNearest.p50, bn?.[1].ownUs],
      ["by-bounds-800 p50", m.samePointsBounds.p50, bb?.[1].ownUs],
      ["nearest-30 mean", m.samePointsNearest.mean ?? NaN, bn?.[1].ownUs],
      ["by-bounds-800 mean", m.samePointsBounds.mean ?? NaN, bb?.[1].ownUs],
    ] as [string, number, number | undefined][]
  ) {
    if (own === undefined || !Number.isFinite(own) || !Number.isFinite(ours)) continue;
    figures.push({
      bench: "geo",
      metric: `${metric}: Redis's own time a call (INFO commandstats) ÷ index, ${at}`,
      unit: "×",
      value: Math.round(own / ours * 10) / 10,
      goal: BOUNDS_FACTOR,
      better: "higher",
    });
  }
  figures.push({
    bench: "geo",
    metric: `nearest-30 p50 asked again with nothing changed (its kept search; not judged), ${at}`,
    unit: "µs",
    value: Math.round(m.againNearest.p50 * 10) / 10,
    better: "lower",
  });
  if (Number.isFinite(m.pingP50)) {
    figures.push({
      bench: "geo",
      metric: `Redis PING round trip p50 (redis-benchmark, the floor of its queries), ${at}`,
      unit: "µs",
      value: Math.round(m.pingP50 * 10) / 10,
      better: "lower",
    });
  }
  if (bbIds) {
    figures.push({
      bench: "geo",
      metric: `by-bounds-800 p50: Redis ids only (C client) ÷ index, ${at}`,
      unit: "×",
      value: Math.round(bbIds[1].p50 / m.samePointsBounds.p50 * 10) / 10,
      better: "higher",
    });
  }
  for (
    const [metric, ours, peer, goal] of [
      [`durable position writes, ${at}`, m.ourWrites, m.redisWrites, 20_000],
      [`durable position writes, one core burning, ${at}`, m.ourWritesBusy, m.redisWritesBusy, 5_000],
    ] as [string, number, number, number][]
  ) {
    if (!Number.isFinite(ours)) continue;
    figures.push({
      bench: "geo",
      metric,
      unit: "writes/s",
      value: Math.round(ours),
      ...(Number.isFinite(peer)
        ? { peer: `Redis GEOADD, redis-benchmark -P ${GEOADD_PIPELINE}, in memory`, peerValue: Math.round(peer) }
        : {}),
      goal,
      better: "higher",
    });
  }
  note.push(`writes: load ${m.loadQuiet} quiet, ${m.loadBusy} with a core burning`);
  return {
    n: m.n,
    figures,
    rows,
    nearestOk: !bn || m.samePointsNearest.p50 * BOUNDS_FACTOR <= bn[1].p50,
    boundsOk: !bb || m.samePointsBounds.p50 * BOUNDS_FACTOR <= bb[1].p50,
    nearestOwnOk: bn?.[1].ownUs === undefined ? undefined : m.samePointsNearest.p50 * BOUNDS_FACTOR <= bn[1].ownUs,
    boundsOwnOk: bb?.[1].ownUs === undefined ? undefined : m.samePointsBounds.p50 * BOUNDS_FACTOR <= bb[1].ownUs,
    writes: m.ourWrites,
    writesBusy: m.ourWritesBusy,
    writesRead: m.ourWritesRead,
    note,
  };
}
