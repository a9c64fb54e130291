/** Security test kit: a snapshot of every stored key, to show that a refused call stored nothing. */

import { kv } from "../../kv/db.ts";

/**
 * Keys a refused call may write by design: rate-limit counts (counting refused attempts is their
 * point). Nothing else.
 */
export const COUNTED_ON_REFUSAL: readonly string[] = ["rate_limit_counts"];

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
