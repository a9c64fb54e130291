/**
 * Positions: `PositionStore`, the positions of one KV database, composed of its parts.
 *
 * Contract: one store per KV handle (the module functions of `kv/positions/mod.ts` use the store of
 * `kv()`; a second store on another handle stands in for another instance). The store owns the
 * shown-point secret and one `StoreState` (state.ts) it shares with its parts: writes (writes.ts),
 * loading and sync (sync.ts), bulk import (import.ts) and the queries (queries.ts). Its methods
 * only delegate; each part documents what it does.
 */

import { keys } from "../keys.ts";
import { randomToken } from "../ids.ts";
import { DEFAULT_CELL_METERS, DEFAULT_HYSTERESIS, PrivacyGrid } from "../../domain/geo.ts";
import { bulkImport } from "./import.ts";
import { sweepExpiredOwn, takeSweepTurn } from "./expiry.ts";
import { PositionIndex } from "./memoryIndex.ts";
import * as queries from "./queries.ts";
import type { StoreState } from "./state.ts";
import { PositionSync } from "./sync.ts";
import type {
  BoundsQuery,
  ImportItem,
  NearbyPage,
  OwnPosition,
  PositionReport,
  QueryOptions,
  ShownPosition,
} from "./types.ts";
import type { PositionAggregate } from "../../domain/shapes/positions.ts";
import { PositionWrites } from "./writes.ts";

/** Options of a `PositionStore`; the module functions use the defaults (and the env). */
export interface PositionStoreOptions {
  /** Privacy cell edge in metres (default env `GEO_CELL_METERS`, else 1000). */
  cellMeters?: number;
  /** Hysteresis in cells (default 0.2). */
  hysteresis?: number;
  /** Shown-point secret (default env `GEO_SECRET`, else generated once and kept in KV). */
  secret?: string;
  /** Start from a recent snapshot when there is one (default true; false: always list every record). */
  snapshots?: boolean;
}

function readEnv(name: string): string | undefined {
  try {
    return Deno.env.get(name) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Positions of one KV database: writes, the in-memory index and its sync. The module functions
 * of `kv/positions/mod.ts` use the store of `kv()`; a second store on another handle stands in for
 * another instance.
 */
export class PositionStore {
  readonly db: Deno.Kv;
  readonly grid: PrivacyGrid;
  #secretOption?: string;
  #secret?: Promise<string>;
  readonly #state: StoreState;
  readonly #sync: PositionSync;
  readonly #writes: PositionWrites;

  constructor(db: Deno.Kv, options: PositionStoreOptions = {}) {
    this.db = db;
    const envCell = Number(readEnv("GEO_CELL_METERS"));
    const cell = options.cellMeters ??
      (Number.isFinite(envCell) && envCell > 0 ? envCell : DEFAULT_CELL_METERS);
    this.grid = new PrivacyGrid(cell, options.hysteresis ?? DEFAULT_HYSTERESIS);
    this.#secretOption = options.secret;
    this.#state = {
      db,
      grid: this.grid,
      index: new PositionIndex(),
      secret: () => this.secret(),
      ready: () => this.ready(),
      fresh: () => this.#sync.fresh(),
      current: () => this.#sync.current,
    };
    this.#sync = new PositionSync(this.#state, { snapshots: options.snapshots ?? true });
    this.#writes = new PositionWrites(this.#state);
  }

  /** The shown-point secret: option, env `GEO_SECRET`, or one generated and stored in KV. */
  secret(): Promise<string> {
    this.#secret ??= (async () => {
      const given = this.#secretOption ?? readEnv("GEO_SECRET");
      if (given) return given;
      const key = keys.positionsSecret();
      for (;;) {
        const e = await this.db.get<string>(key);
        if (typeof e.value === "string" && e.value) return e.value;
        const s = randomToken(32);
        const res = await this.db.atomic().check(e).set(key, s).commit();
        if (res.ok) return s;
      }
    })();
    this.#secret.catch(() => (this.#secret = undefined));
    return this.#secret;
  }

  /** Number of visible members in the index (expired ones included until purged). */
  get size(): number {
    return this.#state.index.members.size;
  }

  /** The index's sync: when it last caught up with the change log, and whether it follows it (metrics, readiness). */
  get syncStatus(): { lastTailAt: number; following: boolean } {
    return this.#sync.status;
  }

  /** Loads the index once (first use); queries and writes wait for it. */
  ready(): Promise<void> {
    return this.#sync.ready();
  }

  /** Rebuilds the index from KV: every shown record, then the log written meanwhile. */
  load(): Promise<{ members: number; ms: number; from: "snapshot" | "records" }> {
    return this.#sync.load();
  }

  /** Writes a snapshot of the index for a fast start (kv/positions/snapshot.ts); null before the first load. */
  writeSnapshot(): Promise<{ members: number; bytes: number } | null> {
    return this.#sync.snapshot();
  }

  /** Applies what other instances wrote since the last tail (single flight; calls coalesce). */
  tail(): Promise<void> {
    return this.#sync.tail();
  }

  /** Starts following other instances' writes (watch plus a fallback poll). Idempotent. */
  startSync(options: { pollMs?: number; snapshots?: boolean } = {}): void {
    this.#sync.start(options);
  }

  /** Stops the sync and waits for its last tail. */
  stopSync(): Promise<void> {
    return this.#sync.stop();
  }

  /** See the module function `reportPosition`. */
  report(profileId: string, r: PositionReport): Promise<OwnPosition> {
    return this.#writes.report(profileId, r);
  }

  /** See the module function `importPositions`. */
  import(items: ImportItem[]): Promise<number> {
    return bulkImport(this.#state, items);
  }

  /** See the module function `sweepExpiredPositions`. */
  sweepExpired(stopped?: () => boolean): Promise<number> {
    return sweepExpiredOwn(this.#state, undefined, stopped);
  }

  /** See the module function `sweepPositionsWhenDue`. */
  async sweepWhenDue(stopped?: () => boolean): Promise<number | null> {
    return await takeSweepTurn(this.#state) ? await sweepExpiredOwn(this.#state, undefined, stopped) : null;
  }

  /** The owner's own record, or null (none, or expired). */
  own(profileId: string): Promise<OwnPosition | null> {
    return queries.own(this.#state, profileId);
  }

  /** A visible member's shown position from the index, or null (hidden, expired, unknown). */
  shown(profileId: string, fresh = false): Promise<ShownPosition | null> {
    return queries.shown(this.#state, profileId, fresh);
  }

  /** See the module function `nearest`. */
  nearest(viewerId: string, o: QueryOptions = {}): Promise<NearbyPage> {
    return queries.nearest(this.#state, viewerId, o);
  }

  /** See the module function `byBounds`. */
  byBounds(q: BoundsQuery, viewerId: string): Promise<NearbyPage> {
    return queries.byBounds(this.#state, q, viewerId);
  }

  /** See the module function `bySector`. */
  bySector(sector: string, o: QueryOptions, viewerId: string): Promise<NearbyPage> {
    return queries.bySector(this.#state, sector, o, viewerId);
  }

  /** See the module function `aggregates`. */
  aggregates(): Promise<PositionAggregate[]> {
    return queries.aggregates(this.#state);
  }
}
