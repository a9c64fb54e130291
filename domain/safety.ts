/**
 * Safety where being gay is a crime. The countries below criminalise consensual same-sex
 * relations in law or in practice; a member whose shown position lies in one of them is
 * protected: a one-time safety notice, distances shown as "nearby" only, no markers of others on
 * the map, and their own profile hidden from everyone but their favourites unless they choose
 * otherwise. The lookup is offline (@rapideditor/country-coder, about 1 µs a point).
 *
 * Source: ILGA World, "State-Sponsored Homophobia" (database, 2024–2025 updates) and the Human
 * Dignity Trust's "Map of Countries that Criminalise LGBT People" (2025), as compiled for this app
 * on 2026-11-24. Laws change (decriminalisation in Namibia 2024 and Dominica 2024; new or restored
 * criminalisation in Mali 2024, Burkina Faso 2025, Trinidad and Tobago 2025): review this list
 * every quarter. Where the sources differ, or a court case is open, the country is kept: a false
 * "at risk" costs a member some convenience, a false "safe" can cost much more.
 */

import { setNewest } from "./newest.ts";
import { METERS_PER_DEGREE } from "./geo.ts";
import { firstUse } from "./firstUse.ts";

/**
 * The countries' borders (@rapideditor/country-coder), loaded when a place is first asked for
 * rather than with the app (domain/firstUse.ts): building its index of the borders takes a tenth of
 * a second at load, which a process that asks for no place need not pay.
 */
const borders = firstUse(() => import("@rapideditor/country-coder"));

/** ISO 3166-1 alpha-2 codes of the countries that criminalise same-sex relations (see the source above). */
export const CRIMINALISING_COUNTRIES: ReadonlySet<string> = new Set([
  // Africa
  "DZ",
  "BI",
  "BF",
  "CM",
  "TD",
  "KM",
  "EG",
  "ER",
  "SZ",
  "ET",
  "GM",
  "GH",
  "GN",
  "KE",
  "LR",
  "LY",
  "MW",
  "ML",
  "MR",
  "MA",
  "NG",
  "SN",
  "SL",
  "SO",
  "SS",
  "SD",
  "TZ",
  "TG",
  "TN",
  "UG",
  "ZM",
  "ZW",
  // Asia and the Middle East
  "AF",
  "BD",
  "BN",
  "ID",
  "IR",
  "IQ",
  "KW",
  "LB",
  "MY",
  "MV",
  "MM",
  "OM",
  "PK",
  "PS",
  "QA",
  "SA",
  "LK",
  "SY",
  "TM",
  "AE",
  "UZ",
  "YE",
  // The Americas and the Caribbean
  "GD",
  "GY",
  "JM",
  "LC",
  "VC",
  "TT",
  // Oceania
  "KI",
  "PG",
  "WS",
  "SB",
  "TO",
  "TV",
]); // deno-fmt-ignore

/** The country (ISO alpha-2) holding a point, or null at sea or in no country. */
export async function countryAt(lat: number, lon: number): Promise<string | null> {
  // Worked out once per point lately asked for: a member's position is asked for at each view of
  // their profile, and finding its country tests the point against the borders' polygons.
  const point = `${lat},${lon}`;
  let country = countriesByPoint.get(point);
  if (country === undefined) {
    country = (borders.now() ?? await borders.load()).iso1A2Code([lon, lat]) ?? null;
    setNewest(countriesByPoint, point, country, COUNTRIES_KEPT);
  }
  return country;
}
/** The countries of the points asked for lately, newest last. */
const countriesByPoint = new Map<string, string | null>();
const COUNTRIES_KEPT = 20_000;

/** Is a point in a country where same-sex relations are criminalised? */
export async function atRiskAt(lat: number, lon: number): Promise<boolean> {
  const c = await countryAt(lat, lon);
  return c !== null && CRIMINALISING_COUNTRIES.has(c);
}

/**
 * How far from a member's shown point their true point may lie, at least, with room to spare: a
 * privacy cell and its hysteresis (domain/geo.ts) reach 1.2 cells along each axis, 1.2 km at the
 * default cell size; this allows cells of up to about 8 km (`reachOf` takes larger ones).
 */
export const SHOWN_POINT_REACH_M = 10_000;

/** The reach (`atRiskNear`) for a privacy grid of `cellMeters`: a cell and its hysteresis, at least `SHOWN_POINT_REACH_M`. */
export function reachOf(cellMeters: number): number {
  return Math.max(SHOWN_POINT_REACH_M, 1.25 * cellMeters);
}

/**
 * Could a point within `reachM` (along each axis) of (lat, lon) lie in a country where same-sex
 * relations are criminalised? False only when no such country's borders reach into the box of
 * that reach around the point (every country holding a point of the box is among the features the
 * box touches, or their groups): a true point anywhere near a shown point that is not is then not
 * at risk either. True near such a country, across the date line and near the poles (the caller
 * then judges by the true point). Worked out once per point and reach lately asked for; a point in
 * a block clear of risk (`blockClear`) is answered by its block, with no box of its own.
 */
export async function atRiskNear(lat: number, lon: number, reachM = SHOWN_POINT_REACH_M): Promise<boolean> {
  if (await blockClear(lat, lon, reachM)) return false;
  const point = `${lat},${lon},${reachM}`;
  let near = nearRiskByPoint.get(point);
  if (near === undefined) {
    const dLat = reachM / METERS_PER_DEGREE;
    const dLon = dLat / Math.cos(Math.min(89, Math.abs(lat)) * Math.PI / 180);
    near = await boxNearRisk([lon - dLon, lat - dLat, lon + dLon, lat + dLat]);
    setNewest(nearRiskByPoint, point, near, COUNTRIES_KEPT);
  }
  return near;
}

/**
 * Could a point of `box` ([west, south, east, north]) lie in a country at risk? True when such a
 * country's borders reach into it, and for a box across the date line or near a pole.
 */
async function boxNearRisk(box: [number, number, number, number]): Promise<boolean> {
  return !(Math.max(Math.abs(box[1]), Math.abs(box[3])) < 85 && box[0] > -180 && box[2] < 180) ||
    (borders.now() ?? await borders.load()).featuresContaining(box).some((f) =>
      (f.properties.iso1A2 !== undefined && CRIMINALISING_COUNTRIES.has(f.properties.iso1A2)) ||
      (f.properties.country !== undefined && CRIMINALISING_COUNTRIES.has(f.properties.country))
    );
}

/** The side of a block of `blockClear`, in degrees (about 11 km of latitude). */
const RISK_BLOCK_DEG = 0.1;

/**
 * Is every point of (lat, lon)'s block of the degree grid (`RISK_BLOCK_DEG` a side) clear of risk
 * within `reachM`: does the block's box, grown by the reach (along longitude as far as at the
 * block's edge nearer a pole), touch no country at risk? Then the box of any point in it, which it
 * holds, touches none either. Members' shown points are each their own (a point's box is worked
 * out once per point), while the blocks of a city are few: a member first seen there is answered
 * without a box of their own. A block that is not clear says nothing (the point's own box is
 * judged). Worked out once per block and reach lately asked for.
 */
async function blockClear(lat: number, lon: number, reachM: number): Promise<boolean> {
  const i = Math.floor(lat / RISK_BLOCK_DEG), j = Math.floor(lon / RISK_BLOCK_DEG);
  const block = `${i},${j},${reachM}`;
  let clear = clearByBlock.get(block);
  if (clear === undefined) {
    // A thousandth of a degree more on every side: a point on the block's edge, rounded either way, is inside.
    const dLat = reachM / METERS_PER_DEGREE + 1e-3;
    const south = i * RISK_BLOCK_DEG - dLat, north = (i + 1) * RISK_BLOCK_DEG + dLat;
    const dLon = dLat / Math.cos(Math.min(89, Math.max(Math.abs(south), Math.abs(north))) * Math.PI / 180);
    clear = !(await boxNearRisk([j * RISK_BLOCK_DEG - dLon, south, (j + 1) * RISK_BLOCK_DEG + dLon, north]));
    setNewest(clearByBlock, block, clear, COUNTRIES_KEPT);
  }
  return clear;
}
/** `blockClear`'s answers for the blocks asked for lately, newest last. */
const clearByBlock = new Map<string, boolean>();

/** `atRiskNear`'s answers for the points asked for lately, newest last. */
const nearRiskByPoint = new Map<string, boolean>();
