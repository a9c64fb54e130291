/**
 * What the parts of one `PositionStore` share.
 *
 * Contract: the store creates one `StoreState` and hands it to its parts (writes, sync, import,
 * queries). `db` and `grid` never change; `index` is replaced by a full load (sync), so a part
 * reads it through `state.index` where it uses it.
 * `secret`, `ready`, `fresh` and `current` are the store's own (the shown-point secret, the first
 * load, a recent enough tail of the change log, whether both are done).
 */

import type { PrivacyGrid } from "../../domain/geo.ts";
import type { PositionIndex } from "./memoryIndex.ts";

/** The state the parts of one position store share. */
export interface StoreState {
  /** The KV database. */
  readonly db: Deno.Kv;
  /** The privacy grid shown points are derived with. */
  readonly grid: PrivacyGrid;
  /** The current in-memory index; `load` replaces it. */
  index: PositionIndex;
  /** The shown-point secret (see `PositionStore.secret`). */
  secret(): Promise<string>;
  /** Resolves once the index is loaded (see `PositionStore.ready`). */
  ready(): Promise<void>;
  /**
   * Resolves once the index holds every write committed more than `FRESH_MS` ago on any instance
   * (see `PositionSync.fresh`): what a query awaits before it searches.
   */
  fresh(): Promise<void>;
  /** Whether a query may read the index at once, awaiting neither `ready` nor `fresh`. */
  current(): boolean;
}
