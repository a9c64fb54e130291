/**
 * Blocks (Block / Ignore): the `blocked` flag of a profile like is the record of truth, and this
 * symmetric index, written in the same atomic, makes "is either blocked?" a two-key read. Every
 * feature hides blocked members in both directions with `isBlockedEither` or `blockedSet`.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";

/** Adds to `op` the index writes for `blocker` blocking (or unblocking) `blocked`. */
export function blockIndexOps(op: Deno.AtomicOperation, blocker: string, blocked: string, on: boolean, ts: number) {
  if (on) op.set(keys.block(blocker, blocked), ts).set(keys.blockedBy(blocked, blocker), ts);
  else op.delete(keys.block(blocker, blocked)).delete(keys.blockedBy(blocked, blocker));
}

/** Did `blocker` block `blocked`? */
export async function hasBlocked(blocker: string, blocked: string): Promise<boolean> {
  return (await kv().get(keys.block(blocker, blocked))).versionstamp !== null;
}

/** Did either member block the other? */
export async function isBlockedEither(a: string, b: string): Promise<boolean> {
  const [ab, ba] = await kv().getMany([keys.block(a, b), keys.block(b, a)]);
  return ab.versionstamp !== null || ba.versionstamp !== null;
}

/** Everyone `profileId` blocked or who blocked `profileId`: the members to hide from them. */
export async function blockedSet(profileId: string): Promise<Set<string>> {
  const out = new Set<string>();
  const [mine, theirs] = [
    kv().list({ prefix: keys.blocksBy(profileId) }),
    kv().list({ prefix: keys.blockedByAll(profileId) }),
  ];
  for await (const e of mine) out.add(e.key[2] as string);
  for await (const e of theirs) out.add(e.key[2] as string);
  return out;
}

/** The members `blocker` blocked, newest first, with when. */
export async function listBlocked(blocker: string): Promise<{ profileId: string; tsBlocked: number }[]> {
  const out: { profileId: string; tsBlocked: number }[] = [];
  for await (const e of kv().list<number>({ prefix: keys.blocksBy(blocker) })) {
    out.push({ profileId: e.key[2] as string, tsBlocked: e.value });
  }
  return out.sort((a, b) => b.tsBlocked - a.tsBlocked);
}
