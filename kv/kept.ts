/**
 * Reads kept a few seconds to a minute in this instance, forgotten on every instance through the
 * change log.
 *
 * A hot read (the caller's session, account and time-out, the members they blocked, the withdrawn members,
 * the profiles a list or a profile page shows, safety settings, whether 'Keep my best picture
 * first' is on) is kept by the instance that made it, under a name and an id. A write that changes
 * what such a read returns adds `forgetKept(op, name, ids)` to its atomic: the event lands in the
 * member event log (kv/events.ts) only if the write commits, every instance's tail of the log
 * (kv/changeLog.ts) forgets its copies, and the writer's instance forgets them at once after the
 * commit (`forgetHere`).
 *
 * A kept copy is used only while this instance's tail of the log began within `KEPT_REVOKE_MS`
 * (a change made on any instance is never served stale by another for longer), and never past its
 * own `ttlMs`. Past half of `KEPT_REVOKE_MS`, a read starts a tail (single flight). A read that
 * began before a forget of its name keeps nothing (it may have read the old value).
 *
 * Off until `startKeptReads()` (the app's server calls it once): in-process tests and tools read
 * KV every time.
 */

import { kv } from "./db.ts";
import { addEvent, type EventBus, eventBus } from "./events.ts";
import { detached } from "./roundTrips.ts";

/** A change on any instance stops being served from another's kept copy within this time. */
export const KEPT_REVOKE_MS = 750;
/** The change log's recipient of forgets: no member id, so no page ever receives them. */
const CHANNEL = "#kept";

/** The reads that may be kept, each with its life and the most an instance keeps. */
export const KEPT = {
  /**
   * A session by its token's hash (kv/sessions.ts). Kept a minute: every call a member makes reads
   * it, every write of it forgets it (a logout or an end revokes within `KEPT_REVOKE_MS` whatever
   * the life), and its idle and absolute ends are checked on the copy at each call; the life only
   * bounds a write that failed to forget.
   */
  session: { ttlMs: 60_000, max: 50_000 },
  /**
   * An account with its granted roles, by account id (kv/roles.ts). Kept a minute as the session:
   * every write of an account or a grant forgets it, and a grant's end is checked at each call.
   */
  account: { ttlMs: 60_000, max: 50_000 },
  /**
   * The members one profile blocked or was blocked by, by profile id (kv/blocks.ts). Kept a minute:
   * its one writer (`blockIndexOps`) forgets both members' lists in the block's own atomic.
   */
  blocks: { ttlMs: 60_000, max: 50_000 },
  /** Every withdrawal in force or to come, under the one id "all" (kv/blocks.ts). */
  withdrawn: { ttlMs: 5_000, max: 1 },
  /**
   * A profile, by id, for what members see of each other (kv/profiles.ts; never for a write). Kept a
   * minute: every write of a profile or its pictures forgets it (`profileChanged`).
   */
  profile: { ttlMs: 60_000, max: 20_000 },
  /** A member's safety settings, by profile id (kv/safety.ts). */
  safety: { ttlMs: 5_000, max: 50_000 },
  /** Whether an account has a device to push to, by account id (kv/push.ts). */
  pushDevices: { ttlMs: 5_000, max: 50_000 },
  /**
   * Whether a profile's member has a device to push to (its marker, kv/push.ts `pushReachable`), by
   * profile id. Kept a minute: every LIKE that tells and every message reads the other member's,
   * and every write of the marker forgets it (a device stored, the last one removed or dropped, the
   * member's deletion).
   */
  pushReach: { ttlMs: 60_000, max: 50_000 },
  /**
   * A member's time-out in force or to end (Bad Boy Dungeon), or null, by profile id (kv/games/dungeon.ts).
   * Kept a minute: every LIKE reads the liker's, and every write of it forgets it (`commitForgetting`
   * in `startStay`, the quiz, an admin's end and an upheld appeal); its end is checked at each call.
   */
  restriction: { ttlMs: 60_000, max: 50_000 },
  /**
   * Whether 'Keep my best picture first' is on, by profile id (kv/games/hotOrNot.ts). Kept a minute:
   * every LIKE reads the liked member's, and switching it (on, off, undo) forgets it.
   */
  keepBest: { ttlMs: 60_000, max: 50_000 },
  /**
   * That a conversation is past its first messages, by "sender>recipient" (kv/spam.ts): it stays so
   * until a message of it is deleted, which forgets it on every instance (kv/messages.ts).
   */
  pastEarly: { ttlMs: 10 * 60_000, max: 50_000 },
} as const;
export type KeptName = keyof typeof KEPT;

interface Entry {
  value: unknown;
  /** When (performance.now()) the read that gave it began. */
  at: number;
  /** Taken out of its map (forgotten, replaced, dropped, found past its life): never used again. */
  gone: boolean;
}

interface Kept {
  /** This instance's tail of the member event log, which carries the forgets. */
  log: EventBus["log"];
  entries: Map<KeptName, Map<string, Entry>>;
  /** Per name, when (performance.now()) its entries were last forgotten. */
  forgotAt: Map<KeptName, number>;
}
const keptBy = new WeakMap<Deno.Kv, Kept>();

/** Starts keeping reads for the open KV handle, and this instance's tail of the change log. */
export function startKeptReads(): void {
  const db = kv();
  if (keptBy.has(db)) return;
  const bus = eventBus();
  const k: Kept = { log: bus.log, entries: new Map(), forgotAt: new Map() };
  keptBy.set(db, k);
  bus.subscribe(CHANNEL, (e) => {
    if (e.type === "forget" && e.name in KEPT) forgetIn(k, e.name as KeptName, e.ids);
  });
}

/** Is this instance keeping reads (`startKeptReads`)? */
export function keepingReads(): boolean {
  return keptBy.has(kv());
}

/** Who hears this instance's forgets of a name, besides its kept copies (`onForget`). */
const forgetListeners = new Map<KeptName, ((ids: readonly string[]) => void)[]>();

/**
 * Calls `listen` with the ids of every forget of `name` this instance takes in from now on, from
 * the change log or from a writer here (`forgetHere`): what a module knows beside its kept copies
 * (kv/push.ts, every member's push marker) is kept in step by the same forgets.
 */
export function onForget(name: KeptName, listen: (ids: readonly string[]) => void): void {
  forgetListeners.set(name, [...(forgetListeners.get(name) ?? []), listen]);
}

function forgetIn(k: Kept, name: KeptName, ids: readonly string[]): void {
  for (const listen of forgetListeners.get(name) ?? []) listen(ids);
  k.forgotAt.set(name, performance.now());
  const m = k.entries.get(name);
  if (!m) return;
  for (const id of ids) takeOut(m, id);
}

/** Takes `id`'s entry out of `m`, marked gone. */
function takeOut(m: Map<string, Entry>, id: string): void {
  const e = m.get(id);
  if (e === undefined) return;
  e.gone = true;
  m.delete(id);
}

/** The kept copy of `name` `id`, if it may still be used; undefined when none (or not keeping). */
export function keptCopy<T>(name: KeptName, id: string): T | undefined {
  const t = performance.now();
  const m = usable(name, t);
  return m && copyIn<T>(m, id, t, KEPT[name].ttlMs);
}

/** `keptCopy` of many ids at once (undefined where none), the store looked up once. */
export function keptCopies<T>(name: KeptName, ids: readonly string[]): (T | undefined)[] {
  const t = performance.now();
  const m = usable(name, t);
  const ttl = KEPT[name].ttlMs;
  return m ? ids.map((id) => copyIn<T>(m, id, t, ttl)) : new Array(ids.length);
}

/** The kept copies of `name`, if they may be used now (see the top comment). */
function usable(name: KeptName, t: number): Map<string, Entry> | undefined {
  const k = inStep(t);
  return k && k.entries.get(name);
}

/** This instance's kept reads, when its tail of the log is in step at `t` (starting a tail past half the limit). */
function inStep(t: number): Kept | undefined {
  const k = keptBy.get(kv());
  if (!k) return undefined;
  const synced = t - k.log.syncedAt;
  if (synced > KEPT_REVOKE_MS / 2) void detached(() => k.log.tail());
  return synced > KEPT_REVOKE_MS ? undefined : k;
}

/** May what this instance learnt and keeps in step by forgets (`onForget`) be used now, as a kept copy may? */
export function keptInStep(): boolean {
  return inStep(performance.now()) !== undefined;
}

function copyIn<T>(m: Map<string, Entry>, id: string, t: number, ttl: number): T | undefined {
  return entryIn(m, id, t, ttl)?.value as T | undefined;
}

/** `id`'s entry in `m` if it may be used at `t` (one past its life is taken out). */
function entryIn(m: Map<string, Entry>, id: string, t: number, ttl: number): Entry | undefined {
  const e = m.get(id);
  if (!e) return undefined;
  if (t - e.at > ttl) {
    takeOut(m, id);
    return undefined;
  }
  return e;
}

/** Kept entries of one name as `keptEntries` gives them, and the map of kept copies they are from. */
export interface KeptEntries {
  readonly from: ReadonlyMap<string, Entry> | undefined;
  /** By id as asked: undefined where none may be used. */
  readonly entries: readonly (Readonly<Entry> | undefined)[];
}

/**
 * The kept entries of `name` for `ids` (as `keptCopies` finds them), to be checked again later
 * with `stillKept` instead of looked up again: a view asked again of the same hundreds of members
 * (kv/briefs.ts) checks each entry it holds rather than looking each id up in a map of tens of
 * thousands.
 */
export function keptEntries(name: KeptName, ids: readonly string[]): KeptEntries {
  const t = performance.now();
  const m = usable(name, t);
  if (!m) return { from: undefined, entries: new Array(ids.length) };
  const ttl = KEPT[name].ttlMs;
  return { from: m, entries: ids.map((id) => entryIn(m, id, t, ttl)) };
}

/**
 * Whether every one of `kept`'s entries (`keptEntries` of `name`) may still be used now, as a
 * lookup of its id would find it: this instance's kept copies of `name` are the ones they are
 * from and still in use, and none of them was forgotten, replaced, dropped or is past its life.
 */
export function stillKept(name: KeptName, kept: KeptEntries): boolean {
  const t = performance.now();
  if (kept.from === undefined || usable(name, t) !== kept.from) return false;
  const ttl = KEPT[name].ttlMs;
  for (let i = 0; i < kept.entries.length; i++) {
    const e = kept.entries[i];
    if (e === undefined || e.gone || t - e.at > ttl) return false;
  }
  return true;
}

/** When a read to keep begins: pass it to `keep` (a forget after it means the read may be stale). */
export function readBegins(): number {
  return performance.now();
}

/**
 * Was any `name` read forgotten at or after `began` (so a read begun then may return what a write
 * since changed)? Always true when the instance keeps no reads.
 */
export function forgottenSince(name: KeptName, began: number): boolean {
  const k = keptBy.get(kv());
  return !k || (k.forgotAt.get(name) ?? -Infinity) >= began;
}

/** Keeps what a read that began at `began` returned, unless a forget of `name` came after it began. */
export function keep(name: KeptName, id: string, value: unknown, began: number): void {
  const k = keptBy.get(kv());
  if (!k || (k.forgotAt.get(name) ?? -Infinity) >= began) return;
  let m = k.entries.get(name);
  if (!m) k.entries.set(name, m = new Map());
  takeOut(m, id);
  m.set(id, { value, at: began, gone: false });
  while (m.size > KEPT[name].max) takeOut(m, m.keys().next().value!);
}

/** `load()`'s answer for `name` `id`, kept: the kept copy when it may be used, else read and kept. */
export async function keptRead<T>(name: KeptName, id: string, load: () => Promise<T>): Promise<T> {
  const copy = keptCopy<T>(name, id);
  if (copy !== undefined) return copy;
  const began = readBegins();
  const value = await load();
  keep(name, id, value, began);
  return value;
}

/** Adds to `op`: every instance forgets its kept `name` reads of `ids` once it commits. Call `forgetHere` after the commit. */
export function forgetKept(op: Deno.AtomicOperation, name: KeptName, ids: readonly string[]): void {
  if (ids.length > 0) addEvent(op, [CHANNEL], { type: "forget", name, ids: [...ids] });
}

/**
 * Commits `op` with `forgetKept(op, name, ids)`, and when it committed forgets them here too: a
 * write of kept reads in one call. Returns whether it committed.
 */
export async function commitForgetting(
  op: Deno.AtomicOperation,
  name: KeptName,
  ids: readonly string[],
): Promise<boolean> {
  forgetKept(op, name, ids);
  const ok = (await op.commit()).ok;
  if (ok) forgetHere(name, ids);
  return ok;
}

/** Forgets this instance's kept `name` reads of `ids` now (the writer, right after its commit). */
export function forgetHere(name: KeptName, ids: readonly string[]): void {
  const k = keptBy.get(kv());
  if (k) forgetIn(k, name, ids);
}
