/**
 * The member event bus. A change that a member's open pages should learn of (a message, a read
 * receipt, a deletion, a notification, a picture made ready) writes an event to an append-only
 * log keyed by the commit's versionstamp, in the same `kv.atomic()` as the change, so an event
 * exists if and only if its change does, and the log's order is the commit order.
 *
 * Each instance tails the log with ONE watcher (on a version key every event bumps) plus a poll
 * (at most `POLL_MS`), since a local file's `kv.watch` sees only its own process's writes and
 * other instances may write to the same store. It fans each event out in memory to the open
 * streams of the members it names. An open stream costs a listener, not a KV watch. Events expire
 * after `EVENT_LOG_TTL_MS`: a stream that was away longer reloads what it shows anyway.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import type { MemberEvent } from "../domain/shapes/events.ts";

/** A log entry: the events of one commit, each with the members it is for. */
interface LogEntry {
  ts: number;
  events: { to: string[]; event: MemberEvent }[];
}

/** How long events are kept in the log. */
export const EVENT_LOG_TTL_MS = 10 * 60_000;
/** The longest another instance's event waits for this one's poll. */
export const POLL_MS = 1000;

// The events of one atomic share its versionstamp key (the placeholder must end a key): each
// event of the operation rewrites that one entry with all of them (the last set of a key wins).
const entryOf = new WeakMap<Deno.AtomicOperation, LogEntry>();

/** Adds an event for the members `to` to the caller's atomic (written only if it commits). */
export function addEvent(op: Deno.AtomicOperation, to: readonly string[], event: MemberEvent): void {
  let entry = entryOf.get(op);
  if (!entry) entryOf.set(op, entry = { ts: now(), events: [] });
  entry.events.push({ to: [...new Set(to)], event });
  op.set(keys.eventLog(kv().commitVersionstamp()), entry, { expireIn: EVENT_LOG_TTL_MS });
  if (entry.events.length === 1) op.sum(keys.eventsVersion(), 1n);
}

/** Writes one event on its own (when no other change goes with it). */
export async function publishEvent(to: readonly string[], event: MemberEvent): Promise<void> {
  const op = kv().atomic();
  addEvent(op, to, event);
  await op.commit();
}

type Listener = (e: MemberEvent) => void;

/** One instance's tail of the event log and its listeners, for one KV handle. */
export class EventBus {
  readonly db: Deno.Kv;
  #listeners = new Map<string, Set<Listener>>();
  #cursor: Deno.KvKey | null = null;
  #started?: Promise<void>;
  #stopped = false;
  #tailing?: Promise<void>;
  #again = false;
  #reader?: ReadableStreamDefaultReader<unknown>;
  #timer?: ReturnType<typeof setInterval>;
  #syncedAt = -Infinity;

  constructor(db: Deno.Kv) {
    this.db = db;
  }

  /**
   * When (`performance.now()`) the last completed read of the log began: every event committed
   * before it has been delivered. -Infinity until the tail started.
   */
  get syncedAt(): number {
    return this.#syncedAt;
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

  /** Starts following the log from its current end: one watch, and a poll as the fallback. */
  start(pollMs = POLL_MS): Promise<void> {
    this.#started ??= (async () => {
      const began = performance.now();
      for await (const e of this.db.list({ prefix: keys.eventLogAll() }, { reverse: true, limit: 1 })) {
        this.#cursor = e.key;
      }
      if (this.#stopped) return;
      this.#syncedAt = began;
      this.#timer = setInterval(() => void this.tail(), pollMs);
      this.#reader = this.db.watch([keys.eventsVersion()]).getReader();
      void (async () => {
        try {
          while (!this.#stopped) {
            const { done } = await this.#reader!.read();
            if (done) break;
            void this.tail();
          }
        } catch { /* the handle closed */ }
      })();
    })();
    return this.#started;
  }

  /** Delivers the events written since the last tail (single flight; calls coalesce). */
  tail(): Promise<void> {
    if (this.#tailing) {
      this.#again = true;
      return this.#tailing;
    }
    this.#tailing = (async () => {
      try {
        do {
          this.#again = false;
          const began = performance.now();
          await this.#tailOnce();
          this.#syncedAt = began;
        } while (this.#again && !this.#stopped);
      } catch {
        /* the handle closed, or a passing fault: the next poll tries again */
      } finally {
        this.#tailing = undefined;
      }
    })();
    return this.#tailing;
  }

  async #tailOnce(): Promise<void> {
    const prefix = keys.eventLogAll();
    // Right after the cursor: a key extended by a part sorts after the key itself.
    const selector: Deno.KvListSelector = this.#cursor ? { prefix, start: [...this.#cursor, 0] } : { prefix };
    for await (const e of this.db.list<LogEntry>(selector, { batchSize: 500 })) {
      this.#cursor = e.key;
      for (const { to, event } of e.value.events) {
        for (const id of to) {
          for (const fn of this.#listeners.get(id) ?? []) {
            try {
              fn(event);
            } catch { /* one listener's fault is its own */ }
          }
        }
      }
    }
  }

  /** Stops the watch and the poll. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#reader?.cancel().catch(() => {});
    await this.#tailing;
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
