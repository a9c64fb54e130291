/**
 * What a discovery answer's own work costs, in one process, without the server around it: the
 * page of briefs (by-bounds-800, as objects and as rows) and the map view of 600 found, their JSON in UTF-8, and that
 * compressed as each kind of caller is answered (Brotli, as routes/compressBytes.ts does for a
 * browser; Zstandard for one that names it). CPU time of this process (user + system) per answer,
 * from `process.cpuUsage()`.
 *
 * With `--before DIR` (another copy of the repository, e.g. `git archive main`), that copy's
 * kv/briefs.ts is loaded beside this one (a module graph of its own, its own handle on the same
 * store) and the two are measured in alternating rounds, so the load of a shared machine falls on
 * both alike: the firmer figure where the server's CPU per request (bench/cpu_per_request.ts)
 * moves by more than the change between two copies.
 *
 * The store is bench/cpu_per_request.ts's city (kit.ts `seedCity`), with kept reads on as in the
 * server (kv/kept.ts), each answer for one of the signed-in viewers in turn.
 *
 * Run: `deno run -A bench/answers.ts [--members 10000] [--rounds 7] [--answers 60] [--before DIR] [--record]`.
 */

import process from "node:process";
import { mulberry32 as rng } from "../kv/random.ts";
import { arg, reportRows, type ResultRow, seedCity } from "./kit.ts";
import { compressBytes } from "../routes/compressBytes.ts";

const MEMBERS = Number(arg("members", "10000"));
const ROUNDS = Number(arg("rounds", "7"));
const ANSWERS = Number(arg("answers", "60"));
const BEFORE = arg("before", "");
const HOME = { lat: 40.7, lon: -74.0 };
const BOUNDS = { latMin: 40.62, latMax: 40.78, lonMin: -74.1, lonMax: -73.9 };
const MAP = { latMin: 40.62, latMax: 40.78, lonMin: -74.0, lonMax: -73.966 };

const encoder = new TextEncoder();
const cpuUs = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};

/** One copy's discovery calls, loaded from `root` (a module graph of its own). */
interface Copy {
  name: string;
  /** The by-bounds-800 page's JSON for `viewer`, in UTF-8. */
  bounds(viewer: string): Promise<Uint8Array>;
  /** The same page as rows (`form=rows`), in UTF-8. */
  rows(viewer: string): Promise<Uint8Array>;
  /** The map view's JSON for `viewer`, in UTF-8. */
  map(viewer: string): Promise<Uint8Array>;
}

async function loadCopy(name: string, root: string, path: string): Promise<Copy> {
  const db = await import(`${root}/kv/db.ts`);
  const kept = await import(`${root}/kv/kept.ts`);
  const briefs = await import(`${root}/kv/briefs.ts`);
  const shapes = await import(`${root}/domain/shapes/briefs.ts`);
  await db.openKv(path);
  kept.startKeptReads();
  // As routes/answer.ts answers: one JSON.stringify of the page, encoded (as the server sends it,
  // or as the compression takes it).
  const text = (page: unknown): Uint8Array => encoder.encode(JSON.stringify(page));
  return {
    name,
    bounds: async (viewer) =>
      text(await briefs.profileBriefs(viewer, { kind: "bounds", bounds: BOUNDS }, { page: 0, size: 800 })),
    // A copy without the compact form answers its objects.
    rows: async (viewer) => {
      const page = await briefs.profileBriefs(viewer, { kind: "bounds", bounds: BOUNDS }, { page: 0, size: 800 });
      return text(shapes.briefRowsOf ? shapes.briefRowsOf(page) : page);
    },
    map: async (viewer) => text(await briefs.mapView(viewer, MAP)),
  };
}

const dir = await Deno.makeTempDir({ prefix: "answers-bench-" });
const path = `${dir}/app.kv`;
const { viewers } = await seedCity(path, { members: MEMBERS, viewers: 500, home: HOME, rand: rng(7) });
const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const copies = [await loadCopy("this copy", here, path)];
if (BEFORE) copies.unshift(await loadCopy(`before (${BEFORE})`, BEFORE.replace(/\/$/, ""), path));

interface Figures {
  /** µs of CPU an answer: the page and its text; and each compression of that text. */
  text: number[];
  br: number[];
  zstd: number[];
  bytes: number;
  brBytes: number;
  zstdBytes: number;
}
const figures = new Map<string, Figures>();
const loads: number[] = [Deno.loadavg()[0]];

/** `ANSWERS` answers of `call` by `copy`, the CPU of each step summed. */
async function round(copy: Copy, call: "bounds" | "rows" | "map", offset: number) {
  const key = `${call}|${copy.name}`;
  let f = figures.get(key);
  if (!f) figures.set(key, f = { text: [], br: [], zstd: [], bytes: 0, brBytes: 0, zstdBytes: 0 });
  const texts: Uint8Array[] = [];
  let t = cpuUs();
  for (let i = 0; i < ANSWERS; i++) texts.push(await copy[call](viewers[(offset + i) % viewers.length].id));
  f.text.push((cpuUs() - t) / ANSWERS);
  for (const enc of ["br", "zstd"] as const) {
    let out = 0;
    t = cpuUs();
    for (const s of texts) out += compressBytes(s, enc).byteLength;
    f[enc].push((cpuUs() - t) / ANSWERS);
    f[enc === "br" ? "brBytes" : "zstdBytes"] = out / ANSWERS;
  }
  f.bytes = texts.reduce((a, s) => a + s.byteLength, 0) / ANSWERS;
}

// Warm up each copy, then alternate them, the order swapped each round.
for (const copy of copies) {
  await round(copy, "bounds", 0);
  await round(copy, "rows", 0);
  await round(copy, "map", 0);
}
figures.clear();
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...copies].reverse() : copies;
  for (const copy of order) {
    await round(copy, "bounds", r * ANSWERS);
    await round(copy, "rows", r * ANSWERS);
    await round(copy, "map", r * ANSWERS);
  }
  loads.push(Deno.loadavg()[0]);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load: [number, number] = [Math.min(...loads), Math.max(...loads)];
console.log(
  `\n| answer | copy | page and its text | + Brotli (a browser) | + zstd (names it) | JSON | Brotli | zstd |`,
);
console.log("|---|---|---|---|---|---|---|---|");
const rows: ResultRow[] = [];
for (const [key, f] of figures) {
  const [call, name] = key.split("|");
  const label = call === "bounds"
    ? "by-bounds-800"
    : call === "rows"
    ? "by-bounds-800 as rows (form=rows)"
    : "map view (600 in view)";
  const [text, br, zstd] = [median(f.text), median(f.br), median(f.zstd)];
  console.log(
    `| ${label} | ${name} | ${text.toFixed(0)} µs | ${(text + br).toFixed(0)} µs | ${(text + zstd).toFixed(0)} µs | ${
      (f.bytes / 1024).toFixed(1)
    } KB | ${(f.brBytes / 1024).toFixed(1)} KB | ${(f.zstdBytes / 1024).toFixed(1)} KB |`,
  );
  if (name !== "this copy") continue;
  const before = BEFORE ? figures.get(`${call}|${copies[0].name}`) : undefined;
  for (
    const [what, value, peer] of [
      ["the page and its JSON text", text, before && median(before.text)],
      ["the page, its text and Brotli", text + br, before && median(before.text) + median(before.br)],
      ["the page, its text and zstd", text + zstd, before && median(before.text) + median(before.zstd)],
    ] as [string, number, number | undefined][]
  ) {
    rows.push({
      bench: "answers",
      metric: `${label}: ${what}, CPU an answer in process`,
      unit: "µs",
      value: Math.round(value),
      ...(peer !== undefined ? { peer: "the copy before (same rounds)", peerValue: Math.round(peer) } : {}),
      better: "lower",
    });
  }
}
console.log(
  `\n${
    MEMBERS.toLocaleString("en-US")
  } members, ${ROUNDS} rounds of ${ANSWERS} answers per copy (the median round), ${navigator.hardwareConcurrency} cores; load average ${
    load[0].toFixed(2)
  } to ${load[1].toFixed(2)}`,
);
await reportRows("answers", rows, {
  note: `bench/answers.ts, ${MEMBERS} members, ${ROUNDS} rounds of ${ANSWERS} answers${
    BEFORE ? ", beside the copy before in alternating rounds" : ""
  }`,
  load,
});
await Deno.remove(dir, { recursive: true }).catch(() => {});
Deno.exit(0);
