/** Fixed-window rate limits kept in KV, so every instance counts together. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { setNewest } from "../domain/newest.ts";
import { detached } from "./roundTrips.ts";

/** A limit: at most `max` hits per `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

/** Every rate limit of the API, by scope. Two scopes each: the address and the account (or email). */
export const LIMITS = {
  // Password logins (kv/logintrust.ts). From places the member never logged in from: per address
  // over all accounts, per (account, address), and a slow budget per account over all addresses
  // (NIST 800-63B: at most 100 failed tries). A place the member logged in from before (address or
  // device cookie) has its own budget instead, so strangers' guesses never lock the member out.
  loginByAddress: { max: 30, windowMs: 15 * 60_000 },
  loginByAccountAddress: { max: 10, windowMs: 15 * 60_000 },
  loginByAccount: { max: 100, windowMs: 60 * 60_000 },
  loginKnownPlace: { max: 10, windowMs: 15 * 60_000 },
  // The current password asked again to change the email or password or to end other sessions
  // (routes/api/settings.ts), per account: a stolen session gets 10 guesses an hour. Right and
  // wrong answers count. Never a lockout: a fresh login link stands in for the password.
  reauthByAccount: { max: 10, windowMs: 60 * 60_000 },
  // Login-link logins, per address (a link token cannot be guessed; this only slows automation).
  loginLinkByAddress: { max: 30, windowMs: 15 * 60_000 },
  // Register and login-link requests: the same split, so asking for a member's links cannot stop theirs.
  registerByAddress: { max: 10, windowMs: 60 * 60_000 },
  registerByEmailAddress: { max: 3, windowMs: 60 * 60_000 },
  registerByEmail: { max: 10, windowMs: 60 * 60_000 },
  registerKnownPlace: { max: 5, windowMs: 60 * 60_000 },
  contactByAccount: { max: 5, windowMs: 60 * 60_000 },
  contactByAddress: { max: 20, windowMs: 60 * 60_000 },
  // Support's problem report needs no login: tighter, by address only.
  supportByAddress: { max: 5, windowMs: 60 * 60_000 },
  uploadByAccount: { max: 60, windowMs: 60 * 60_000 },
  uploadByAddress: { max: 200, windowMs: 60 * 60_000 },
  reportByAccount: { max: 10, windowMs: 24 * 60 * 60_000 },
  reportByAddress: { max: 30, windowMs: 24 * 60 * 60_000 },
  // Discovery: the map polls every 15 s and asks again on every pan; 600 in 10 min is one a second.
  discoveryByAccount: { max: 600, windowMs: 10 * 60_000 },
  discoveryByAddress: { max: 1800, windowMs: 10 * 60_000 },
  // Map tiles (routes/tiles.ts): a view asks 20 to 70, a fast pan or zoom as many again, and the
  // browser keeps them a day. Ten a second over ten minutes is more than a member panning nonstop.
  tilesByAddress: { max: 6000, windowMs: 10 * 60_000 },
  // Position reports are debounced 1 s on the client.
  positionByAccount: { max: 600, windowMs: 10 * 60_000 },
  messageByAccount: { max: 60, windowMs: 60_000 },
  broadcastByAccount: { max: 10, windowMs: 10 * 60_000 },
  // Standard members' daily limits (design.md: the spec hides them); Pro and volunteers have none.
  likesPerDay: { max: 200, windowMs: 24 * 60 * 60_000 },
  newConversationsPerDay: { max: 30, windowMs: 24 * 60 * 60_000 },
  // A copy of one's data: building it reads everything, so a few a day.
  exportByAccount: { max: 3, windowMs: 24 * 60 * 60_000 },
  // Members younger than a day (NEW_MEMBER_MS) count against these too, whatever their roles:
  // most spam and scam accounts are hours old (docs/decisions/0021-limits-standard-and-newcomer.md).
  newMemberMessages: { max: 10, windowMs: 60_000 },
  newMemberConversations: { max: 10, windowMs: 24 * 60 * 60_000 },
  newMemberLikes: { max: 50, windowMs: 24 * 60 * 60_000 },
  newMemberBroadcasts: { max: 3, windowMs: 10 * 60_000 },
  newMemberUploads: { max: 10, windowMs: 60 * 60_000 },
  newMemberReports: { max: 3, windowMs: 24 * 60 * 60_000 },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** The limits of standard members, and the roles that lift them. */
export const STANDARD_LIMITS = ["likesPerDay", "newConversationsPerDay"] as const satisfies readonly LimitName[];
export const UNLIMITED_ROLES = ["PRO", "VOLUNTEER"] as const;

/** The message of a reached standard limit. */
export const STANDARD_LIMIT_MESSAGE =
  "You reached today's limit for standard members. Pro and volunteer members have no limits.";

/** Does a standard member's daily limit apply to `who` (no unlimited role)? */
export function standardApplies(who: { roles: readonly string[] }): boolean {
  return !who.roles.some((r) => (UNLIMITED_ROLES as readonly string[]).includes(r));
}

/** Counts a standard member's use of a daily limit; members with an unlimited role always pass. */
export function hitStandard(
  name: typeof STANDARD_LIMITS[number],
  who: { accountId: string; roles: readonly string[] },
): Promise<boolean> {
  if (!standardApplies(who)) return Promise.resolve(true);
  return hit(name, who.accountId);
}

/** A member whose account is younger than this has the tighter `newMember*` limits as well. */
export const NEW_MEMBER_MS = 24 * 60 * 60_000;
type NewMemberLimit = Extract<LimitName, `newMember${string}`>;

/** Do the tighter `newMember*` limits apply to `who` (an account younger than a day)? */
export function newMemberApplies(who: { accountCreated: number }): boolean {
  return now() - who.accountCreated < NEW_MEMBER_MS;
}

/** Counts a new member's hit against their tighter limit; members older than a day always pass. */
export function hitNewMember(
  name: NewMemberLimit,
  who: { accountId: string; accountCreated: number },
): Promise<boolean> {
  if (!newMemberApplies(who)) return Promise.resolve(true);
  return hit(name, who.accountId);
}

/**
 * A hit read before it is counted: a write reads its limits' counts together with its other reads
 * (`readHits`), decides with `withinLimit`, and counts them in its own atomic (`countHitsOp`), so a
 * limited write costs no round trip of its own. The count is checked in that atomic: two writes of
 * one member at once conflict (the caller reads again and retries) and never both pass the last
 * place under the limit.
 */
export interface ReadHit {
  name: LimitName;
  entry: Deno.KvEntryMaybe<Deno.KvU64>;
}

/**
 * The current counts of the limits `hits` names, with the sweep of ended windows a scope's first
 * hit of a window starts (beside the read, not before it). Read key by key through the handle's
 * gathered reads (kv/coalesce.ts): a write that begins its other reads in the same turn (a like's
 * record, the profiles it checks) reads its counts in their store call, not one of its own. Each
 * count is checked on its own in the write's atomic, so a count read in another batch is as good.
 */
export async function readHits(hits: readonly { name: LimitName; who: string }[]): Promise<ReadHit[]> {
  if (hits.length === 0) return [];
  const t = now();
  const at = hits.map(({ name, who }) => {
    const window = Math.floor(t / LIMITS[name].windowMs);
    return { name, window, key: keys.rateLimitCount(name, window, who) };
  });
  const [entries] = await Promise.all([
    Promise.all(at.map((h) => kv().get<Deno.KvU64>(h.key))),
    ...at.map((h) => sweepEndedWindows(h.name, h.window)),
  ]);
  return at.map((h, i) => ({ name: h.name, entry: entries[i] }));
}

/** Is one more hit within the limit of each read count? */
export function withinLimit(hits: readonly ReadHit[]): boolean {
  return hits.every((h) => (h.entry.value?.value ?? 0n) + 1n <= BigInt(LIMITS[h.name].max));
}

/** Adds one hit of each read count to `op`, checked against the count read. */
export function countHitsOp(op: Deno.AtomicOperation, hits: readonly ReadHit[]): Deno.AtomicOperation {
  for (const h of hits) op.check(h.entry).sum(h.entry.key, 1n);
  return op;
}

/** Counts a hit; true while within the limit. */
export function hit(name: LimitName, who: string): Promise<boolean> {
  if (COUNTED_IN_MEMORY.has(name)) return hitInMemory(name, LIMITS[name], who);
  return hitLimit(name, LIMITS[name], who);
}

/**
 * The limits every page of the map and the lists counts (hundreds of hits a second): counted in
 * the instance. The first hit `FLUSH_MS` after the last flush adds what the instance counted to KV,
 * every key in one commit (a `sum` each, no read back; no timer, so an idle instance does nothing);
 * only a key past half its limit is added and read back at once, so
 * its count holds every instance's hits. A member far below the limit (nearly everyone) costs no
 * KV operation of their own. What this allows over the limit: what other instances counted since
 * this one last read the key once it is past half (at most instances × rate × `FLUSH_MS`); a crash
 * loses the hits counted since the instance's last flush (at most `FLUSH_MS` of a busy one's; a
 * stopping server flushes: `flushLimitCounts`). The logins' and the writes' limits stay exact
 * (`hitLimit`).
 */
const COUNTED_IN_MEMORY: ReadonlySet<LimitName> = new Set([
  "discoveryByAccount",
  "discoveryByAddress",
  "positionByAccount",
  "tilesByAddress",
]);
const FLUSH_MS = 200;
/** Sums in one commit (KV takes at most 1,000 mutations an atomic). */
const FLUSH_BATCH = 500;
interface LocalCount {
  key: Deno.KvKey;
  /** What this instance knows of the window's count: its own flushed hits, plus every instance's at the last read. */
  global: number;
  /** This instance's hits not yet added to KV. */
  pending: number;
}
interface LocalCounts {
  counts: Map<string, LocalCount>;
  /** The counts with hits not yet in KV. */
  dirty: Set<LocalCount>;
  /** When (performance.now()) the last flush began. */
  flushedAt: number;
  /** The flush under way, if any (a request does not wait for it; `flushLimitCounts` does). */
  flushing: Promise<void> | null;
}
const localCounts = new WeakMap<Deno.Kv, LocalCounts>();

async function hitInMemory(scope: LimitName, limit: Limit, who: string): Promise<boolean> {
  const db = kv();
  let local = localCounts.get(db);
  if (!local) {
    localCounts.set(db, local = { counts: new Map(), dirty: new Set(), flushedAt: -Infinity, flushing: null });
  }
  const window = Math.floor(now() / limit.windowMs);
  const id = `${scope}\u0000${window}\u0000${who}`;
  let c = local.counts.get(id);
  if (!c) {
    await sweepEndedWindows(scope, window);
    c = { key: keys.rateLimitCount(scope, window, who), global: 0, pending: 0 };
    // The oldest count dropped past the bound: its unflushed hits still go at the next flush.
    setNewest(local.counts, id, c, 100_000);
  }
  c.pending++;
  if (c.global + c.pending > limit.max / 2) {
    // Past half the limit: every instance's hits count now.
    const add = c.pending;
    c.pending = 0;
    local.dirty.delete(c);
    await db.atomic().sum(c.key, BigInt(add)).commit();
    c.global = Number((await db.get<Deno.KvU64>(c.key)).value?.value ?? BigInt(add));
  } else {
    local.dirty.add(c);
  }
  const allowed = c.global + c.pending <= limit.max;
  // The flush is started, not waited for: the hits it writes are this instance's count of others'
  // requests, not this one's answer (one flush at a time; the next due hit starts the next).
  if (performance.now() - local.flushedAt >= FLUSH_MS && !local.flushing) {
    const flushing = local.flushing = detached(() => flushCounts(db, local))
      .catch((e) => console.error("rate limit counts flush:", e instanceof Error ? e.message : e))
      .finally(() => {
        if (local.flushing === flushing) local.flushing = null;
      });
  }
  return allowed;
}

/**
 * Adds what the instance counted since the last flush to KV, `FLUSH_BATCH` keys a commit. A batch
 * that fails keeps its hits pending for the next flush.
 */
async function flushCounts(db: Deno.Kv, local: LocalCounts): Promise<void> {
  local.flushedAt = performance.now();
  const due = [...local.dirty];
  local.dirty.clear();
  for (let i = 0; i < due.length; i += FLUSH_BATCH) {
    const op = db.atomic();
    const batch = due.slice(i, i + FLUSH_BATCH).map((c) => ({ c, n: c.pending }));
    for (const { c, n } of batch) {
      op.sum(c.key, BigInt(n));
      c.pending -= n;
    }
    let ok = false;
    try {
      ok = (await op.commit()).ok;
    } finally {
      for (const { c, n } of batch) {
        if (ok) c.global += n;
        else {
          c.pending += n;
          local.dirty.add(c);
        }
      }
      if (!ok) { for (const c of due.slice(i + FLUSH_BATCH)) local.dirty.add(c); }
    }
    if (!ok) return;
  }
}

/** Adds every hit counted in the instance to KV now (tests; a server that stops). */
export async function flushLimitCounts(): Promise<void> {
  const local = localCounts.get(kv());
  if (!local) return;
  await local.flushing;
  await flushCounts(kv(), local);
}

/**
 * Counts a hit of `who` against a limit of the scope `scope`; true while within the limit.
 *
 * The count is a Deno.KvU64 `sum`, which never conflicts: a busy counter counts every hit and
 * never refuses for being busy. The hit is allowed when the count read right after adding it is
 * within the limit. A burst that stays within the limit is always allowed; a burst that crosses
 * it may refuse a few hits just below the line (the read also sees hits that landed after ours),
 * never allow one too many.
 *
 * A summed key cannot expire (`sum` drops `expireIn`), so windows that ended are swept as one
 * range (`sweepEndedWindows`) the first time an instance counts in a new window of a scope.
 */
export async function hitLimit(scope: string, limit: Limit, who: string): Promise<boolean> {
  const window = Math.floor(now() / limit.windowMs);
  const key = keys.rateLimitCount(scope, window, who);
  // The sweep of ended windows goes beside the count: it deletes only windows before this one's.
  const [res] = await Promise.all([kv().atomic().sum(key, 1n).commit(), sweepEndedWindows(scope, window)]);
  if (!res.ok) throw new Error("rate limit count failed"); // a sum without checks always commits
  const count = (await kv().get<Deno.KvU64>(key)).value?.value ?? 1n;
  return count <= BigInt(limit.max);
}

/** How many hits `who` has in the current window of a limit (for tests and operators). */
export async function hitsOf(name: LimitName, who: string): Promise<number> {
  const window = Math.floor(now() / LIMITS[name].windowMs);
  return Number((await kv().get<Deno.KvU64>(keys.rateLimitCount(name, window, who))).value?.value ?? 0n);
}

/** The window each scope was last swept up to, per KV handle (a test's new `:memory:` KV starts over). */
const sweptUpTo = new WeakMap<Deno.Kv, Map<string, number>>();
const SWEEP_BATCH = 500;

/**
 * Deletes the counts of a scope's windows that ended before the previous one (the previous one is
 * kept for instances whose clock runs a little behind). At most one batch per call: a long backlog
 * is cleared over the next hits, so no single request pays for it all.
 */
async function sweepEndedWindows(scope: string, window: number): Promise<void> {
  let swept = sweptUpTo.get(kv());
  if (!swept) sweptUpTo.set(kv(), swept = new Map());
  if ((swept.get(scope) ?? -Infinity) >= window) return;
  const ended = kv().list(
    { start: keys.rateLimitCountsOf(scope), end: [...keys.rateLimitCountsOf(scope), window - 1] },
    {
      limit: SWEEP_BATCH,
    },
  );
  const op = kv().atomic();
  let n = 0;
  for await (const e of ended) {
    op.delete(e.key);
    n++;
  }
  if (n > 0) await op.commit();
  if (n < SWEEP_BATCH) swept.set(scope, window);
}
