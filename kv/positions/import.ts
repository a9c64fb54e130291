/**
 * Positions: bulk import, many members' reports in large commits.
 *
 * Contract: every item is validated and the profiles must be distinct before anything is written;
 * own records are read in `getMany` groups of 10, and each chunk of `IMPORT_BATCH` members is one
 * commit without checks (so a concurrent report of an imported member may be overwritten). Each
 * commit logs its changes and applies them to the local index like any write.
 */

import { keys } from "../keys.ts";
import { GeoInputError } from "../../domain/geo.ts";
import { ownEntry } from "./ownRecord.ts";
import { prepareWrite, validateReport } from "./records.ts";
import type { StoreState } from "./state.ts";
import type { ImportItem, OwnRecord } from "./types.ts";
import { commitWrites } from "./writes.ts";

const IMPORT_BATCH = 300;

/**
 * Writes many positions in large commits without checks (seeding, admin test users, benchmarks).
 * Each profile at most once; it does not check for concurrent reports of the same profiles.
 */
export async function bulkImport(s: StoreState, items: ImportItem[]): Promise<number> {
  for (const it of items) validateReport(it.profileId, it);
  const [secret] = await Promise.all([s.secret(), s.ready()]);
  const seen = new Set<string>();
  for (const it of items) {
    if (seen.has(it.profileId)) {
      throw new GeoInputError(`duplicate profile ${it.profileId} in import`);
    }
    seen.add(it.profileId);
  }
  let done = 0;
  for (let i = 0; i < items.length; i += IMPORT_BATCH) {
    const chunk = items.slice(i, i + IMPORT_BATCH);
    const prevs: Deno.KvEntryMaybe<OwnRecord>[] = [];
    const reads: Promise<Deno.KvEntryMaybe<unknown>[]>[] = [];
    for (let j = 0; j < chunk.length; j += 10) {
      reads.push(s.db.getMany(chunk.slice(j, j + 10).map((it) => keys.positionOwn(it.profileId))));
    }
    for (const r of await Promise.all(reads)) for (const e of r) prevs.push(ownEntry(chunk[prevs.length].profileId, e));
    const ws = chunk.map((it, j) =>
      prepareWrite(s.grid, it.profileId, { ...it, lon: it.lon === 180 ? -180 : it.lon }, prevs[j], secret)
    );
    const res = await commitWrites(s, ws, false);
    if (!res.ok) throw new Error("position import commit failed");
    done += chunk.length;
  }
  return done;
}
