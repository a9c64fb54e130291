/**
 * Blocks (Block / Ignore): the `blocked` flag of a profile like is the record of truth, and this
 * symmetric index, written in the same atomic, makes "is either blocked?" a two-key read. Every
 * feature hides blocked members in both directions with `isBlockedEither` or `blockedSet`.
 *
 * Members withdrawn by moderation (suspended, banned, or under review after reports:
 * kv/moderation.ts) are hidden the same way from everyone: `blockedSet` holds them and
 * `isBlockedEither(viewer, other)` is true when `other` is withdrawn. A withdrawn member still
 * sees others (one under review keeps using the app; the suspended have no session).
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { forgetHere, forgetKept, keepingReads, keptRead } from "./kept.ts";
import type { Withdrawal } from "../domain/shapes/moderation.ts";

/**
 * Adds to `op` the index writes for `blocker` blocking (or unblocking) `blocked`, and the forget
 * of both members' kept block lists (kv/kept.ts). After the commit, call `blocksChangedHere`.
 */
export function blockIndexOps(op: Deno.AtomicOperation, blocker: string, blocked: string, on: boolean, ts: number) {
  if (on) op.set(keys.block(blocker, blocked), ts).set(keys.blockedBy(blocked, blocker), ts);
  else op.delete(keys.block(blocker, blocked)).delete(keys.blockedBy(blocked, blocker));
  forgetKept(op, "blocks", [blocker, blocked]);
}

/** This instance forgets the kept block lists of `blocker` and `blocked` now (after `blockIndexOps` committed). */
export function blocksChangedHere(blocker: string, blocked: string): void {
  forgetHere("blocks", [blocker, blocked]);
}

/**
 * Commits `op`, which withdraws a member or ends a withdrawal (kv/moderation.ts, an account's
 * deletion), with the forget of every instance's kept withdrawals.
 */
export async function commitWithdrawal(op: Deno.AtomicOperation): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  forgetKept(op, "withdrawn", [ALL]);
  const res = await op.commit();
  forgetHere("withdrawn", [ALL]);
  return res;
}
const ALL = "all";

/** Did `blocker` block `blocked`? */
export async function hasBlocked(blocker: string, blocked: string): Promise<boolean> {
  // An instance that keeps reads has the lists of the member asking (`blocked`, the caller) at hand.
  if (keepingReads()) return (await blocksOf(blocked)).blockedBy.includes(blocker);
  return (await kv().get(keys.block(blocker, blocked))).versionstamp !== null;
}

/** Is a withdrawal still in force? */
export function inForce(w: Withdrawal | null | undefined, at = now()): w is Withdrawal {
  return !!w && (w.until === null || w.until > at);
}

/** Every withdrawal stored, in force or not (kept a few seconds by the instance: kv/kept.ts). */
function withdrawals(): Promise<Map<string, Withdrawal>> {
  return keptRead("withdrawn", ALL, async () => {
    const out = new Map<string, Withdrawal>();
    for await (const e of kv().list<Withdrawal>({ prefix: keys.withdrawnAll() })) out.set(e.key[1] as string, e.value);
    return out;
  });
}

/** The members withdrawn from everyone's view now. */
async function withdrawnSet(): Promise<Set<string>> {
  const out = new Set<string>();
  const t = now();
  for (const [id, w] of await withdrawals()) if (inForce(w, t)) out.add(id);
  return out;
}

/** Everyone `profileId` blocked, and everyone who blocked `profileId` (kept a minute by the instance). */
function blocksOf(profileId: string): Promise<{ blocked: string[]; blockedBy: string[] }> {
  return keptRead("blocks", profileId, async () => {
    // Both lists read at once: one round trip to a remote store, not two.
    const [blocked, blockedBy] = await Promise.all([keys.blocksBy(profileId), keys.blockedByAll(profileId)].map(
      async (prefix) => {
        const ids: string[] = [];
        for await (const e of kv().list({ prefix })) ids.push(e.key[2] as string);
        return ids;
      },
    ));
    return { blocked, blockedBy };
  });
}

/** Did either member block the other, or is `other` withdrawn (hidden from `viewer` either way)? */
export async function isBlockedEither(viewer: string, other: string): Promise<boolean> {
  // An instance that keeps reads has the viewer's lists at hand; else three keys are the cheaper read.
  if (keepingReads()) {
    const [blocks, all] = await Promise.all([blocksOf(viewer), withdrawals()]);
    return blocks.blocked.includes(other) || blocks.blockedBy.includes(other) ||
      (other !== viewer && inForce(all.get(other)));
  }
  const [ab, ba, w] = await kv().getMany<[unknown, unknown, Withdrawal]>([
    keys.block(viewer, other),
    keys.block(other, viewer),
    keys.withdrawn(other),
  ]);
  return ab.versionstamp !== null || ba.versionstamp !== null || (other !== viewer && inForce(w.value));
}

/** Everyone `profileId` blocked or who blocked `profileId`, and everyone withdrawn: the members to hide from them. */
export async function blockedSet(profileId: string): Promise<Set<string>> {
  const [blocks, withdrawn] = await Promise.all([blocksOf(profileId), withdrawnSet()]);
  const out = new Set([...blocks.blocked, ...blocks.blockedBy]);
  for (const id of withdrawn) if (id !== profileId) out.add(id);
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

/** Is the member withdrawn from everyone's view now (suspended, banned, under review)? */
export async function isWithdrawn(profileId: string): Promise<boolean> {
  if (keepingReads()) return inForce((await withdrawals()).get(profileId));
  return inForce((await kv().get<Withdrawal>(keys.withdrawn(profileId))).value);
}
