/**
 * A KV handle with a wrapper around each store call: `call` runs around every get, getMany, set,
 * delete and atomic commit (named so), `list` wraps each list iterator. OpenTelemetry spans
 * (kv/tracing.ts) and the benches' round-trip counter (kv/roundTrips.ts) are both made so.
 */

import { READ_TOGETHER } from "./coalesce.ts";

export interface CallWrappers {
  /** Runs one call (`name`: get, getMany, set, delete or commit). */
  call<T>(name: string, run: () => Promise<T>): Promise<T>;
  /** Wraps a list's iterator (its options as given). */
  list<T>(it: Deno.KvListIterator<T>, options: Deno.KvListOptions): Deno.KvListIterator<T>;
}

const ONE_CALL = new Set(["get", "getMany", "set", "delete"]);

/**
 * An atomic operation whose commit runs through `call`; chained calls keep returning the wrapper. A
 * commit set on the wrapper (kv/events.ts starts a tail once an atomic with events commits) is kept
 * on the wrapper and called in its place: it calls the wrapper's commit it read before, which
 * commits the operation itself (set on the operation, the wrapper's commit would call it again,
 * without end).
 */
function wrappedAtomic(op: Deno.AtomicOperation, w: CallWrappers): Deno.AtomicOperation {
  const commit = op.commit.bind(op);
  let commitSet: Deno.AtomicOperation["commit"] | undefined;
  const proxy: Deno.AtomicOperation = new Proxy(op, {
    get(target, prop) {
      if (prop === "commit") return commitSet ?? (() => w.call("commit", commit));
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      return (...args: unknown[]) => {
        const r = v.apply(target, args);
        return r === target ? proxy : r;
      };
    },
    set(target, prop, value) {
      if (prop !== "commit") return Reflect.set(target, prop, value, target);
      commitSet = value;
      return true;
    },
  });
  return proxy;
}

/** The handle, each store call through `w`. */
export function wrapCalls(db: Deno.Kv, w: CallWrappers): Deno.Kv {
  return new Proxy(db, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      if (prop === "atomic") return () => wrappedAtomic(target.atomic(), w);
      if (prop === "list") {
        return (selector: Deno.KvListSelector, options: Deno.KvListOptions = {}) =>
          w.list(target.list(selector, options), options);
      }
      if (typeof prop === "string" && ONE_CALL.has(prop)) {
        return (...args: unknown[]) => w.call(prop, () => v.apply(target, args));
      }
      // Keys read together (kv/db.ts `getTogether`): a getMany as the caller sees it.
      if (prop === READ_TOGETHER) return (...args: unknown[]) => w.call("getMany", () => v.apply(target, args));
      return v.bind(target);
    },
  });
}
