/**
 * The tail of a change log: how an instance follows an append-only log that every instance writes.
 *
 * A change log keeps one entry per commit at `[...log, versionstamp]` (the commit's own
 * versionstamp, `kv.commitVersionstamp()`, so the log's order is the commit order) and bumps a
 * version key in the same atomic. The member event log (kv/events.ts, which kv/kept.ts rides on)
 * and the position log (kv/positions/sync.ts) are both followed by a `ChangeLogTailer`:
 * - ONE `kv.watch` on the version key starts a tail when it changes; a local file's watch sees
 *   only its own process's writes, so a short poll (`POLL_MS`) starts one too and catches what
 *   other processes (or a missed watch) wrote. An owner that starts a tail after each of its own
 *   process's appends needs no watch on a local file (`watch: false`; kv/events.ts);
 * - a tail reads every entry after the cursor in order and hands each to `apply`; tails run one at
 *   a time, and calls made while one runs coalesce into one more pass;
 * - the cursor is the versionstamp of the last entry applied ("" before the log's first entry), a
 *   string an owner may save (a snapshot) and start from again: the entries after it follow,
 *   none twice, none lost while the log keeps them.
 */

import { kvIsRemote } from "./db.ts";

/**
 * How often a following tailer reads a local file's log whatever the watch says: the longest
 * another process's entry waits, well inside the 1 s that live streams and kept reads promise.
 */
export const POLL_MS = 250;

/** The same on a remote KV, whose watch sees every writer's change: there the poll only backs up a missed watch. */
export const REMOTE_POLL_MS = 1000;

/**
 * The cursor before every entry (no commit's versionstamp is zero): what an owner names for "all
 * that follows" when the log held nothing as it read.
 */
export const LOG_START = "0".repeat(20);

export interface ChangeLogOptions<T> {
  /** The log's key prefix; an entry's key is the prefix and its commit versionstamp. */
  log: Deno.KvKey;
  /** The key each append bumps in its atomic (watched). */
  version: Deno.KvKey;
  /** Takes one entry, in commit order. An entry it throws on is read again by the next pass. */
  apply: (entry: Deno.KvEntry<T>) => void;
  /**
   * One pass of `tail()` (by default `read()`): an owner that orders the log's reads with its own
   * work (a reload) wraps `read()` here, or skips it.
   */
  pass?: () => Promise<void>;
  /**
   * Whether `start` watches the version key (default true). An owner that calls `tail()` after
   * each append its own process commits passes false on a local file, whose watch sees only this
   * process's writes anyway: the poll still catches other processes'.
   */
  watch?: boolean;
}

/** A tailer's following of the log: its poll, and its watch when it has one. */
interface Following {
  timer: ReturnType<typeof setInterval>;
  /** The watch's reader and loop (none without a watch). */
  reader?: ReadableStreamDefaultReader<unknown>;
  loop?: Promise<void>;
  /** Resolves once the watch has given the version key's current value (or ended). */
  first: Promise<void>;
}

/** One instance's tail of one change log on one KV handle. */
export class ChangeLogTailer<T> {
  readonly db: Deno.Kv;
  /** The versionstamp of the last entry applied; "" reads from the log's first entry. */
  cursor = "";
  readonly #o: ChangeLogOptions<T>;
  #syncedAt = -Infinity;
  #tailing?: Promise<void>;
  #again = false;
  #stopped = false;
  #following?: Following;

  constructor(db: Deno.Kv, options: ChangeLogOptions<T>) {
    this.db = db;
    this.#o = options;
  }

  /**
   * When (`performance.now()`) the last completed read began: every entry committed before it has
   * been applied. -Infinity before the first read and after `unsync()`.
   */
  get syncedAt(): number {
    return this.#syncedAt;
  }

  /** Is the watch and poll running (`start` without `stop`)? */
  get following(): boolean {
    return this.#following !== undefined;
  }

  /** Forgets that the tail was in step (the owner rebuilds from elsewhere and then reads again). */
  unsync(): void {
    this.#syncedAt = -Infinity;
  }

  /** The cursor of the log's newest entry ("" when the log is empty): reading after it skips the whole log. */
  async end(): Promise<string> {
    for await (const e of this.db.list({ prefix: this.#o.log }, { reverse: true, limit: 1 })) {
      return cursorOf(e.key);
    }
    return "";
  }

  /** The log's entries after `cursor` ("" : all), oldest first. */
  entriesAfter(cursor: string): Deno.KvListIterator<T> {
    const prefix = this.#o.log;
    // Right after the cursor: a string extended by "\0" is the next one in key order.
    const selector: Deno.KvListSelector = cursor ? { prefix, start: [...prefix, cursor + "\0"] } : { prefix };
    return this.db.list<T>(selector, { batchSize: 500 });
  }

  /** Is the entry at `cursor` still in the log (entries may expire)? */
  async holds(cursor: string): Promise<boolean> {
    return (await this.db.get([...this.#o.log, cursor])).versionstamp !== null;
  }

  /** Applies every entry after the cursor, moving the cursor along (one pass; `tail()` is the single-flight one). */
  async read(): Promise<void> {
    const began = performance.now();
    for await (const e of this.entriesAfter(this.cursor)) {
      this.#o.apply(e);
      this.cursor = cursorOf(e.key);
    }
    this.#syncedAt = began;
  }

  /**
   * Reads what was written since the last pass (single flight: calls made while a pass runs
   * coalesce into one more). A fault ends the call quietly: after a passing KV error the next watch
   * or poll tries again; a closed store ends the following (its poll would fail for ever, and keep
   * the process alive).
   */
  tail(): Promise<void> {
    if (this.#tailing) {
      this.#again = true;
      return this.#tailing;
    }
    this.#tailing = (async () => {
      try {
        do {
          this.#again = false;
          await (this.#o.pass ? this.#o.pass() : this.read());
        } while (this.#again && !this.#stopped);
      } catch (e) {
        if (storeClosed(e)) this.#unfollow();
      } finally {
        this.#tailing = undefined;
      }
    })();
    return this.#tailing;
  }

  /**
   * Follows the log: a tail at each change of the version key (unless the owner tells it of its
   * own appends: `watch` false), and every `pollMs` (by default `POLL_MS`, or `REMOTE_POLL_MS` on a
   * remote store). Idempotent.
   */
  start(pollMs = kvIsRemote() ? REMOTE_POLL_MS : POLL_MS): void {
    if (this.#following) return;
    this.#stopped = false;
    if (this.#o.watch === false) {
      const timer = setInterval(() => void this.tail(), pollMs);
      this.#following = { timer, first: Promise.resolve() };
      return;
    }
    const reader = this.db.watch([this.#o.version]).getReader();
    const first = Promise.withResolvers<void>();
    const loop = (async () => {
      try {
        for (;;) {
          const r = await reader.read();
          first.resolve();
          if (r.done || this.#stopped) return;
          void this.tail();
        }
      } catch {
        // The watch ends when the handle closes or the tailer stops.
      } finally {
        first.resolve();
      }
    })();
    const timer = setInterval(() => void this.tail(), pollMs);
    this.#following = { reader, timer, loop, first: first.promise };
  }

  /**
   * Resolves once the watch has given the version key's current value, which starts a tail (so a
   * `tail()` after it includes that one); at once when not following or not watching. Later
   * changes start tails.
   */
  watchStarted(): Promise<void> {
    return this.#following?.first ?? Promise.resolve();
  }

  /** Ends the watch and the poll; resolves once the tail in flight (which does not go round again) is done. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const f = this.#unfollow();
    await f?.loop;
    await this.#tailing;
  }

  /** Ends the poll and cancels the watch (its loop then ends); returns what was following. */
  #unfollow(): Following | undefined {
    const f = this.#following;
    this.#following = undefined;
    if (f) {
      clearInterval(f.timer);
      f.reader?.cancel().catch(() => {});
    }
    return f;
  }
}

/** Does this error say the store's handle is closed (a shutdown, a test's store closed)? */
export function storeClosed(e: unknown): boolean {
  return /database is closed|bad resource/i.test(String(e));
}

/** An entry key's cursor: its last part, the commit's versionstamp. */
export function cursorOf(key: Deno.KvKey): string {
  return String(key[key.length - 1]);
}
