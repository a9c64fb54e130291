/**
 * A store handle that waits out a busy file. Several processes on one local KV file (web
 * instances, `deno task worker`, a seed run) share SQLite's single write lock; when one holds it
 * long enough (a picture's blob chunks, a deletion's batches), a call in another process fails
 * with "database is locked". Such a failure means nothing was applied (the SQLite transaction
 * that met the lock is rolled back, and a commit that fails never becomes visible), so the call
 * is made again: bounded exponential backoff with full jitter, up to `BUSY_BUDGET_MS` in all,
 * then the error is thrown as it was. Every other error passes at once.
 *
 * Covered: get, getMany, set, delete, atomic().commit(), enqueue, list iterators (a listing that
 * meets the lock asks for the same batch again, so no entry is given twice or skipped) and
 * watch streams (one that errors is opened again; a watch's first value is the current state, so
 * readers see at most one extra wake-up). A remote KV (KV Connect) never says "locked": the
 * wrapper costs it one `try` per call.
 */

/** The longest a call waits for the lock, in all, before its error is thrown. */
export const BUSY_BUDGET_MS = 5_000;
const FIRST_DELAY_MS = 5;
const MAX_DELAY_MS = 400;
/** Busy errors closer together than this are one burst: logged once. */
const BURST_QUIET_MS = 10_000;

/** Is this SQLite's busy error (another process holds the file's write lock)? */
export function isBusy(e: unknown): boolean {
  return e instanceof Error && /database is (locked|busy)|SQLITE_BUSY/i.test(e.message);
}

let lastBusy = -Infinity;
let retriesInBurst = 0;
/** How many calls met the lock and were made again, since the process started (tests, metrics). */
export const busyStats = { retries: 0, gaveUp: 0 };

function noteBusy(call: string, budgetMs: number): void {
  const t = performance.now();
  if (t - lastBusy > BURST_QUIET_MS) {
    if (retriesInBurst > 1) console.warn(`kv: the last busy burst took ${retriesInBurst} retries`);
    retriesInBurst = 0;
    console.warn(
      `kv: the store file is busy (another process is writing); retrying ${call} ${
        Number.isFinite(budgetMs) ? `for up to ${budgetMs} ms` : "until it is free"
      }`,
    );
  }
  lastBusy = t;
  retriesInBurst++;
  busyStats.retries++;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs `fn`, and runs it again while it fails with the busy error, within the budget. */
export async function retryBusy<T>(call: string, fn: () => Promise<T>, budgetMs = BUSY_BUDGET_MS): Promise<T> {
  const deadline = performance.now() + budgetMs;
  let delay = FIRST_DELAY_MS;
  for (;;) {
    try {
      return await fn();
    } catch (e) {
      const left = deadline - performance.now();
      if (!isBusy(e) || left <= 0) {
        if (isBusy(e)) {
          busyStats.gaveUp++;
          console.error(`kv: ${call} still met a busy store after ${budgetMs} ms`);
        }
        throw e;
      }
      noteBusy(call, budgetMs);
      // Full jitter: processes that met the lock together do not all come back together.
      await sleep(Math.min(left, Math.random() * delay));
      delay = Math.min(MAX_DELAY_MS, delay * 2);
    }
  }
}

/** An atomic operation whose commit waits out a busy store; its builder calls keep returning the wrapper. */
function patientAtomic(op: Deno.AtomicOperation, budgetMs: number): Deno.AtomicOperation {
  const commit = op.commit.bind(op);
  const own = new Map<PropertyKey, unknown>();
  const proxy: Deno.AtomicOperation = new Proxy(op, {
    set: keepOnWrapper<Deno.AtomicOperation>(own),
    get(target, prop) {
      if (own.has(prop)) return own.get(prop);
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      if (prop === "commit") return () => retryBusy("commit", commit, budgetMs);
      return (...args: unknown[]) => {
        const r = v.apply(target, args);
        return r === target ? proxy : r;
      };
    },
  });
  return proxy;
}

/**
 * A listing whose batch reads wait out a busy store. A failed batch read leaves the iterator as it
 * was (its buffer empty, its cursor at the last entry it gave), so `next()` is simply asked again:
 * no entry is given twice or skipped.
 */
function patientList<T>(it: Deno.KvListIterator<T>, budgetMs: number): Deno.KvListIterator<T> {
  return new Proxy(it, {
    get(target, prop) {
      if (prop === "next") return () => retryBusy("list", () => target.next(), budgetMs);
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

/** A watch stream that is opened again (after a backoff) when it fails with the busy error. */
function patientWatch(db: Deno.Kv, watchKeys: readonly Deno.KvKey[], options?: { raw?: boolean }) {
  let reader: ReadableStreamDefaultReader<Deno.KvEntryMaybe<unknown>[]> | undefined;
  let delay = FIRST_DELAY_MS;
  return new ReadableStream<Deno.KvEntryMaybe<unknown>[]>({
    async pull(ctl) {
      for (;;) {
        reader ??= db.watch(watchKeys as Deno.KvKey[], options).getReader();
        try {
          const r = await reader.read();
          if (r.done) ctl.close();
          else ctl.enqueue(r.value);
          delay = FIRST_DELAY_MS;
          return;
        } catch (e) {
          if (!isBusy(e)) throw e;
          noteBusy("watch", Infinity);
          reader = undefined;
          await sleep(Math.random() * delay);
          delay = Math.min(MAX_DELAY_MS * 4, delay * 2);
        }
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}

const PLAIN = new Set(["get", "getMany", "set", "delete", "enqueue"]);

/**
 * A property assigned through a wrapper (a test that counts commits by replacing `atomic` or
 * `commit`) is kept on the wrapper and read back from it; the wrapped object keeps its own, which
 * the wrapper's calls use, so a replacement that calls the one it replaced never calls itself.
 */
function keepOnWrapper<T extends object>(own: Map<PropertyKey, unknown>) {
  return (_target: T, prop: PropertyKey, value: unknown) => {
    own.set(prop, value);
    return true;
  };
}

/** The handle, with every call waiting out a busy store (see the module's comment). */
export function patientKv(db: Deno.Kv, budgetMs = BUSY_BUDGET_MS): Deno.Kv {
  // Taken now, so a replacement assigned later that calls the one it replaced never calls itself.
  const atomic = db.atomic?.bind(db);
  const own = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    set: keepOnWrapper<Deno.Kv>(own),
    get(target, prop) {
      if (own.has(prop)) return own.get(prop);
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      if (prop === "atomic") return () => patientAtomic(atomic(), budgetMs);
      if (prop === "list") return (...args: unknown[]) => patientList(v.apply(target, args), budgetMs);
      if (prop === "watch") {
        return (watchKeys: readonly Deno.KvKey[], options?: { raw?: boolean }) =>
          patientWatch(target, watchKeys, options);
      }
      if (typeof prop === "string" && PLAIN.has(prop)) {
        return (...args: unknown[]) => retryBusy(prop, () => v.apply(target, args), budgetMs);
      }
      return v.bind(target);
    },
  });
}
