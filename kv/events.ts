/**
 * The member event bus. A change that a member's open pages should learn of (a message, a read
 * receipt, a deletion, a notification, a picture made ready) writes an event to an append-only
 * log keyed by the commit's versionstamp, in the same `kv.atomic()` as the change, so an event
 * exists if and only if its change does, and the log's order is the commit order.
 *
 * Each instance tails the log with one `ChangeLogTailer` (kv/changeLog.ts: a watch on a version
 * key every event bumps, and a short poll for other processes' writes) and fans each event out in
 * memory to the open streams of the members it names. On a local file, whose watch sees only this
 * process's writes, there is no watch: an atomic with events starts a tail once it commits (the
 * same tail the watch started, without the store re-reading the version key at each commit and
 * without the hops between threads that took), and the poll catches other processes' events. An open stream costs a listener, not a KV
 * watch. Events expire after `EVENT_LOG_TTL_MS`: a stream that was away longer reloads what it
 * shows anyway.
 */

import { kv, kvIsRemote } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { ChangeLogTailer, cursorOf, LOG_START, storeClosed } from "./changeLog.ts";
import type { MemberEvent } from "../domain/shapes/events.ts";

/** A log entry: the events of one commit, each with the members it is for. */
interface LogEntry {
  ts: number;
  events: { to: string[]; event: MemberEvent }[];
}

/** How long events are kept in the log. */
export const EVENT_LOG_TTL_MS = 10 * 60_000;

// The events of one atomic share its versionstamp key (the placeholder must end a key): each
// event of the operation rewrites that one entry with all of them (the last set of a key wins).
const entryOf = new WeakMap<Deno.AtomicOperation, LogEntry>();
/** Atomics whose events are written once, by `writeEvents`, rather than at each `addEvent`. */
const gathering = new WeakSet<Deno.AtomicOperation>();

/** Adds an event for the members `to` to the caller's atomic (written only if it commits). */
export function addEvent(op: Deno.AtomicOperation, to: readonly string[], event: MemberEvent): void {
  let entry = entryOf.get(op);
  if (!entry) {
    entryOf.set(op, entry = { ts: now(), events: [] });
    tailOnCommit(op);
  }
  entry.events.push({ to: [...new Set(to)], event });
  if (gathering.has(op)) return;
  setEntry(op, entry);
  if (entry.events.length === 1) op.sum(keys.eventsVersion(), 1n);
}

/**
 * The events later added to `op` are gathered and written as its one log entry by `writeEvents`
 * (call it once, before the commit): an atomic built from many writes (kv/groupCommit.ts) then
 * writes its log entry once, not once per event (each rewrite costs the store a row and this
 * thread a serialization of every event before it).
 */
export function gatherEvents(op: Deno.AtomicOperation): void {
  gathering.add(op);
}

/** Writes the events gathered on `op` (`gatherEvents`) as its log entry; nothing when none were added. */
export function writeEvents(op: Deno.AtomicOperation): void {
  gathering.delete(op);
  const entry = entryOf.get(op);
  if (!entry) return;
  setEntry(op, entry);
  op.sum(keys.eventsVersion(), 1n);
}

/**
 * Makes `op`'s commit, once it succeeds, start a tail of this instance's bus when the bus follows
 * the log without a watch (a local file): its events go out at once, as the watch sent them.
 */
function tailOnCommit(op: Deno.AtomicOperation): void {
  const bus = current;
  if (!bus?.log.following || bus.watching || bus.db !== kv()) return;
  const commit = op.commit.bind(op);
  op.commit = async () => {
    const res = await commit();
    if (res.ok) void bus.tail();
    return res;
  };
}

/** Sets `op`'s log entry: its events so far. */
function setEntry(op: Deno.AtomicOperation, entry: LogEntry): void {
  op.set(keys.eventLog(kv().commitVersionstamp()), entry, { expireIn: EVENT_LOG_TTL_MS });
}

/** Writes one event on its own (when no other change goes with it). */
export async function publishEvent(to: readonly string[], event: MemberEvent): Promise<void> {
  const op = kv().atomic();
  addEvent(op, to, event);
  await op.commit();
}

/** Takes an event and its cursor (the log entry's versionstamp: later entries sort after it). */
type Listener = (e: MemberEvent, at: string) => void;

/** An event a member missed, with its cursor. */
export interface MissedEvent {
  event: MemberEvent;
  at: string;
}

/** One instance's tail of the event log and its listeners, for one KV handle. */
export class EventBus {
  readonly db: Deno.Kv;
  /** The tail of the event log (kv/changeLog.ts): its `syncedAt` says which events were delivered. */
  readonly log: ChangeLogTailer<LogEntry>;
  #listeners = new Map<string, Set<Listener>>();
  #started?: Promise<void>;
  #stopped = false;

  /**
   * Whether the tail watches the version key: on a remote store, whose watch sees every writer. On
   * a local file the atomics with events this process commits start a tail (`tailOnCommit`).
   */
  readonly watching: boolean;

  constructor(db: Deno.Kv, { watching = kvIsRemote() }: { watching?: boolean } = {}) {
    this.db = db;
    this.watching = watching;
    this.log = new ChangeLogTailer<LogEntry>(db, {
      log: keys.eventLogAll(),
      version: keys.eventsVersion(),
      apply: (e) => this.#deliver(e.value, cursorOf(e.key)),
      watch: watching,
    });
  }

  /** Open listeners (streams) on this instance. */
  get listeners(): number {
    let n = 0;
    for (const set of this.#listeners.values()) n += set.size;
    return n;
  }

  /**
   * Calls `fn` with every event for `profileId` from now on; returns the unsubscribe. Starts the
   * tail on first use.
   */
  subscribe(profileId: string, fn: Listener): () => void {
    void this.start();
    let set = this.#listeners.get(profileId);
    if (!set) this.#listeners.set(profileId, set = new Set());
    set.add(fn);
    return () => {
      set!.delete(fn);
      if (set!.size === 0 && this.#listeners.get(profileId) === set) this.#listeners.delete(profileId);
    };
  }

  /**
   * Starts following the log from its current end (the tailer's watch and poll). Subscribers start
   * it without waiting, so it never rejects: when the store is closed under it (a shutdown) it
   * ends quietly; when a read fails otherwise it says so, and the next subscriber starts it again.
   */
  start(pollMs?: number): Promise<void> {
    this.#started ??= (async () => {
      this.log.cursor = await this.log.end();
      if (this.#stopped) return;
      this.log.start(pollMs);
      await this.log.tail();
    })().catch((e) => {
      this.#started = undefined;
      if (!this.#stopped && !storeClosed(e)) {
        console.error(`events: could not start following the change log: ${e}`);
      }
    });
    return this.#started;
  }

  /**
   * The cursor a page rendered now gives its first feed, taken before the page's own reads: every
   * event after it may be one those reads missed, and the feed sends those first. It is the last
   * entry this instance delivered (its tail may lag a little: an event the page's reads did see
   * may come too, and the page reads again what it names), or `LOG_START` when the log held
   * nothing. The first call starts the tail and waits for its first pass.
   */
  async pageCursor(): Promise<string> {
    await this.start();
    return this.log.cursor || LOG_START;
  }

  /** Delivers the events written since the last tail (single flight; calls coalesce). */
  tail(): Promise<void> {
    return this.log.tail();
  }

  /**
   * The events for `profileId` written after the cursor `after` (one the member's page saw), and
   * the cursor of the log's last entry read; null when `after` has left the log (expired): the
   * page must read its data again. `LOG_START` (a page rendered while the log held nothing) is
   * the whole log.
   */
  async missed(profileId: string, after: string): Promise<{ events: MissedEvent[]; last: string } | null> {
    if (after !== LOG_START && !(await this.log.holds(after))) return null;
    const events: MissedEvent[] = [];
    let last = after;
    for await (const e of this.log.entriesAfter(after)) {
      last = cursorOf(e.key);
      for (const { to, event } of e.value.events) {
        if (to.includes(profileId)) events.push({ event, at: last });
      }
    }
    return { events, last };
  }

  #deliver(entry: LogEntry, at: string): void {
    for (const { to, event } of entry?.events ?? []) {
      for (const id of to) {
        for (const fn of this.#listeners.get(id) ?? []) {
          try {
            fn(event, at);
          } catch { /* one listener's fault is its own */ }
        }
      }
    }
  }

  /** Stops the watch and the poll. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.log.stop();
  }
}

let current: EventBus | undefined;

/** The event bus of this instance for the open KV handle. */
export function eventBus(): EventBus {
  const db = kv();
  if (current?.db !== db) {
    void current?.stop();
    current = new EventBus(db);
  }
  return current;
}
