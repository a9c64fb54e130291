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

/** Adds to `op` the index writes for `blocker` blocking (or unblocking) `blocked`. */
export function blockIndexOps(op: Deno.AtomicOperation, blocker: string, blocked: string, on: boolean, ts: number) {
  if (on) op.set(keys.block(blocker, blocked), ts).set(keys.blockedBy(blocked, blocker), ts);
  else op.delete(keys.block(blocker, blocked)).delete(keys.blockedBy(blocked, blocker));
}

/** Did `blocker` block `blocked`? */
export async function hasBlocked(blocker: string, blocked: string): Promise<boolean> {
  return (await kv().get(keys.block(blocker, blocked))).versionstamp !== null;
}

/** Why and until when a member is withdrawn from everyone's view (kv/moderation.ts writes it). */
export interface Withdrawal {
  kind: "SUSPENSION" | "BAN" | "REVIEW";
  /** The admin action behind it (none for a review). */
  actionId: string | null;
  /** When it ends by itself (null: a ban, or a review that waits for an admin). */
  until: number | null;
  ts: number;
}

/** Is a withdrawal still in force? */
export function inForce(w: Withdrawal | null | undefined, at = now()): w is Withdrawal {
  return !!w && (w.until === null || w.until > at);
}

/** The members withdrawn from everyone's view now. */
export async function withdrawnSet(): Promise<Set<string>> {
  const out = new Set<string>();
  const t = now();
  for await (const e of kv().list<Withdrawal>({ prefix: keys.withdrawnAll() })) {
    if (inForce(e.value, t)) out.add(e.key[1] as string);
  }
  return out;
}

/** Did either member block the other, or is `other` withdrawn (hidden from `viewer` either way)? */
export async function isBlockedEither(viewer: string, other: string): Promise<boolean> {
  const [ab, ba, w] = await kv().getMany<[unknown, unknown, Withdrawal]>([
    keys.block(viewer, other),
    keys.block(other, viewer),
    keys.withdrawn(other),
  ]);
  return ab.versionstamp !== null || ba.versionstamp !== null || (other !== viewer && inForce(w.value));
}

/** Everyone `profileId` blocked or who blocked `profileId`, and everyone withdrawn: the members to hide from them. */
export async function blockedSet(profileId: string): Promise<Set<string>> {
  const out = new Set<string>();
  const [mine, theirs, withdrawn] = [
    kv().list({ prefix: keys.blocksBy(profileId) }),
    kv().list({ prefix: keys.blockedByAll(profileId) }),
    withdrawnSet(),
  ];
  for await (const e of mine) out.add(e.key[2] as string);
  for await (const e of theirs) out.add(e.key[2] as string);
  for (const id of await withdrawn) if (id !== profileId) out.add(id);
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
  return inForce((await kv().get<Withdrawal>(keys.withdrawn(profileId))).value);
}
