/** Security test kit: a snapshot of every stored key, to show that a refused call stored nothing. */

import { kv } from "../../kv/db.ts";

/**
 * Keys a refused call may write by design: rate-limit counts (counting refused attempts is their
 * point). Nothing else.
 */
export const COUNTED_ON_REFUSAL: readonly string[] = ["rate_limit_counts"];

/**
 * Keys that expire on their own within a run (what a member is looking at lasts 45 s): a suite that
 * compares snapshots over minutes clears them between routes, so an expiry is never read as a write.
 */
export const EXPIRE_WITHIN_A_RUN: readonly string[] = ["looking_at"];

/** Removes the keys of `EXPIRE_WITHIN_A_RUN`, before a snapshot that later calls are compared with. */
export async function clearExpiring(): Promise<void> {
  for (const prefix of EXPIRE_WITHIN_A_RUN) {
    for await (const e of kv().list({ prefix: [prefix] })) await kv().delete(e.key);
  }
}

/** One key as text (bigints and bytes included). */
export function keyText(key: Deno.KvKey): string {
  return JSON.stringify(
    key,
    (_, v) => typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? `bytes:${[...v].join(",")}` : v,
  );
}

/** Every stored key with its versionstamp, but the keys in `COUNTED_ON_REFUSAL`. */
export async function kvSnapshot(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for await (const e of kv().list({ prefix: [] })) {
    if (COUNTED_ON_REFUSAL.includes(String(e.key[0]))) continue;
    out.set(keyText(e.key), e.versionstamp);
  }
  return out;
}

/** The keys added, changed or removed between two snapshots (empty when nothing was stored). */
export function kvChanges(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [k, v] of after) {
    if (!before.has(k)) changes.push(`added ${k}`);
    else if (before.get(k) !== v) changes.push(`changed ${k}`);
  }
  for (const k of before.keys()) if (!after.has(k)) changes.push(`removed ${k}`);
  return changes;
}

/**
 * Counts the writes made through a KV handle that touch keys outside `COUNTED_ON_REFUSAL`, so a
 * suite of many calls takes a new snapshot only after a call that wrote. Only a hint: the suites
 * still compare snapshots, and check at the end that the hint missed nothing.
 */
export function countWrites(handle: Deno.Kv): { readonly count: number } {
  let count = 0;
  const counts = (key: Deno.KvKey) => !COUNTED_ON_REFUSAL.includes(String(key[0]));
  // deno-lint-ignore no-explicit-any
  const h = handle as any;
  const set = h.set.bind(h), del = h.delete.bind(h), enqueue = h.enqueue.bind(h), atomic = h.atomic.bind(h);
  h.set = async (key: Deno.KvKey, ...rest: unknown[]) => {
    if (counts(key)) count++;
    return await set(key, ...rest);
  };
  h.delete = async (key: Deno.KvKey) => {
    if (counts(key)) count++;
    return await del(key);
  };
  h.enqueue = async (...args: unknown[]) => {
    count++;
    return await enqueue(...args);
  };
  h.atomic = () => {
    const op = atomic();
    let touches = false;
    for (const m of ["set", "delete", "sum", "min", "max"]) {
      const orig = op[m].bind(op);
      op[m] = (key: Deno.KvKey, ...rest: unknown[]) => {
        if (counts(key)) touches = true;
        return orig(key, ...rest);
      };
    }
    const origEnqueue = op.enqueue.bind(op);
    op.enqueue = (...args: unknown[]) => {
      touches = true;
      return origEnqueue(...args);
    };
    const commit = op.commit.bind(op);
    op.commit = async () => {
      if (touches) count++;
      return await commit();
    };
    return op;
  };
  return {
    get count() {
      return count;
    },
  };
}
