/**
 * Group commit: checked writes from concurrent requests go to KV together, in one atomic.
 *
 * A KV commit costs a fixed part (a transaction on the store's one writer) and a part per
 * mutation; on a local file the fixed part is about half of a like's commit. While a group is
 * being committed, the writes made meanwhile wait and then go as one group of at most
 * `GROUP_MAX`; when a whole group waits, it goes at once beside the one in flight, up to
 * `IN_FLIGHT` groups (the store's thread takes the next while this thread still answers the
 * last). A partial group, with nothing in flight, may wait for company before it goes:
 * - a write that may wait (`linger`: a message's send and read, a presence mark) waits up to
 *   `LINGER_MS` while writes come close together (at least `DENSE_WRITES` in the last `DENSE_MS`
 *   or so): at a steady rate commits rarely overlap, so without the wait each write would pay a
 *   commit of its own;
 * - after a busy group (`BUSY_GROUP` writes or more) any write waits one turn of the event loop,
 *   so the writes of the requests served in that turn join it.
 * Each commit costs this thread, the store's thread and every instance's tail of the change log a
 * fixed part, which fewer, larger groups pay less often. A write that comes alone (a quiet server)
 * goes at once; a whole group goes at once. Each write adds its checks and mutations to the shared
 * atomic (so the events of a group share one log entry, written once: kv/events.ts `gatherEvents`).
 *
 * Each write names the keys it checks, and those it writes from a read without checking them
 * (a count it drops when the record it counts for was gone). Two writes naming the same key never
 * share a group, nor are they in flight at once (the later waits until the earlier's group is
 * done), so the groups are the same as their writes one after another. When a group's commit fails (a check failed),
 * each of its writes is committed again on its own and gets its own answer: one stale write never
 * fails the others. A write's `build` may therefore run twice, each time on a fresh atomic.
 */

import { kv, maxChecksPerAtomic } from "./db.ts";
import { gatherEvents, writeEvents } from "./events.ts";

/** The most writes in one group (each adds a few checks: `takeGroup` keeps their sum within the store's checks per atomic). */
export const GROUP_MAX = 48;
/** The most groups being committed at once. */
export const IN_FLIGHT = 3;
/** A group of at least this many writes says writes come faster than they commit (see the module's comment). */
export const BUSY_GROUP = 4;
/**
 * The longest a write waits for others to share its commit, while writes come at least this
 * often on average: a few milliseconds against a delivery goal of a second.
 */
export const LINGER_MS = 5;
/**
 * Writes come close together when at least `DENSE_WRITES` were asked for in this window of
 * `DENSE_MS` and the last one (about 100 a second or more: one likely within `LINGER_MS`).
 */
const DENSE_MS = 100;
const DENSE_WRITES = 10;

interface Write {
  /** When it was asked for (performance.now()), and whether it may wait for company (`LINGER_MS`). */
  at: number;
  linger: boolean;
  checked: string[];
  build: (op: Deno.AtomicOperation) => void;
  done: (ok: boolean) => void;
  fail: (e: unknown) => void;
}

interface Committer {
  queue: Write[];
  /** Groups being committed. */
  inFlight: number;
  /** The keys checked by writes in flight, with how many such writes check each. */
  held: Map<string, number>;
  /** How many writes the last group started took (0 after a wait). */
  lastGroup: number;
  /** The pending start of a partial group that waits for company (see `waitForCompany`). */
  waiting?: ReturnType<typeof setTimeout>;
  /** The window of `DENSE_MS` of the last write asked for, the writes asked in it and in the one before. */
  window: number;
  inWindow: number;
  inLastWindow: number;
}
const committers = new WeakMap<Deno.Kv, Committer>();
let grouping = true;
let inFlightMax = IN_FLIGHT;

/**
 * Turns grouping off (each write committed alone, at once) or back on, with at most `inFlight`
 * groups at once: for the benches' "before".
 */
export function setGroupCommit(on: boolean, inFlight = IN_FLIGHT): void {
  grouping = on;
  inFlightMax = inFlight;
}

/**
 * Commits `build`'s checks and mutations, grouped with other writes made meanwhile; true when it
 * committed, false when one of its checks failed (read again and retry, as with `commit().ok`).
 * `checked` lists every key `build` checks, and every key it writes from a read unchecked.
 * `linger`: the write may wait up to `LINGER_MS` for others to share its commit while writes come
 * close together.
 */
export function commitGrouped(
  checked: readonly Deno.KvKey[],
  build: (op: Deno.AtomicOperation) => void,
  { linger = false }: { linger?: boolean } = {},
): Promise<boolean> {
  const db = kv();
  if (!grouping) {
    const op = db.atomic();
    build(op);
    return op.commit().then((r) => r.ok);
  }
  let c = committers.get(db);
  if (!c) {
    committers.set(
      db,
      c = { queue: [], inFlight: 0, held: new Map(), lastGroup: 0, window: 0, inWindow: 0, inLastWindow: 0 },
    );
  }
  const committer = c;
  const at = performance.now();
  const window = Math.floor(at / DENSE_MS);
  if (window !== c.window) {
    c.inLastWindow = window === c.window + 1 ? c.inWindow : 0;
    c.inWindow = 0;
    c.window = window;
  }
  c.inWindow++;
  return new Promise<boolean>((done, fail) => {
    committer.queue.push({ at, linger, checked: checked.map(keyId), build, done, fail });
    pump(db, committer);
  });
}

/** The shared wait of `turnWhenBusy`, while one is pending. */
let turn: Promise<void> | null = null;

/**
 * Null when no grouped write is queued or being committed on the open store; else a promise
 * resolved at the next turn of the event loop, shared by every caller until then: requests that
 * wait on it begin their reads together (one store call, kv/coalesce.ts), as their writes go together.
 */
export function turnWhenBusy(): Promise<void> | null {
  const c = committers.get(kv());
  if (!grouping || !c || (c.inFlight === 0 && c.queue.length === 0)) return null;
  return turn ??= new Promise((resolve) =>
    setTimeout(() => {
      turn = null;
      resolve();
    }, 0)
  );
}

/**
 * How long the next partial group waits for company (ms), or null when it goes at once: up to
 * `LINGER_MS` after its oldest write was asked for when that write may wait and writes come close
 * together; else one turn of the event loop after a busy group (see the module's comment).
 */
function waitForCompany(c: Committer): number | null {
  const first = c.queue[0];
  if (first.linger && c.inWindow + c.inLastWindow >= DENSE_WRITES) {
    const left = first.at + LINGER_MS - performance.now();
    if (left > 0) return left;
  }
  return c.lastGroup >= BUSY_GROUP ? 0 : null;
}

/**
 * Starts groups while fewer than `IN_FLIGHT` are being committed and writes can go: the first at
 * once (after one turn of the event loop when the group before it was busy), another beside it
 * only when a whole group waits (each commit costs a fixed part, so small groups side by side
 * would cost more than they save in waiting). A whole group is `GROUP_MAX` writes, or as many as
 * the store's checks per atomic allow (10 on a remote KV: each write checks at least one key).
 */
function pump(db: Deno.Kv, c: Committer): void {
  const whole = Math.min(GROUP_MAX, maxChecksPerAtomic());
  while (c.inFlight < inFlightMax && c.queue.length > 0) {
    if (c.queue.length < whole) {
      if (c.inFlight > 0 || c.waiting !== undefined) return;
      const wait = waitForCompany(c);
      if (wait !== null) {
        c.waiting = setTimeout(() => {
          c.waiting = undefined;
          c.lastGroup = 0;
          pump(db, c);
        }, wait);
        return;
      }
    } else if (c.waiting !== undefined) {
      // A whole group came meanwhile: it goes at once.
      clearTimeout(c.waiting);
      c.waiting = undefined;
    }
    const group = takeGroup(c);
    if (group.length === 0) return;
    c.lastGroup = group.length;
    c.inFlight++;
    for (const w of group) for (const k of w.checked) c.held.set(k, (c.held.get(k) ?? 0) + 1);
    void commitGroup(db, group).finally(() => {
      c.inFlight--;
      for (const w of group) {
        for (const k of w.checked) {
          const n = c.held.get(k)! - 1;
          if (n === 0) c.held.delete(k);
          else c.held.set(k, n);
        }
      }
      pump(db, c);
    });
  }
}

/**
 * The next group: queued writes in order, at most `GROUP_MAX` and at most the store's checks per
 * atomic (10 on a remote KV) between them, none checking a key another in the group or in flight
 * checks.
 */
function takeGroup(c: Committer): Write[] {
  const group: Write[] = [], rest: Write[] = [];
  const seen = new Set<string>();
  const maxChecks = maxChecksPerAtomic();
  let checks = 0;
  for (const w of c.queue) {
    const fits = group.length === 0 || checks + w.checked.length <= maxChecks;
    if (group.length < GROUP_MAX && fits && !w.checked.some((k) => seen.has(k) || c.held.has(k))) {
      group.push(w);
      checks += w.checked.length;
      for (const k of w.checked) seen.add(k);
    } else {
      rest.push(w);
    }
  }
  c.queue = rest;
  return group;
}

async function commitGroup(db: Deno.Kv, group: Write[]): Promise<void> {
  if (group.length > 1) {
    try {
      const op = db.atomic();
      gatherEvents(op);
      for (const w of group) w.build(op);
      writeEvents(op);
      if ((await op.commit()).ok) {
        for (const w of group) w.done(true);
        return;
      }
    } catch { /* too large for one atomic, or a write's fault: each on its own below */ }
  }
  // Alone (or after the group failed): each write's own answer.
  await Promise.all(group.map(async (w) => {
    try {
      const op = db.atomic();
      gatherEvents(op);
      w.build(op);
      writeEvents(op);
      w.done((await op.commit()).ok);
    } catch (e) {
      w.fail(e);
    }
  }));
}

/**
 * A key as a string, to compare keys (parts typed, so 1 and "1" differ): each part a type letter
 * and its value, joined by NUL (which a string part, written as JSON, never holds unescaped).
 * Written by hand rather than as JSON of tagged arrays: every checked write names several keys.
 */
export function keyId(key: Deno.KvKey): string {
  let id = "";
  for (let i = 0; i < key.length; i++) {
    const p = key[i];
    if (i > 0) id += "\0";
    if (typeof p === "string") id += "s" + JSON.stringify(p);
    else if (typeof p === "number") id += "n" + (Object.is(p, -0) ? "-0" : String(p));
    else if (typeof p === "bigint") id += "b" + p;
    else if (typeof p === "boolean") id += p ? "t" : "f";
    else if (p instanceof Uint8Array) id += "u" + Array.from(p, (x) => x.toString(16).padStart(2, "0")).join("");
    else id += "y" + JSON.stringify(p.description ?? "");
  }
  return id;
}
