/**
 * Single-key reads gathered into one store call. Every `get` asked for in the same turn of the
 * event loop's microtasks (one request's reads begun together, and those of other requests served
 * at the same moment) goes to the store as one `getMany` of up to `MAX_KEYS_PER_CALL` keys: on a
 * local file each call costs its own trip to the store's thread (about 30 µs of CPU here) beside
 * what each key costs (about 20), so five reads cost about half as much as one call than as five.
 *
 * A few keys that must come from one snapshot may join them as a unit (`READ_TOGETHER`, through
 * kv/db.ts `getTogether`): they go in one call with the others, never split between two.
 *
 * What a caller gets is what its own `get` would have given: the entry of its key, read in one
 * consistent snapshot with the others (never an older one than its own call would have read, as the
 * batch is read after it was asked for). A batch that fails (a key the store refuses, say) is asked
 * for again key by key, so each caller gets its own answer or its own error.
 */

/** The most keys one `getMany` may carry (Deno KV's limit). */
export const MAX_KEYS_PER_CALL = 10;

/**
 * The method of a coalescing handle that reads a few keys (at most `MAX_KEYS_PER_CALL`) in one
 * snapshot, in the store call of the single-key reads asked for beside them (kv/db.ts
 * `getTogether`): never split between two calls.
 */
export const READ_TOGETHER = Symbol("readTogether");

/** Reads asked for: one key (a `get`) or a few read together, never split between store calls. */
interface Waiting {
  keys: Deno.KvKey[];
  resolve: (entries: Deno.KvEntryMaybe<unknown>[]) => void;
  reject: (e: unknown) => void;
}

/** The handle `db`, with its single-key reads gathered (see the module's comment); every other call as it was. */
export function coalescedGets(db: Deno.Kv): Deno.Kv {
  const getOne = (key: Deno.KvKey, consistency?: Deno.KvConsistencyLevel) =>
    db.get(key, consistency ? { consistency } : undefined);
  const getMany = (keys: Deno.KvKey[], consistency?: Deno.KvConsistencyLevel) =>
    db.getMany(keys, consistency ? { consistency } : undefined);
  /** The reads asked for since the last batch, by consistency level ("" for the default). */
  const waiting = new Map<string, Waiting[]>();
  let scheduled = false;

  /** Reads `w`'s keys alone: its own answer or its own error. */
  function alone(w: Waiting, consistency?: Deno.KvConsistencyLevel) {
    if (w.keys.length === 1) getOne(w.keys[0], consistency).then((e) => w.resolve([e]), w.reject);
    else getMany(w.keys, consistency).then(w.resolve, w.reject);
  }

  /** One store call for `batch` (at most `MAX_KEYS_PER_CALL` keys between them). */
  function read(batch: Waiting[], consistency?: Deno.KvConsistencyLevel) {
    if (batch.length === 1) return alone(batch[0], consistency);
    getMany(batch.flatMap((w) => w.keys), consistency).then(
      (entries) => {
        let at = 0;
        for (const w of batch) w.resolve(entries.slice(at, at += w.keys.length));
      },
      () => batch.forEach((w) => alone(w, consistency)),
    );
  }

  function flush() {
    scheduled = false;
    for (const [level, all] of waiting) {
      const consistency = (level || undefined) as Deno.KvConsistencyLevel | undefined;
      // In the order asked for, as many as fit in a call; reads asked for together stay together.
      let batch: Waiting[] = [], n = 0;
      for (const w of all) {
        if (n + w.keys.length > MAX_KEYS_PER_CALL) {
          read(batch, consistency);
          batch = [];
          n = 0;
        }
        batch.push(w);
        n += w.keys.length;
      }
      if (batch.length) read(batch, consistency);
    }
    waiting.clear();
  }

  function ask(keys: Deno.KvKey[], level: string) {
    return new Promise<Deno.KvEntryMaybe<unknown>[]>((resolve, reject) => {
      let list = waiting.get(level);
      if (!list) waiting.set(level, list = []);
      list.push({ keys, resolve, reject });
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(flush);
      }
    });
  }

  function get<T = unknown>(key: Deno.KvKey, options?: { consistency?: Deno.KvConsistencyLevel }) {
    return ask([key], options?.consistency ?? "").then((e) => e[0] as Deno.KvEntryMaybe<T>);
  }

  /** Up to `MAX_KEYS_PER_CALL` keys in one snapshot, with the reads asked for beside them. */
  function together(keys: Deno.KvKey[]): Promise<Deno.KvEntryMaybe<unknown>[]> {
    return keys.length > MAX_KEYS_PER_CALL ? getMany(keys) : ask(keys, "");
  }

  // Every other method bound to the handle once, not at each call (a store call is a hot path); a
  // method replaced on the handle (a test's write counter) is bound anew.
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "get") return get;
      if (prop === READ_TOGETHER) return together;
      if (bound.has(prop)) return bound.get(prop);
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      const f = v.bind(target);
      bound.set(prop, f);
      return f;
    },
    set(target, prop, value) {
      bound.delete(prop);
      return Reflect.set(target, prop, value);
    },
  });
}
