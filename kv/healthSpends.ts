/**
 * The health reports' monthly limit, written apart from the reports (docs/health-notices.md,
 * decision 0134). Sending a report writes nothing that names its sender: the spend is kept in this
 * process, in memory, and `flushHealthSpends` writes the spends of every sender of the period
 * together, at the clock's multiples of HEALTH_SPEND_FLUSH_MS (workers/health.ts; and when the
 * server stops). Each flush writes every count of the month again (same value, one versionstamp
 * for all), so a copy of the store tells of a member only that they sent in that month.
 *
 * The month's first report earns a volunteer credit (kv/games/credits.ts), granted in the flush
 * that counts it. The limit check at send adds the stored count and this process's pending spends.
 * What this costs: a process that dies without its flush forgets its spends (the limit is soft by
 * that much); two processes each know only their own pending spends (a member who sends from both
 * within one period may send one more). A spend of a member whose account is gone is dropped.
 */

import { getAll, kv, maxChecksPerAtomic } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { creditDayExpireIn, creditOps, creditState } from "./games/credits.ts";

const DAY_MS = 24 * 3_600_000;

/** A UTC month as "2026-03". */
export const monthOf = (t: number): string => new Date(t).toISOString().slice(0, 7);

/** The month before `month`. */
function previousMonth(month: string): string {
  const [y, m] = month.split("-").map(Number);
  return monthOf(Date.UTC(y, m - 2, 1));
}

/** Spends of one sender in one month not yet written. */
interface Spend {
  month: string;
  sender: string;
  n: number;
}

/** The pending spends of each KV handle (a test's new store starts with none), by month and sender. */
const pendingByKv = new WeakMap<Deno.Kv, Map<string, Spend>>();

function pending(): Map<string, Spend> {
  const db = kv();
  let p = pendingByKv.get(db);
  if (!p) pendingByKv.set(db, p = new Map());
  return p;
}

const spendId = (month: string, sender: string) => `${month}\u0000${sender}`;

/** The stored count of `sender` in `month` (the batched key, and the one kept before it if not yet moved). */
async function storedCount(sender: string, month: string): Promise<number> {
  const [count, before] = await kv().getMany<[Deno.KvU64, number]>([
    keys.healthMonthCount(month, sender),
    keys.healthReportCount(sender, month),
  ]);
  return Number(count.value?.value ?? 0n) + (before.value ?? 0);
}

/** How many reports `sender` spent this month: stored plus pending in this process. */
export async function reportsSpent(sender: string): Promise<number> {
  const month = monthOf(now());
  const stored = await storedCount(sender, month);
  return stored + (pending().get(spendId(month, sender))?.n ?? 0);
}

/** A spend kept pending: whether it is the month's first (it earns a credit), and how to undo it. */
export interface Reserved {
  first: boolean;
  /** The month's credit is still to be granted: no spend of the month is stored yet. */
  creditPending: boolean;
  /** Takes the spend back (the report could not be queued). */
  release(): void;
}

/**
 * Spends one of `sender`'s `limit` reports of this month, in memory; null when none is left. The
 * stored count is read, then the pending one checked and raised without a pause, so two reports
 * at once from one process count one after the other.
 */
export async function reserveReport(sender: string, limit: number): Promise<Reserved | null> {
  const month = monthOf(now());
  const stored = await storedCount(sender, month);
  const p = pending();
  const id = spendId(month, sender);
  const mine = p.get(id);
  const spent = stored + (mine?.n ?? 0);
  if (spent >= limit) return null;
  if (mine) mine.n++;
  else p.set(id, { month, sender, n: 1 });
  return {
    first: spent === 0,
    creditPending: stored === 0,
    release() {
      const s = p.get(id);
      if (s && --s.n <= 0) p.delete(id);
    },
  };
}

/** Drops the pending spends of a member (their account is deleted). */
export function forgetSpends(profileId: string): void {
  const p = pending();
  for (const [id, s] of p) if (s.sender === profileId) p.delete(id);
}

/** The keys of a member's counts (every month kept, and the layout kept before). */
export async function spendKeysOf(profileId: string): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [];
  for await (const e of kv().list({ prefix: keys.healthMonthCounts() })) {
    if (e.key[2] === profileId) out.push(e.key);
  }
  for await (const e of kv().list({ prefix: [...keys.healthReportCountsAll(), profileId] })) out.push(e.key);
  return out;
}

/** The checks of one commit: within what the store takes in one atomic (100 on a local file, 10 on a remote KV). */
const maxChecks = () => Math.min(96, maxChecksPerAtomic());
/** Mutations of one commit, under Deno KV's 1,000. */
const MAX_MUTATIONS = 900;
/** Tries of one commit whose checks fail (another process crediting the same member). */
const ATTEMPTS = 10;

/**
 * Moves counts kept the way they were before (sender first, expiring 35 days after the send) into
 * the month's batched keys, and deletes them: their expiry told the time of the send.
 */
async function moveOldCounts(month: string): Promise<void> {
  const old: Deno.KvEntry<number>[] = [];
  for await (const e of kv().list<number>({ prefix: keys.healthReportCountsAll() })) old.push(e);
  // One check a count: as many a commit as the store takes in one atomic.
  const each = maxChecksPerAtomic();
  for (let i = 0; i < old.length; i += each) {
    const op = kv().atomic();
    for (const e of old.slice(i, i + each)) {
      const [, sender, m] = e.key as [string, string, string];
      op.check(e).delete(e.key);
      if (m === month || m === previousMonth(month)) op.sum(keys.healthMonthCount(m, sender), BigInt(e.value));
    }
    // A conflict: another process moved them; what is left is moved at the next flush.
    await op.commit();
  }
}

/** Deletes the counts of months before the previous one (the limit is a calendar month's). */
async function sweepOldMonths(month: string): Promise<void> {
  const end = keys.healthMonthCounts(previousMonth(month));
  const old: Deno.KvKey[] = [];
  for await (const e of kv().list({ start: keys.healthMonthCounts(), end }, { limit: 900 })) old.push(e.key);
  if (old.length === 0) return;
  const op = kv().atomic();
  for (const k of old) op.delete(k);
  await op.commit();
}

/**
 * Writes one month's counts: each sender with spends gets their spends added, and the month's
 * first report its credit; every other count of the month is written again as it is. Counts are
 * `sum`s (a spend adds, a count written again adds 0): two processes flushing at once add up and
 * need no check. Only a month's first report, whose credit must be granted once, is checked (its
 * count still absent, and today's credit counter), so a commit holds as many first reports as the
 * store's checks allow (5 on remote KV, 48 on a local file) and every other sender of the month:
 * when the first reports need more commits, each of them writes every count again, and the last
 * one's versionstamp is all of them. A month too large for one commit's mutations goes in groups
 * of senders, as before. Returns the spends it could not write (kept for the next flush).
 */
async function flushMonth(month: string, spends: Map<string, number>): Promise<Map<string, number>> {
  const stored = new Set<string>();
  for await (const e of kv().list({ prefix: keys.healthMonthCounts(month) })) stored.add(e.key[2] as string);
  const senders = [...new Set([...stored, ...spends.keys()])].sort();
  const isFirst = (s: string) => spends.has(s) && !stored.has(s);
  const perCommit = Math.max(1, Math.floor(maxChecks() / 2));
  // Groups by mutations: a sender written again takes three (count, credit total, today's
  // credits), a first report eight (its credit's own, the role's grant).
  const groups: string[][] = [[]];
  let mutations = 0;
  for (const s of senders) {
    const m = isFirst(s) ? 8 : 3;
    if (mutations + m > MAX_MUTATIONS) {
      groups.push([]);
      mutations = 0;
    }
    groups[groups.length - 1].push(s);
    mutations += m;
  }
  const left = new Map<string, number>();
  for (const group of groups) {
    if (group.length === 0) continue;
    const firsts = group.filter(isFirst);
    const turns: string[][] = [];
    for (let i = 0; i < firsts.length; i += perCommit) turns.push(firsts.slice(i, i + perCommit));
    if (turns.length === 0) turns.push([]);
    // Spends written so far (each added once); a first report waits for its turn.
    const added = new Set<string>();
    const waiting = new Set(firsts);
    for (const turn of turns) {
      for (const s of turn) waiting.delete(s);
      let done = false;
      try {
        done = await flushChunk(month, group, spends, added, waiting);
      } catch (e) {
        // Not written: the turn's spends stay pending; the other turns go on.
        console.error("health spends flush:", e instanceof Error ? e.message : e);
      }
      if (done) {
        for (const s of group) if (spends.has(s) && !waiting.has(s)) added.add(s);
      } else {
        for (const s of turn) waiting.add(s);
      }
    }
    for (const s of group) if (spends.has(s) && !added.has(s)) left.set(s, spends.get(s)!);
  }
  return left;
}

/**
 * Writes a group of a month's senders in one commit; false when it kept conflicting. A sender with
 * spends not yet `added` gets them (unless `waiting`: a first report whose turn is later); every
 * other count is written again as it is. Each sender's credits (their total and today's counter)
 * are written again as they are, unless this commit credits them: the commit of a credit row then
 * tells no time finer than its day either. A spend of a member whose profile is gone is dropped; a
 * count written for a member deleted meanwhile is deleted after the commit.
 */
async function flushChunk(
  month: string,
  group: string[],
  spends: Map<string, number>,
  added: ReadonlySet<string>,
  waiting: ReadonlySet<string>,
): Promise<boolean> {
  const adds = (s: string) => spends.has(s) && !added.has(s) && !waiting.has(s);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const day = Math.floor(now() / DAY_MS);
    const [counts, totals, todays, profiles] = await Promise.all([
      getAll<Deno.KvU64>(group.map((s) => keys.healthMonthCount(month, s))),
      getAll<Deno.KvU64>(group.map((s) => keys.gameCredits(s))),
      getAll<number>(group.map((s) => keys.gameCreditsDay(s, day))),
      getAll(group.map((s) => keys.profile(s))),
    ]);
    const firsts = group.filter((s, i) => adds(s) && !counts[i].value && profiles[i].value);
    const states = new Map(await Promise.all(firsts.map(async (s) => [s, await creditState(s)] as const)));
    const op = kv().atomic();
    const written: string[] = [];
    for (const [i, s] of group.entries()) {
      const count = counts[i];
      let credited = false;
      if (!adds(s)) {
        // Written again as it is (a sum of 0); none yet (a first report waiting its turn), or gone
        // meanwhile (the member deleted): left so.
        if (!count.value) continue;
        op.sum(count.key, 0n);
      } else {
        // The member's account is gone: their spend goes with it.
        if (!profiles[i].value) continue;
        op.sum(count.key, BigInt(spends.get(s)!));
        // The month's first report earns a credit, as the games do (the daily cap applies too),
        // once: checked that no process counted the month meanwhile.
        const state = states.get(s);
        if (state) {
          op.check({ key: count.key, versionstamp: null });
          credited = creditOps(op, state);
        }
      }
      // Its profile read now: a deletion before the commit leaves nothing of it after (see below).
      if (profiles[i].value) written.push(s);
      if (credited) continue;
      const [total, today] = [totals[i], todays[i]];
      if (total.value) op.sum(total.key, 0n);
      if (today.value !== null) op.set(today.key, today.value, { expireIn: creditDayExpireIn(day) });
    }
    if ((await op.commit()).ok) {
      await dropCountsOfDeleted(month, written);
      return true;
    }
    // Every process flushes at the same clock time: a short random wait lets them go in turn.
    await new Promise((ok) => setTimeout(ok, Math.random() * 50 * (attempt + 1)));
  }
  return false;
}

/** Deletes the counts just written of members whose profile, read before the commit, is gone now (deleted meanwhile). */
async function dropCountsOfDeleted(month: string, senders: string[]): Promise<void> {
  const profiles = await getAll(senders.map((s) => keys.profile(s)));
  const gone = senders.filter((_, i) => !profiles[i].value);
  if (gone.length === 0) return;
  const op = kv().atomic();
  for (const s of gone) op.delete(keys.healthMonthCount(month, s));
  await op.commit();
}

/**
 * Writes every pending spend of this process, and every count of their months again, in one commit
 * a chunk of senders (one for most periods). Spends that kept conflicting stay pending. Also moves
 * counts kept the way they were before and deletes the months that no longer count.
 */
export async function flushHealthSpends(): Promise<void> {
  const p = pending();
  const taken = [...p.values()];
  p.clear();
  const month = monthOf(now());
  const byMonth = new Map<string, Map<string, number>>([[month, new Map()]]);
  for (const s of taken) {
    if (!byMonth.has(s.month)) byMonth.set(s.month, new Map());
    byMonth.get(s.month)!.set(s.sender, s.n);
  }
  try {
    await moveOldCounts(month);
    for (const [m, spends] of byMonth) {
      const left = await flushMonth(m, spends);
      for (const [sender, n] of left) restore(p, m, sender, n);
      byMonth.set(m, new Map());
    }
    await sweepOldMonths(month);
  } catch (e) {
    // What was not written stays pending for the next flush.
    for (const [m, spends] of byMonth) for (const [sender, n] of spends) restore(p, m, sender, n);
    throw e;
  }
}

function restore(p: Map<string, Spend>, month: string, sender: string, n: number): void {
  const id = spendId(month, sender);
  const s = p.get(id);
  if (s) s.n += n;
  else p.set(id, { month, sender, n });
}

/** How many spends wait in this process (tests, operators). */
export function pendingSpends(): number {
  let n = 0;
  for (const s of pending().values()) n += s.n;
  return n;
}
