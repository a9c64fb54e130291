/**
 * What Deno KV's own calls cost on the store file the CPU bench serves from, by thread, without
 * HTTP or the app's routes: the parts a like (bench/cpu_per_request.ts) is built from, so its CPU
 * can be told apart into what the store calls cost and what the rest of the request costs.
 *
 * On the seeded city of the CPU bench (kit.ts `seedCity`: 10k members, profiles, positions and
 * sessions), through the app's store handle (kv/db.ts `openKv`), one call at a time:
 * - a store call of one profile key, and of nine (`getMany`): a call's fixed part and each key's;
 * - a like's rows committed alone (its record, checked absent, and its two list rows, as
 *   kv/likes.ts writes them), and fourteen likes' rows in one atomic (about a group under the CPU
 *   bench's load): a commit's fixed part and each like's rows;
 * - the same fourteen with a notification each and the group's one log entry (kv/events.ts
 *   `gatherEvents`), as the group commit writes told likes;
 * - 42 list rows in one commit, each under another member (each on a page of its own, as a like's
 *   rows fall), and 42 appended under one member (a few pages): what a row's place costs.
 * Each figure is CPU a call (or a like) from /proc, by thread: the JavaScript thread's, the store's
 * SQLite thread's and the collector's; the kinds take turns in each round, the median round counts.
 *
 * Run: `deno run -A bench/kv_costs.ts [--members 10000] [--rounds 3] [--record [--name NAME]]`.
 */

import { closeKv, kv, openKv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { newId } from "../kv/ids.ts";
import { listRow } from "../kv/likes.ts";
import { addNotification, notificationOf } from "../kv/notifications.ts";
import { gatherEvents, writeEvents } from "../kv/events.ts";
import { mulberry32 as rng } from "../kv/random.ts";
import { arg, reportRows, type ResultRow, seedCity, threadCpuMs } from "./kit.ts";

const MEMBERS = Number(arg("members", "10000"));
const ROUNDS = Number(arg("rounds", "3"));
const NAME = arg("name", "kv-costs");
const GROUP = 14;

const dir = await Deno.makeTempDir({ prefix: "kv-costs-" });
const rand = rng(11);
const { ids } = await seedCity(`${dir}/app.kv`, {
  members: MEMBERS,
  viewers: 500,
  home: { lat: 40.7, lon: -74 },
  rand,
});
await openKv(`${dir}/app.kv`);
const pick = () => ids[Math.floor(rand() * ids.length)];

/** A new LIKE's rows as kv/likes.ts `putProfileLike` writes them (the record checked absent), and, told, its notification. */
const liked = new Set<string>();
function likeRows(op: Deno.AtomicOperation, told: boolean): void {
  let liker: string, target: string;
  // Each pair once: the record is new (checked absent), as a like of someone not rated before.
  do [liker, target] = [pick(), pick()]; while (liked.has(`${liker}>${target}`));
  liked.add(`${liker}>${target}`);
  const t = Date.now(), seq = newId(t);
  const key = keys.profileLike(liker, target);
  const record = { likerProfileId: liker, likedProfileId: target, likeType: "LIKE", blocked: false, tsCreated: t, seq };
  const row = listRow(t, false);
  op.check({ key, versionstamp: null }).set(key, told ? { ...record, toldAt: t } : record)
    .set(keys.profileLikeByLiker(liker, "LIKE", seq, target), row)
    .set(keys.profileLikeByLiked(target, "LIKE", seq, liker), row);
  if (told) addNotification(op, target, notificationOf("profileLiked", "/likes/profilelikedyou"), { push: false });
}

async function commitLikes(n: number, told: boolean): Promise<void> {
  const op = kv().atomic();
  if (told) gatherEvents(op);
  for (let i = 0; i < n; i++) likeRows(op, told);
  if (told) writeEvents(op);
  if (!(await op.commit()).ok) throw new Error("a like's commit failed");
}

/** `ROWS` list rows in one commit: each under another member (a page each), or all appended under one member. */
const ROWS = 42;
async function commitRows(scattered: boolean): Promise<void> {
  const op = kv().atomic();
  const one = pick();
  for (let i = 0; i < ROWS; i++) {
    const t = Date.now(), seq = newId(t);
    op.set(keys.profileLikeByLiked(scattered ? pick() : one, "LIKE", seq, pick()), listRow(t, false));
  }
  if (!(await op.commit()).ok) throw new Error("a commit of rows failed");
}

interface Kind {
  name: string;
  /** Calls a round (enough for /proc's 10 ms ticks to count each to a few per cent). */
  calls: number;
  run: () => Promise<unknown>;
}
const KINDS: Kind[] = [
  { name: "getMany of 1 profile key", calls: 5000, run: () => kv().getMany([keys.profile(pick())]) },
  {
    name: "getMany of 9 profile keys",
    calls: 2000,
    run: () => kv().getMany(Array.from({ length: 9 }, () => keys.profile(pick()))),
  },
  { name: "a like's rows committed alone", calls: 1500, run: () => commitLikes(1, false) },
  { name: `${GROUP} likes' rows in one commit`, calls: 300, run: () => commitLikes(GROUP, false) },
  { name: `${GROUP} told likes in one commit`, calls: 300, run: () => commitLikes(GROUP, true) },
  { name: `${ROWS} list rows, each under another member`, calls: 300, run: () => commitRows(true) },
  { name: `${ROWS} list rows under one member`, calls: 300, run: () => commitRows(false) },
];

interface Cost {
  js: number;
  store: number;
  gc: number;
  total: number;
}

/** CPU a call of `k` (µs), by thread. */
async function measure(k: Kind): Promise<Cost> {
  const before = threadCpuMs("self");
  for (let i = 0; i < k.calls; i++) await k.run();
  const after = threadCpuMs("self");
  const us = (name: string) => 1000 * ((after.get(name) ?? 0) - (before.get(name) ?? 0)) / k.calls;
  let all = 0;
  for (const [name, ms] of after) all += ms - (before.get(name) ?? 0);
  return { js: us("deno"), store: us("sw-0"), gc: us("V8 DefaultWorke"), total: 1000 * all / k.calls };
}

const loads = [Deno.loadavg()[0]];
const rounds = new Map<string, Cost[]>(KINDS.map((k) => [k.name, []]));
for (const k of KINDS) await measure({ ...k, calls: Math.ceil(k.calls / 4) }); // warm up
for (let r = 0; r < ROUNDS; r++) {
  for (const k of r % 2 ? [...KINDS].reverse() : KINDS) rounds.get(k.name)!.push(await measure(k));
  loads.push(Deno.loadavg()[0]);
}
closeKv();
await Deno.remove(dir, { recursive: true });

const median = (xs: Cost[]) => [...xs].sort((a, b) => a.total - b.total)[Math.floor(xs.length / 2)];
const cost = new Map([...rounds].map(([name, xs]) => [name, median(xs)]));
const of = (i: number) => cost.get(KINDS[i].name)!;
const ZERO: Cost = { js: 0, store: 0, gc: 0, total: 0 };
const minus = (a: Cost, b: Cost, per: number): Cost => ({
  js: (a.js - b.js) / per,
  store: (a.store - b.store) / per,
  gc: (a.gc - b.gc) / per,
  total: (a.total - b.total) / per,
});
// Each key beyond the first, and the call's fixed part (one key's call less its key).
const perKey = minus(of(1), of(0), 8);
const perCall = minus(of(0), perKey, 1);
// Each like's rows in a group, and a commit's fixed part (a like alone less its rows).
const perLike = minus(of(3), of(2), GROUP - 1);
const perCommit = minus(of(2), perLike, 1);
// What telling adds to a like in a group (its notification, its event in the one log entry).
const perTold = minus(of(4), of(3), GROUP);
// A row on a page of its own, and one beside the row before it (each with its share of the commit).
const scatteredRow = minus(of(5), ZERO, ROWS);
const appendedRow = minus(of(6), ZERO, ROWS);
const derived: [string, Cost][] = [
  ["a store call's fixed part", perCall],
  ["each key read", perKey],
  ["a commit's fixed part", perCommit],
  ["each like's rows in a commit", perLike],
  ["each told like's notification and event", perTold],
  ["a row on a page of its own (in a commit of 42)", scatteredRow],
  ["a row beside the one before (in a commit of 42)", appendedRow],
];

const f = (x: number) => x.toFixed(0).padStart(6);
console.log(`\n| part | all threads | JavaScript | store | collector |\n|---|---|---|---|---|`);
for (const [name, c] of [...cost, ...derived]) {
  console.log(`| ${name} | ${f(c.total)} µs | ${f(c.js)} µs | ${f(c.store)} µs | ${f(c.gc)} µs |`);
}
console.log(
  `\n${
    MEMBERS.toLocaleString("en-US")
  } members, ${ROUNDS} rounds (the median), ${navigator.hardwareConcurrency} cores; ` +
    `load average ${Math.min(...loads).toFixed(2)} to ${Math.max(...loads).toFixed(2)}`,
);

const rows: ResultRow[] = derived.flatMap(([name, c]) => [
  { bench: "kv-costs", metric: `${name}: CPU, all threads`, unit: "µs", value: Math.round(c.total), better: "lower" },
  {
    bench: "kv-costs",
    metric: `${name}: CPU, the store's thread`,
    unit: "µs",
    value: Math.round(c.store),
    better: "lower",
  },
]);
await reportRows(NAME, rows, {
  note: `bench/kv_costs.ts, ${MEMBERS} members, ${ROUNDS} rounds (the median), groups of ${GROUP}`,
  load: [Math.min(...loads), Math.max(...loads)],
});
