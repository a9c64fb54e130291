/**
 * What a like costs the store (the goal of 3,000 likes/s), without HTTP: the app's own
 * `putProfileLike` from 50 callers at once on a local KV file (grouped commits and kept reads, as
 * the app runs), for members without a push device and again with one each (a told like then
 * enqueues a push job), beside KV's one thread doing only the commits: a like's mutations, built with the app's own
 * builders (`addNotification`, `enqueueJob`, `addEvent` inside it) and key module, 13 likes an
 * atomic (the groups' size under load), one commit after another. Then the same commits with
 * parts left out, or the event-log entry written once an atomic, to show what each part of a like
 * costs the writer. The app's path and the commits run again on a file whose expiry index is as
 * Deno KV makes it (every entry in it), the before of decision 0132, in the same rounds.
 *
 * Run: `deno run -A bench/likes.ts [--seconds 4] [--rounds 3]`. Prints one table with the load
 * average; the temp KV files are deleted after.
 */

import { closeKv, kv, openKv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { newId } from "../kv/ids.ts";
import { listRow, putProfileLike } from "../kv/likes.ts";
import { IN_FLIGHT, setGroupCommit } from "../kv/groupCommit.ts";
import { startKeptReads } from "../kv/kept.ts";
import { addNotification, NOTIFICATION_TTL_MS } from "../kv/notifications.ts";
import { addEvent } from "../kv/events.ts";
import { enqueueJob } from "../kv/jobs.ts";
import { NOTIFICATION_TEXTS } from "../domain/notifications.ts";
import { mulberry32 as rng } from "../kv/random.ts";
import { untuneStoreFile } from "../kv/storeFile.ts";
import { arg, reportRows } from "./kit.ts";

const SECONDS = Number(arg("seconds", "4"));
const ROUNDS = Number(arg("rounds", "3"));
const MEMBERS = 10_000;
const CALLERS = 50;
const GROUP = 13;

const rand = rng(14);
const ids = Array.from({ length: MEMBERS }, () => newId());
const pick = () => ids[Math.floor(rand() * MEMBERS)];

/**
 * What `putProfileLike` commits for a new LIKE that tells the member, with a part left out, or
 * ("event once") with the event-log entry written once for the whole atomic (`commitsOnly` adds
 * it) instead of again with each like's event.
 */
type Part = "indexes" | "notification" | "push job" | "event once";
function likeMutations(op: Deno.AtomicOperation, liker: string, liked: string, without: Part | null): void {
  const t = Date.now(), seq = newId(t);
  const told = without === "notification" ? {} : { toldAt: t };
  const next = { likerProfileId: liker, likedProfileId: liked, likeType: "LIKE", blocked: false, tsCreated: t, seq };
  op.set(keys.profileLike(liker, liked), { ...next, ...told });
  if (without !== "indexes") {
    // The list rows hold what their keys do not say, as the app writes them.
    const row = listRow(t, false);
    op.set(keys.profileLikeByLiker(liker, "LIKE", seq, liked), row)
      .set(keys.profileLikeByLiked(liked, "LIKE", seq, liker), row);
  }
  if (without === "notification") return;
  const n = { bodyText: NOTIFICATION_TEXTS.profileLiked, url: "/likes/profilelikedyou" };
  if (without !== "push job" && without !== "event once") {
    addNotification(op, liked, n);
    return;
  }
  // addNotification's parts, without its push job or without its event (added once by commitsOnly).
  const id = newId();
  op.set(keys.notification(liked, id), { id, ...n, tsCreated: t }, { expireIn: NOTIFICATION_TTL_MS });
  if (without !== "push job") {
    enqueueJob(op, { type: "push", profileId: liked, notificationId: id }, { maxAttempts: 5 });
  }
  if (without !== "event once") addEvent(op, [liked], { type: "notifications" });
}

/**
 * `devices`: every member has a device to push to, so each told like enqueues its push job.
 * `ownIndex`: the file's expiry index as Deno KV makes it, every entry in it (before decision 0132).
 */
async function fresh({ devices = false, ownIndex = false } = {}): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "likes-bench-" });
  await openKv(`${dir}/app.kv`);
  if (ownIndex) untuneStoreFile(`${dir}/app.kv`);
  // As the app's server runs: the instance keeps hot reads (whether a member has a push device).
  startKeptReads();
  // Profiles, so the store holds what a member's likes sit among (with a device, three writes a
  // member: 300 an atomic stays under KV's 1,000 mutations).
  const per = devices ? 300 : 500;
  for (let i = 0; i < MEMBERS; i += per) {
    const op = kv().atomic();
    for (const id of ids.slice(i, i + per)) {
      op.set(keys.profile(id), { id, accountId: id, profilename: "x".repeat(40), text: "y".repeat(300) });
      if (devices) {
        op.set(keys.pushSubscription(id, "phone"), { id: "phone", endpoint: "https://fcm.googleapis.com/x" })
          .set(keys.pushReachable(id), true);
      }
    }
    await op.commit();
  }
  return dir;
}

async function drop(dir: string): Promise<void> {
  closeKv();
  await Deno.remove(dir, { recursive: true });
}

/**
 * Likes a second through the app's `putProfileLike`, `CALLERS` at once (new likes, each told), with
 * at most `inFlight` groups being committed at once.
 */
async function storePath(inFlight: number): Promise<number> {
  setGroupCommit(true, inFlight);
  let done = 0;
  const end = performance.now() + SECONDS * 1000;
  const t = performance.now();
  await Promise.all(Array.from({ length: CALLERS }, async () => {
    while (performance.now() < end) {
      await putProfileLike(pick(), pick(), "LIKE");
      done++;
    }
  }));
  return done / ((performance.now() - t) / 1000);
}

/** Likes a second when KV does nothing but their commits, `GROUP` an atomic, one after another. */
async function commitsOnly(without: Part | null): Promise<number> {
  let done = 0;
  const end = performance.now() + SECONDS * 1000;
  const t = performance.now();
  while (performance.now() < end) {
    const op = kv().atomic();
    const to: string[] = [];
    for (let i = 0; i < GROUP; i++) {
      const liked = pick();
      to.push(liked);
      likeMutations(op, pick(), liked, without);
    }
    if (without === "event once") addEvent(op, to, { type: "notifications" });
    if (!(await op.commit()).ok) throw new Error("commit failed");
    done += GROUP;
  }
  return done / ((performance.now() - t) / 1000);
}

/** Each row: its label, its run, and its store. */
const rows: [string, () => Promise<number>, { devices?: boolean; ownIndex?: boolean }?][] = [
  [`putProfileLike, ${CALLERS} callers (reads, grouped commits, one group in flight)`, () => storePath(1)],
  [
    `putProfileLike, ${CALLERS} callers (reads, grouped commits, ${IN_FLIGHT} groups in flight)`,
    () => storePath(IN_FLIGHT),
  ],
  [
    `  every liked member with a push device (a push job each told like)`,
    () => storePath(IN_FLIGHT),
    { devices: true },
  ],
  [
    "  the expiry index as Deno KV makes it (every entry in it, before 0132)",
    () => storePath(IN_FLIGHT),
    { ownIndex: true },
  ],
  [`commits only, ${GROUP} likes an atomic`, () => commitsOnly(null)],
  ["  the expiry index as Deno KV makes it (before 0132)", () => commitsOnly(null), { ownIndex: true }],
  ["  without the push job (job, due entry, signal)", () => commitsOnly("push job")],
  ["  event entry once", () => commitsOnly("event once")],
  ["  without the list copies (given, received)", () => commitsOnly("indexes")],
  ["  without the notification (notification, event, job)", () => commitsOnly("notification")],
];
const results = rows.map(() => [] as number[]);
for (let r = 0; r < ROUNDS; r++) {
  for (let i = 0; i < rows.length; i++) {
    const dir = await fresh(rows[i][2]);
    await rows[i][1](); // warm up
    results[i].push(await rows[i][1]());
    await drop(dir);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
// The rows from "commits only" on are one writer's commits, so their rate gives a like's µs of KV;
// the app's path above them runs many callers at once.
const firstCommitsRow = rows.findIndex(([label]) => label.startsWith("commits only"));
const fmt = (x: number) => Math.round(x).toLocaleString("en-US");
console.log(`\n| what (local KV file, ${MEMBERS.toLocaleString("en-US")} members) | likes/s | µs of KV a like |`);
console.log("|---|---|---|");
for (let i = 0; i < rows.length; i++) {
  const x = median(results[i]);
  console.log(`| ${rows[i][0]} | ${fmt(x)} | ${i < firstCommitsRow ? "–" : fmt(1e6 / x)} |`);
}
const [l1, l5, l15] = Deno.loadavg();
{
  await reportRows(
    "likes",
    rows.map(([metric], i) => ({
      bench: "likes",
      metric: metric.trim(),
      unit: "likes/s",
      value: Math.round(median(results[i])),
      ...(i === 1 ? { goal: 3000 } : {}),
      better: "higher" as const,
    })),
    { note: `bench/likes.ts, ${ROUNDS} rounds of ${SECONDS} s (the median)`, load: [l1, Math.max(l1, l5, l15)] },
  );
}
console.log(
  `\n${ROUNDS} rounds of ${SECONDS} s each (the median), a fresh store each; ` +
    `${navigator.hardwareConcurrency} cores; load average ${l1.toFixed(2)} ${l5.toFixed(2)} ${l15.toFixed(2)}`,
);
// The kept reads' tail of the last store's change log would keep the process alive.
Deno.exit(0);
