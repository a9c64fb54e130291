/**
 * Store round trips, counted: a handle that waits a set time on every store call (a network's
 * round trip, as remote KV costs) and records when each call began and ended under the work that
 * made it. `tripsOf` runs a piece of work (a request) and answers how many calls it made and how
 * many of them lie one after another on its critical path: calls started together (a `getMany`, a
 * `Promise.all`) count once. Benches and tests only (bench/roundtrips.ts); the app never wraps its
 * handle so.
 */

import { AsyncLocalStorage } from "node:async_hooks";
import { wrapCalls } from "./handleProxy.ts";

/** One store call: when it began and ended (performance.now()). */
interface Call {
  /** The call, and where in the app it was made (the first frame outside this file). */
  name: string;
  start: number;
  end: number;
}

const current = new AsyncLocalStorage<Call[]>();

/** The most entries Deno KV fetches in one batch of a list, and its default (docs of `batchSize`). */
const LIST_BATCH_MAX = 500;
const LIST_BATCH_DEFAULT = 100;

let whereOn = false;
/** Names each recorded call by the app's function that made it (slower: a stack trace per call). */
export function nameCallsByCaller(on: boolean): void {
  whereOn = on;
}

/** The first frame of the stack outside this file, kv/handleProxy.ts and kv/db.ts: the app code that made the call. */
function caller(): string {
  const lines = (new Error().stack ?? "").split("\n").slice(1);
  for (const l of lines) {
    if (
      l.includes("roundTrips.ts") || l.includes("handleProxy.ts") || l.includes("/kv/db.ts") || !l.includes("file://")
    ) continue;
    const m = l.match(/at (?:async )?([^ ]+) \(.*\/([^/]+:\d+):\d+\)/) ?? l.match(/\/([^/]+:\d+):\d+/);
    return m ? (m.length > 2 ? `${m[1]} ${m[2]}` : m[1]) : "?";
  }
  return "?";
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs one call with the added wait, recording it under the current work. */
async function timed<T>(name: string, delayMs: number, fn: () => Promise<T>): Promise<T> {
  const calls = current.getStore();
  if (calls && whereOn) name = `${name}@${caller()}`;
  const start = performance.now();
  try {
    const out = await fn();
    if (delayMs > 0) await sleep(delayMs);
    return out;
  } finally {
    calls?.push({ name, start, end: performance.now() });
  }
}

/** A list iterator that pays a round trip for each batch it fetches (the first, then every `batch` entries, up to `limit`). */
function countedList<T>(
  it: Deno.KvListIterator<T>,
  batch: number,
  limit: number,
  delayMs: number,
): Deno.KvListIterator<T> {
  let seen = 0;
  let done = false;
  return new Proxy(it, {
    get(target, prop) {
      if (prop === "next") {
        return async () => {
          // A batch is fetched at the first entry and after each full batch, never past the limit.
          const fetches = !done && seen % batch === 0 && seen < limit;
          const r = fetches ? await timed("list", delayMs, () => target.next()) : await target.next();
          if (r.done) done = true;
          else seen++;
          return r;
        };
      }
      if (prop === Symbol.asyncIterator) {
        return function (this: unknown) {
          return this;
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** The handle, each call waiting `delayMs` before it answers and recorded under the work that made it. */
export function countedKv(db: Deno.Kv, delayMs: number): Deno.Kv {
  return wrapCalls(db, {
    call: (name, run) => timed(name, delayMs, run),
    list: (it, options) => {
      const batch = Math.min(options.batchSize ?? options.limit ?? LIST_BATCH_DEFAULT, LIST_BATCH_MAX);
      return countedList(it, Math.max(1, batch), options.limit ?? Infinity, delayMs);
    },
  });
}

/**
 * Runs `work` apart from the request that starts it: background store work the request does not
 * wait for (a tail of the change log begun on its way) is not on its critical path.
 */
export function detached<T>(work: () => T): T {
  return current.exit(work);
}

/** What one piece of work cost the store. */
export interface Trips {
  /** Store calls made. */
  calls: number;
  /** The longest chain of calls each begun after the one before it ended: the round trips a caller waits for. */
  sequential: number;
  /** The calls by name, in the order they began. */
  names: string[];
  /** The calls of the critical path by name, in order. */
  path: string[];
}

/** The longest chain of calls in which each begins at or after the end of the one before. */
export function criticalPath(calls: readonly { start: number; end: number }[]): number {
  return criticalChain(calls).length;
}

/** The calls of the longest chain in which each begins at or after the end of the one before, in order. */
export function criticalChain<C extends { start: number; end: number }>(calls: readonly C[]): C[] {
  const byEnd = [...calls].sort((a, b) => a.end - b.end);
  const chain: number[] = [];
  const before: number[] = [];
  let best = -1;
  for (let i = 0; i < byEnd.length; i++) {
    chain[i] = 1;
    before[i] = -1;
    for (let j = 0; j < i; j++) {
      if (byEnd[j].end <= byEnd[i].start && chain[j] + 1 > chain[i]) {
        chain[i] = chain[j] + 1;
        before[i] = j;
      }
    }
    if (best < 0 || chain[i] > chain[best]) best = i;
  }
  const out: C[] = [];
  for (let i = best; i >= 0; i = before[i]) out.unshift(byEnd[i]);
  return out;
}

/** Runs `work` and counts the store calls it made (through a `countedKv` handle) and their critical path. */
export async function tripsOf<T>(work: () => Promise<T>): Promise<{ result: T; trips: Trips }> {
  const calls: Call[] = [];
  const result = await current.run(calls, work);
  const names = [...calls].sort((a, b) => a.start - b.start).map((c) => c.name);
  const path = criticalChain(calls).map((c) => c.name);
  return { result, trips: { calls: calls.length, sequential: path.length, names, path } };
}
