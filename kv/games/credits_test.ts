import assert from "node:assert/strict";
import { kvTest } from "../../tests/kv.ts";
import { kv, wrapKv } from "../db.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { countedKv, tripsOf } from "../roundTrips.ts";
import { creditState, volunteerStatus } from "./credits.ts";
import { VOLUNTEER_WINDOW_DAYS } from "../../domain/volunteer.ts";

const DAY_MS = 24 * 60 * 60_000;

kvTest("credits - the volunteer window is today and the 29 days before it, read in one store call", async () => {
  const p = "p-credits";
  const day = Math.floor(now() / DAY_MS);
  // Today, the window's first day, and two days just outside it (a day before, a day after).
  await kv().set(keys.gameCreditsDay(p, day), 3);
  await kv().set(keys.gameCreditsDay(p, day - VOLUNTEER_WINDOW_DAYS + 1), 5);
  await kv().set(keys.gameCreditsDay(p, day - VOLUNTEER_WINDOW_DAYS), 7);
  await kv().set(keys.gameCreditsDay(p, day + 1), 11);
  wrapKv((db) => countedKv(db, 0));

  const { result: s, trips } = await tripsOf(() => creditState(p));
  assert.equal(s.today.value, 3);
  assert.notEqual(s.today.versionstamp, null, "today's entry as stored, for the credit's check");
  assert.equal(s.earlier, 5);
  assert.equal(trips.calls, 1, `one call for the window, made: ${trips.names.join(", ")}`);
  assert.equal((await volunteerStatus(p, "no-account")).recentCredits, 8);

  // No counter today: an empty entry the credit's check takes as "still none".
  const other = await creditState("p-none");
  assert.deepEqual([other.today.value, other.today.versionstamp, other.earlier], [null, null, 0]);

  // Every day of the window counted: still one call.
  for (let d = 1; d < VOLUNTEER_WINDOW_DAYS; d++) await kv().set(keys.gameCreditsDay(p, day - d), 1);
  const full = await tripsOf(() => creditState(p));
  assert.equal(full.result.earlier, VOLUNTEER_WINDOW_DAYS - 1);
  assert.equal(full.trips.calls, 1);
});
