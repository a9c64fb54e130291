/**
 * Positions: the sweep that deletes own records past their validity.
 *
 * Contract: an own record `positions_own/{id}` is stored without a store expiry (decision 0306).
 * In a local KV file an expiry is an entry of the file's expiry index, which a write rewrites even
 * when the time is unchanged: that was a second page written by every report, half of what a quiet
 * report (a few metres, the shown point unchanged) cost the store. Every reader of an own record
 * already counts one past `tsEffectiveUntil` as none; this sweep deletes them from the store, each
 * delete checked against the record it read, so a report committed meanwhile is kept. Shown
 * records keep their store expiry: they are written only when the shown point changes or is
 * refreshed (`SHOWN_REFRESH_MS`). Any number of processes may sweep; the workers take turns
 * (`takeSweepTurn`), so each period's sweep reads the records once, whatever the processes.
 */

import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { maxChecksPerAtomic } from "../db.ts";
import { decodeOwn } from "./ownRecord.ts";
import type { StoreState } from "./state.ts";
import { POSITION_SWEEP_MS } from "./types.ts";

/** Records read from the store a batch while sweeping. */
const LIST_BATCH = 500;

/**
 * Deletes every own record whose validity ended before `at` (each checked against what was read).
 * Returns how many it deleted. Values that are no record this code reads are left to their own
 * expiry (records written before 0306 carry one). `stopped` ends the sweep early (a server that
 * stops): what it found so far is still deleted.
 */
export async function sweepExpiredOwn(s: StoreState, at = now(), stopped = () => false): Promise<number> {
  const expired: Deno.KvEntry<unknown>[] = [];
  let deleted = 0;
  const flush = async () => {
    const batch = expired.splice(0);
    if (batch.length === 0) return;
    const op = s.db.atomic();
    for (const e of batch) op.check(e).delete(e.key);
    if ((await op.commit()).ok) {
      deleted += batch.length;
      return;
    }
    // One was written again meanwhile: each on its own, so the rest still go.
    for (const e of batch) if ((await s.db.atomic().check(e).delete(e.key).commit()).ok) deleted++;
  };
  for await (const e of s.db.list({ prefix: keys.positionsOwnAll() }, { batchSize: LIST_BATCH })) {
    if (stopped()) break;
    const r = decodeOwn(String(e.key[1]), e.value);
    if (r === null || r.tsEffectiveUntil > at) continue;
    expired.push(e);
    if (expired.length >= maxChecksPerAtomic()) await flush();
  }
  await flush();
  return deleted;
}

/**
 * Whether this process is to sweep now: true for the first process that asks once
 * `POSITION_SWEEP_MS` have passed since any process last began a sweep (the time is written
 * checked against the one read, so two processes asking at once do not both get the turn).
 */
export async function takeSweepTurn(s: StoreState, at = now()): Promise<boolean> {
  const entry = await s.db.get<number>(keys.positionsSweptAt());
  if (typeof entry.value === "number" && at - entry.value < POSITION_SWEEP_MS && entry.value <= at) return false;
  return (await s.db.atomic().check(entry).set(entry.key, at).commit()).ok;
}
