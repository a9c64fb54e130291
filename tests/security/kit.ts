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

/** A key part JSON text does not carry as it is. */
const odd = (p: Deno.KvKeyPart) => typeof p === "bigint" || p instanceof Uint8Array;

/** One key as text (bigints and bytes included). */
export function keyText(key: Deno.KvKey): string {
  // Most keys are strings and numbers, which need no replacer (a replacer is called for every part).
  if (!key.some(odd)) return JSON.stringify(key);
  return JSON.stringify(
    key,
    (_, v) => typeof v === "bigint" ? `${v}n` : v instanceof Uint8Array ? `bytes:${[...v].join(",")}` : v,
  );
}

/** Every stored key with its versionstamp, but the keys in `COUNTED_ON_REFUSAL`. */
export async function kvSnapshot(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  // The most entries a batch may hold: a listing of the whole store in a few reads, not one per hundred keys.
  for await (const e of kv().list({ prefix: [] }, { batchSize: 1000 })) {
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
 * Brings a snapshot up to date, in place, after writes whose keys are known (`touched`, as
 * `countWrites` gives them), and returns what changed (as `kvChanges` words it). Only those keys are
 * read again (ten to a read): the store is not listed whole, and the snapshot is not copied. When
 * the keys are not known (null), the whole store is listed and compared. Each key of a write
 * counted is read, so a change to one it names is never missed. A write that names no key it
 * recorded (none should) shows when a later whole snapshot is compared with this one.
 */
export async function bringUpToDate(snapshot: Map<string, string>, touched: Deno.KvKey[] | null): Promise<string[]> {
  if (!touched) {
    const whole = await kvSnapshot();
    const changes = kvChanges(snapshot, whole);
    snapshot.clear();
    for (const [k, v] of whole) snapshot.set(k, v);
    return changes;
  }
  const changes: string[] = [];
  const read = touched.filter((k) => !COUNTED_ON_REFUSAL.includes(String(k[0])));
  for (let i = 0; i < read.length; i += 10) {
    for (const e of await kv().getMany(read.slice(i, i + 10))) {
      const k = keyText(e.key), was = snapshot.get(k);
      if (e.versionstamp === null) {
        if (was !== undefined) changes.push(`removed ${k}`), snapshot.delete(k);
      } else if (was !== e.versionstamp) {
        changes.push(`${was === undefined ? "added" : "changed"} ${k}`);
        snapshot.set(k, e.versionstamp);
      }
    }
  }
  return changes;
}

/**
 * Counts the writes made through a KV handle that touch keys outside `COUNTED_ON_REFUSAL`, so a
 * suite of many calls takes a new snapshot only after a call that wrote, and records the keys they
 * wrote (`touched()`: those since it was last asked, a key that ends with its commit's versionstamp
 * as that commit wrote it; null when a write's keys are not known), so the snapshot is brought up
 * to date by reading those keys alone (`bringUpToDate`). Only a hint: the suites still compare
 * snapshots, and check at the end with the whole store listed that the hint missed nothing.
 */
export function countWrites(handle: Deno.Kv): { readonly count: number; touched(): Deno.KvKey[] | null } {
  let count = 0;
  let touched: Deno.KvKey[] | null = [];
  const counts = (key: Deno.KvKey) => !COUNTED_ON_REFUSAL.includes(String(key[0]));
  const record = (key: Deno.KvKey) => touched?.push(key);
  // deno-lint-ignore no-explicit-any
  const h = handle as any;
  const set = h.set.bind(h), del = h.delete.bind(h), enqueue = h.enqueue.bind(h), atomic = h.atomic.bind(h);
  const stamp = h.commitVersionstamp();
  h.set = async (key: Deno.KvKey, ...rest: unknown[]) => {
    if (counts(key)) count++, record(key);
    return await set(key, ...rest);
  };
  h.delete = async (key: Deno.KvKey) => {
    if (counts(key)) count++, record(key);
    return await del(key);
  };
  // A queued message is no stored key (what its handler writes is written through this handle).
  h.enqueue = async (...args: unknown[]) => {
    count++;
    return await enqueue(...args);
  };
  h.atomic = () => {
    const op = atomic();
    let touches = false, unknown = false;
    const keys: Deno.KvKey[] = [];
    for (const m of ["set", "delete", "sum", "min", "max"]) {
      const orig = op[m].bind(op);
      op[m] = (key: Deno.KvKey, ...rest: unknown[]) => {
        if (counts(key)) touches = true, keys.push(key);
        return orig(key, ...rest);
      };
    }
    // Mutations given as a list: not looked into (a whole snapshot follows them).
    const mutate = op.mutate.bind(op);
    op.mutate = (...args: unknown[]) => {
      touches = unknown = true;
      return mutate(...args);
    };
    const origEnqueue = op.enqueue.bind(op);
    op.enqueue = (...args: unknown[]) => {
      touches = true;
      return origEnqueue(...args);
    };
    const commit = op.commit.bind(op);
    op.commit = async () => {
      if (touches) count++;
      const res = await commit();
      if (unknown) touched = null;
      // Written only when committed; a versionstamped key is stored with its commit's versionstamp.
      else if (res.ok) keys.forEach((k) => record(k.map((p) => p === stamp ? res.versionstamp : p)));
      return res;
    };
    return op;
  };
  return {
    get count() {
      return count;
    },
    touched() {
      const out = touched;
      touched = [];
      return out;
    },
  };
}
