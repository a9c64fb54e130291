/**
 * Positions: the write path, atomic batched commits of what records.ts derives.
 *
 * Contract: one `kv.atomic()` per write batch holds, per member: a check (on the own record as
 * read, or on the shown record the index guessed from), the own record, the shown record (and the
 * old one's delete), plus one change-log entry
 * `positions_log/{commit versionstamp}` listing the batch's changes (kept 15 min) and a `sum` on
 * `positions_version`. A committed write is applied to the local index at once, so the writer's
 * next query sees it. Concurrent reports are grouped into one commit (up to 100, KV's limit of
 * checks) because a commit (a transaction and an fsync in SQLite), not the work per member, limits
 * write throughput. A write needs the previous own record (hysteresis cell, old sector, the other
 * mode's point): when the report carries the other point, as the client's ProfilePosition body
 * does, and the member is visible, the index supplies the rest and the shown record's versionstamp
 * to check, so no read is needed (a stale guess fails the check and is retried with a read);
 * otherwise own records are read in `getMany` groups of 10. When a batch fails a check, one grouped
 * read finds the stale writes and the rest are committed together again. Reports of one member are
 * serialized.
 */

import { keys } from "../keys.ts";
import { getAll, maxChecksPerAtomic } from "../db.ts";
import {
  addWrite,
  knownOwn,
  otherPointGiven,
  ownView,
  type PreparedWrite,
  prepareWrite,
  validateReport,
} from "./records.ts";
import { ownEntry } from "./ownRecord.ts";
import type { StoreState } from "./state.ts";
import { type LogChange, type OwnPosition, type OwnRecord, POSITION_LOG_TTL_MS, type PositionReport } from "./types.ts";

/** The most writes one commit groups (each checks its own record: within the store's checks per atomic). */
const WRITE_BATCH = 100;
const WRITES_IN_FLIGHT = 2;

/** A read of an own record waiting for its `getMany` group. */
interface QueuedRead {
  profileId: string;
  done: (e: Deno.KvEntryMaybe<OwnRecord>) => void;
  fail: (e: unknown) => void;
}

/** A prepared write waiting for its group commit. */
interface QueuedWrite {
  w: PreparedWrite;
  done: (versionstamp: string | null) => void;
  fail: (e: unknown) => void;
}

/**
 * Commits, retrying a few times when SQLite reports the file locked by another process that
 * writes the same local KV file (a second instance or a worker); remote KV never says this.
 */
async function commitRetryingLocks(op: Deno.AtomicOperation): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  for (let attempt = 0;; attempt++) {
    try {
      return await op.commit();
    } catch (e) {
      if (attempt >= 8 || !/database is locked|busy/i.test(String((e as Error)?.message))) throw e;
      await new Promise((r) => setTimeout(r, 2 + Math.random() * 8 * (attempt + 1)));
    }
  }
}

/**
 * Commits prepared writes in one atomic operation, with one log entry for their changes and a
 * bump of `positions_version`; once committed, applies them to the local index at once.
 */
export async function commitWrites(
  s: StoreState,
  ws: PreparedWrite[],
  withCheck: boolean,
): Promise<Deno.KvCommitResult | Deno.KvCommitError> {
  const op = s.db.atomic();
  const changes: LogChange[] = [];
  for (const w of ws) {
    addWrite(op, w, withCheck);
    if (w.change) changes.push(w.change);
  }
  if (changes.length > 0) {
    op.set(keys.positionLog(s.db.commitVersionstamp()), changes, { expireIn: POSITION_LOG_TTL_MS });
    op.sum(keys.positionsVersion(), 1n);
  }
  const res = await commitRetryingLocks(op);
  if (res.ok) {
    for (const w of ws) {
      if (w.change) s.index.apply(w.change, res.versionstamp);
    }
  }
  return res;
}

/** The write path of one store: per-member locks, grouped reads and group commits. */
export class PositionWrites {
  readonly #s: StoreState;
  #locks = new Map<string, Promise<void>>();
  #queue: QueuedWrite[] = [];
  #inFlight = 0;
  #reads: QueuedRead[] = [];
  #readsScheduled = false;

  constructor(state: StoreState) {
    this.#s = state;
  }

  /** See the module function `reportPosition`. */
  async report(profileId: string, r: PositionReport): Promise<OwnPosition> {
    validateReport(profileId, r);
    const report: PositionReport = { ...r, lon: r.lon === 180 ? -180 : r.lon };
    const [secret] = await Promise.all([this.#s.secret(), this.#s.ready()]);
    return await this.#lock(profileId, async () => {
      // Without a read when the index knows all the report does not bring (see knownOwn).
      const known = otherPointGiven(report) ? knownOwn(this.#s.index, this.#s.grid, profileId) : null;
      if (known) {
        const w = prepareWrite(this.#s.grid, profileId, report, known, secret, true);
        if ((await this.#write(w)) !== null) return ownView(w.own);
      }
      for (let attempt = 0; attempt < 10; attempt++) {
        const prev = await this.#readOwn(profileId);
        const w = prepareWrite(this.#s.grid, profileId, report, prev, secret);
        if ((await this.#write(w)) !== null) return ownView(w.own);
      }
      throw new Error(`position of ${profileId}: too many concurrent writes`);
    });
  }

  async #lock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const prev = this.#locks.get(id);
    let release!: () => void;
    const mine = new Promise<void>((r) => (release = r));
    this.#locks.set(id, mine);
    if (prev) await prev;
    try {
      return await fn();
    } finally {
      release();
      if (this.#locks.get(id) === mine) this.#locks.delete(id);
    }
  }

  /**
   * Reads an own record; concurrent reads are grouped into `getMany` calls of 10 keys, which cost
   * KV about a third of 10 single reads. While commits are in flight, reads wait one macrotask to
   * gather company; otherwise they go out in the same microtask turn.
   */
  #readOwn(profileId: string): Promise<Deno.KvEntryMaybe<OwnRecord>> {
    return new Promise((done, fail) => {
      this.#reads.push({ profileId, done, fail });
      if (this.#reads.length >= 10) this.#flushReads();
      else if (!this.#readsScheduled) {
        this.#readsScheduled = true;
        if (this.#inFlight > 0) setTimeout(() => this.#flushReads(), 0);
        else queueMicrotask(() => this.#flushReads());
      }
    });
  }

  #flushReads(): void {
    this.#readsScheduled = false;
    const all = this.#reads.splice(0);
    for (let i = 0; i < all.length; i += 10) {
      const chunk = all.slice(i, i + 10);
      this.#s.db.getMany(chunk.map((r) => keys.positionOwn(r.profileId))).then(
        (entries) => chunk.forEach((r, j) => r.done(ownEntry(r.profileId, entries[j]))),
        (e) => chunk.forEach((r) => r.fail(e)),
      );
    }
  }

  /** Queues a prepared write; commits group whatever is queued (group commit). */
  #write(w: PreparedWrite): Promise<string | null> {
    return new Promise((done, fail) => {
      this.#queue.push({ w, done, fail });
      this.#pump();
    });
  }

  #pump(): void {
    while (this.#inFlight < WRITES_IN_FLIGHT && this.#queue.length > 0) {
      const batch = this.#queue.splice(0, Math.min(WRITE_BATCH, maxChecksPerAtomic()));
      this.#inFlight++;
      this.#commitBatch(batch).finally(() => {
        this.#inFlight--;
        this.#pump();
      });
    }
  }

  async #commitBatch(batch: QueuedWrite[]): Promise<void> {
    try {
      const res = await commitWrites(this.#s, batch.map((b) => b.w), true);
      if (res.ok) {
        for (const b of batch) b.done(res.versionstamp);
        return;
      }
    } catch (e) {
      if (batch.length === 1) {
        batch[0].fail(e);
        return;
      }
    }
    if (batch.length === 1) {
      batch[0].done(null);
      return;
    }
    // A check failed: a guess from the index was stale (the member's last quiet write was made by
    // another instance, or before this one started) or another instance wrote meanwhile. One
    // grouped read finds which: those go back to be prepared again from what it read, the rest
    // are committed together again. Only when that fails too are they committed one by one.
    let rest = batch;
    try {
      const entries = await getAll(batch.map((b) => b.w.check.key), this.#s.db);
      rest = batch.filter((b, i) => {
        if (entries[i].versionstamp === b.w.check.versionstamp) return true;
        b.done(null);
        return false;
      });
      if (rest.length === 0) return;
      const res = await commitWrites(this.#s, rest.map((b) => b.w), true);
      if (res.ok) {
        for (const b of rest) b.done(res.versionstamp);
        return;
      }
    } catch { /* committed one by one below, each with its own answer */ }
    for (const b of rest) {
      try {
        const res = await commitWrites(this.#s, [b.w], true);
        b.done(res.ok ? res.versionstamp : null);
      } catch (e) {
        b.fail(e);
      }
    }
  }
}
