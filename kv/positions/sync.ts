/**
 * Positions: the index as a cache of KV, loaded in full and kept current by tailing the change log.
 *
 * Contract: queries never list KV; many stateless instances may share one remote KV, so each
 * keeps its index in step with it:
 * - `load()` starts from the newest snapshot when it is recent (snapshot.ts), else notes the last
 *   log key, lists all shown records into a new index, then tails the log from the noted key (a
 *   write racing the load is in the log after it);
 * - `start()` follows the log with a `ChangeLogTailer` (kv/changeLog.ts: a watch on
 *   `positions_version` and a short poll), which reads the log after the last key applied. Log
 *   keys are commit versionstamps, so they are in commit order and a tail misses nothing
 *   committed before it; the tailer's cursor is the snapshot's cursor;
 * - each profile keeps the versionstamp of its last applied change, so applying a change twice or
 *   out of order is a no-op (memoryIndex.ts); an instance that could not tail for half the log's
 *   lifetime reloads in full;
 * - loads and tails run one at a time; other instances see a write after their next tail
 *   (milliseconds), the writer at once (writes.ts); a query on a following instance first tails
 *   when the last tail began over `FRESH_MS` ago (`fresh()`), so no answer misses a write older
 *   than that.
 */

import { isLat, isLon } from "../../domain/geo.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { ChangeLogTailer } from "../changeLog.ts";
import { PositionIndex } from "./memoryIndex.ts";
import type { StoreState } from "./state.ts";
import { FRESH_MS, type LogChange, POSITION_LOG_TTL_MS, type ShownValue } from "./types.ts";
import {
  decodeSnapshot,
  encodeSnapshot,
  readSnapshot,
  SNAPSHOT_EVERY_MS,
  takeSnapshotLease,
  writeSnapshot,
} from "./snapshot.ts";

const PURGE_EVERY_MS = 60_000;
/** How often a following sync sees whether a snapshot or a purge is due. */
const UPKEEP_EVERY_MS = 5000;

/** Loading and syncing of one store's index: the first load, reloads, tails, the watch. */
export class PositionSync {
  readonly #s: StoreState;
  #loaded?: Promise<void>;
  /** `#loaded` once it has resolved (a reload under way replaces `#loaded`, not this). */
  #loadedDone?: Promise<void>;
  #lastPurge = 0;
  #chain: Promise<unknown> = Promise.resolve();
  readonly #log: ChangeLogTailer<LogChange[]>;
  #upkeep?: ReturnType<typeof setInterval>;

  readonly #useSnapshots: boolean;

  constructor(state: StoreState, options: { snapshots: boolean } = { snapshots: true }) {
    this.#s = state;
    this.#useSnapshots = options.snapshots;
    this.#log = new ChangeLogTailer<LogChange[]>(state.db, {
      log: keys.positionsLogAll(),
      version: keys.positionsVersion(),
      apply: (e) => {
        if (!Array.isArray(e.value)) return;
        const index = this.#s.index;
        for (const c of e.value) index.apply(c, e.versionstamp);
      },
      pass: () => this.#serial(() => this.#tailPass()),
    });
  }

  /** Runs loads and tails one at a time, in call order. */
  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.#chain.then(fn, fn);
    this.#chain = run.catch(() => {});
    return run;
  }

  /** When the index last caught up with the change log (ms epoch; 0 before the first load), and whether it is following it. */
  get status(): { lastTailAt: number; following: boolean } {
    const synced = this.#log.syncedAt;
    const lastTailAt = Number.isFinite(synced) ? Date.now() - (performance.now() - synced) : 0;
    return { lastTailAt, following: this.#log.following };
  }

  /** Loads the index once (first use); queries and writes wait for it. */
  ready(): Promise<void> {
    if (this.#loaded === undefined) this.load().catch(() => {});
    return this.#loaded!;
  }

  /**
   * Whether a query may read the index at once: `ready()` has resolved and `fresh()` would not
   * tail (so it need await neither).
   */
  get current(): boolean {
    return this.#loadedDone !== undefined && this.#loadedDone === this.#loaded && !this.#tailDue;
  }

  /** While following the log, whether its last read began more than `FRESH_MS` ago (a query tails it first). */
  get #tailDue(): boolean {
    return this.#log.following && performance.now() - this.#log.syncedAt > FRESH_MS;
  }

  /**
   * Rebuilds the index: from the newest snapshot when one is recent enough (then the log after
   * it), else from every shown record (then the log written meanwhile).
   */
  load(): Promise<{ members: number; ms: number; from: "snapshot" | "records" }> {
    const run = this.#serial(async () => {
      const t0 = performance.now();
      const bytes = this.#useSnapshots ? await readSnapshot(this.#s.db, now()).catch(() => null) : null;
      // A snapshot that cannot be read (an unknown version) is passed over: the full load follows.
      const snap = bytes
        ? (() => {
          try {
            return decodeSnapshot(bytes, now());
          } catch {
            return null;
          }
        })()
        : null;
      if (snap) {
        this.#s.index = snap.index;
        this.#log.cursor = snap.cursor;
        await this.#log.read();
        return { members: snap.index.members.size, ms: performance.now() - t0, from: "snapshot" as const };
      }
      const cursor = await this.#log.end();
      // Every record as columns (a versionstamp each), then one index in cell order.
      const ids: string[] = [], versions: string[] = [], sector: number[] = [];
      const lat: number[] = [], lon: number[] = [], ts: number[] = [], until: number[] = [];
      const sectors = new Map<string, number>();
      const removals: [string, string][] = [];
      let lastVs = "";
      const iter = this.#s.db.list<ShownValue>({ prefix: keys.positionsShownAll() }, { batchSize: 1000 });
      for await (const e of iter) {
        const v = e.value, id = String(e.key[2]);
        // A commit's records share one versionstamp string.
        const vs = e.versionstamp === lastVs ? lastVs : (lastVs = e.versionstamp);
        if (!isLat(v?.lat) || !isLon(v?.lon)) {
          removals.push([id, vs]); // as `apply` takes it: no shown point
          continue;
        }
        const key = String(e.key[1]);
        let s = sectors.get(key);
        if (s === undefined) sectors.set(key, s = sectors.size);
        ids.push(id);
        versions.push(vs);
        sector.push(s);
        lat.push(v.lat);
        lon.push(v.lon);
        ts.push(v.ts ?? 0);
        until.push(v.u ?? 0);
      }
      const index = PositionIndex.fromColumns(
        {
          ids,
          versions,
          lat: Float64Array.from(lat),
          lon: Float64Array.from(lon),
          ts: Float64Array.from(ts),
          until: Float64Array.from(until),
          sector: Int32Array.from(sector),
          sectors: [...sectors.keys()],
        },
        -Infinity,
        "",
      );
      for (const [id, vs] of removals) index.apply({ p: id }, vs);
      this.#s.index = index;
      this.#log.cursor = cursor;
      await this.#log.read();
      return { members: index.members.size, ms: performance.now() - t0, from: "records" as const };
    });
    const loaded = run.then(() => {});
    this.#loaded = loaded;
    loaded.then(() => (this.#loadedDone = loaded), () => (this.#loaded = undefined));
    return run;
  }

  /**
   * Writes a snapshot of the index as of the last log key applied (in the load/tail queue, so no
   * change lands in between). `lease`: only when this instance holds the snapshot lease.
   */
  snapshot(opts: { lease?: string } = {}): Promise<{ members: number; bytes: number } | null> {
    return this.#serial(async () => {
      if (!this.#loaded || !Number.isFinite(this.#log.syncedAt)) return null;
      if (opts.lease && !(await takeSnapshotLease(this.#s.db, opts.lease, now()))) return null;
      await this.#log.read();
      const cursor = this.#log.cursor;
      const bytes = encodeSnapshot(this.#s.index, cursor, now());
      await writeSnapshot(this.#s.db, bytes, cursor);
      return { members: this.#s.index.members.size, bytes: bytes.byteLength };
    });
  }

  /**
   * One pass of the tailer, in the load/tail queue: nothing before the first load, and a reload
   * instead when the log may have expired past the cursor.
   */
  async #tailPass(): Promise<void> {
    if (!this.#loaded) return;
    const synced = this.#log.syncedAt;
    if (Number.isFinite(synced) && performance.now() - synced > POSITION_LOG_TTL_MS / 2) {
      // The log may have expired past our cursor: start over from the records.
      this.#log.unsync();
      queueMicrotask(() => this.load().catch(() => {}));
      return;
    }
    await this.#log.read();
  }

  /** Applies what other instances wrote since the last tail (single flight; calls coalesce). */
  tail(): Promise<void> {
    return this.#log.tail();
  }

  /**
   * While following the log: tails it first when the last read began more than `FRESH_MS` ago,
   * so a query never misses a write another instance committed before that (the watch of a local
   * file sees only this process's writes, and the poll comes once a second). Not following (a
   * tool, a test's second store): nothing, as before.
   */
  async fresh(): Promise<void> {
    if (this.#loaded && this.#tailDue) await this.#log.tail();
  }

  /** Starts following other instances' writes (watch and poll), and the snapshot and purge upkeep. Idempotent. */
  start(options: { pollMs?: number; snapshots?: boolean } = {}): void {
    if (this.#log.following) return;
    this.#log.start(options.pollMs);
    const holder = crypto.randomUUID();
    let nextSnapshot = Date.now() + SNAPSHOT_EVERY_MS * (0.5 + Math.random() / 2);
    this.#upkeep = setInterval(() => {
      if (options.snapshots !== false && Date.now() > nextSnapshot) {
        nextSnapshot = Date.now() + SNAPSHOT_EVERY_MS;
        this.snapshot({ lease: holder }).catch(() => {});
      }
      if (Date.now() - this.#lastPurge > PURGE_EVERY_MS) {
        this.#lastPurge = Date.now();
        this.#s.index.purgeExpired(now());
      }
    }, UPKEEP_EVERY_MS);
    this.ready().catch(() => {});
  }

  /** Stops the sync and waits for its last tail. */
  async stop(): Promise<void> {
    if (!this.#log.following) return;
    clearInterval(this.#upkeep);
    await this.#log.stop();
    await this.#loaded?.catch(() => {});
  }
}
