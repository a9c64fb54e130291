/**
 * A member's safety settings and protection (domain/safety.ts has the countries and why): the
 * one-time notice, and "show me to everyone" (off by default where being gay is a crime). Discreet
 * mode is the device's (a cookie, routes/api/safety.ts). Who is protected is decided by their own
 * reported point, which never leaves the server: a point near a border is judged by the true
 * place, not the shown one that can lie up to a cell away.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { getFreshShownPosition, getOwnPosition, positionStore } from "./positions/mod.ts";
import { getProfileLike } from "./likes.ts";
import { commitForgetting, keptRead } from "./kept.ts";
import { atRiskAt, atRiskNear, countryAt, reachOf } from "../domain/safety.ts";

/** A member's safety choices. */
export interface SafetySettings {
  /** When the member acknowledged the safety notice (null: not yet). */
  noticeSeen: number | null;
  /** Show me to everyone nearby even where being gay is a crime (default: favourites only there). */
  showToEveryone: boolean;
}

const DEFAULTS: SafetySettings = { noticeSeen: null, showToEveryone: false };

/** A member's safety settings (defaults when never set; kept a few seconds by the instance: kv/kept.ts). */
export function getSafety(profileId: string): Promise<SafetySettings> {
  return keptRead(
    "safety",
    profileId,
    async () => ({ ...DEFAULTS, ...(await kv().get<SafetySettings>(keys.safety(profileId))).value }),
  );
}

/** Changes some of a member's safety settings; returns them all. */
export async function setSafety(
  profileId: string,
  change: Partial<Pick<SafetySettings, "showToEveryone">> & { noticeSeen?: true },
): Promise<SafetySettings> {
  for (;;) {
    const entry = await kv().get<SafetySettings>(keys.safety(profileId));
    const next: SafetySettings = { ...DEFAULTS, ...entry.value };
    if (change.showToEveryone !== undefined) next.showToEveryone = change.showToEveryone;
    if (change.noticeSeen) next.noticeSeen ??= now();
    const op = kv().atomic().check(entry).set(keys.safety(profileId), next);
    if (await commitForgetting(op, "safety", [profileId])) return next;
  }
}

/** Where a member is, as far as their safety goes: the country of their own last report, and whether it is at risk. */
export async function safetyPlace(profileId: string): Promise<{ country: string | null; atRisk: boolean }> {
  const own = await getOwnPosition(profileId);
  if (!own) return { country: null, atRisk: false };
  const [country, atRisk] = await Promise.all([countryAt(own.lat, own.lon), atRiskAt(own.lat, own.lon)]);
  return { country, atRisk };
}

/**
 * Is a member where being gay is a crime? `safetyPlace`'s answer, read from their own record only
 * when their shown point (as fresh as the nearby queries' index: writes on any instance older
 * than `FRESH_MS` are in it) lies within reach of such a country (`atRiskNear`): their true point
 * lies within a cell of the shown one, so far from every such country the answer is known without
 * a store read. A member with no shown point (hidden, as one at risk is unless they choose to be
 * seen; expired; never reported) is judged by their record as before. Used where it is asked per
 * request: a discovery list's viewer, a viewed profile's owner.
 */
export async function memberAtRisk(profileId: string): Promise<boolean> {
  return !(await clearOfRisk(profileId)) && (await safetyPlace(profileId)).atRisk;
}

/**
 * `memberAtRisk`'s answer when it is known without a store read: true when the member's fresh
 * shown point lies out of reach of every country at risk (they are not at risk then).
 */
async function clearOfRisk(profileId: string): Promise<boolean> {
  const shown = await getFreshShownPosition(profileId);
  return !!shown && !(await atRiskNear(shown.lat, shown.lon, reachOf(positionStore().grid.cellMeters)));
}

/**
 * Is `owner` hidden from `viewer` for safety? When the owner is in a country at risk and did not
 * choose to show themselves to everyone, only members they liked (their favourites) see them. An
 * owner clear of risk by their shown point (most members) is not: their settings are not read. Else
 * their record's place and their settings are read together (one wait for the store).
 */
export async function protectedFrom(owner: string, viewer: string): Promise<boolean> {
  if (owner === viewer || await clearOfRisk(owner)) return false;
  const [place, settings] = await Promise.all([safetyPlace(owner), getSafety(owner)]);
  if (!place.atRisk || settings.showToEveryone) return false;
  return (await getProfileLike(owner, viewer)).likeType !== "LIKE";
}
