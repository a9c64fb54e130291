/**
 * Saving a member's own position, shared by the position report (`PUT /api/profile-position`,
 * routes/api/positions.ts) and the end of onboarding (`POST /welcome`, routes/pages/welcome.tsx).
 */

import { badRequest, tooMany } from "./errors.ts";
import { GeoInputError, type OwnPosition, reportPosition } from "../kv/positions/mod.ts";
import { hit } from "../kv/ratelimit.ts";
import { getSafety } from "../kv/safety.ts";
import { atRiskAt } from "../domain/safety.ts";

/**
 * Saves a member's own position as their report asks (the position report, and the end of
 * onboarding): counted against `positionByAccount` (429 past it), hidden where being gay is a
 * crime unless the member chose otherwise, bad coordinates a 400. The position index of this
 * instance has it when this resolves; the others within their next tail.
 */
export async function saveOwnPosition(
  accountId: string,
  profileId: string,
  report: { lat: number; lon: number; use: "OVERRIDE" | "DEVICE_GPS"; hide: boolean; gpsTimestamp: number | null },
): Promise<OwnPosition> {
  if (!(await hit("positionByAccount", accountId))) throw tooMany();
  // Where being gay is a crime, a member is shown to no one nearby unless they chose otherwise
  // (their favourites still reach their profile): the map, lists and Map Chat leave them out.
  const protect = await atRiskAt(report.lat, report.lon) && !(await getSafety(profileId)).showToEveryone;
  try {
    return await reportPosition(profileId, { ...report, hide: report.hide || protect });
  } catch (e) {
    if (e instanceof GeoInputError) throw badRequest(e.message);
    throw e;
  }
}
