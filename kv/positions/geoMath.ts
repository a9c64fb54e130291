/**
 * The index's distance math: the haversine "a" between nearby points with short Taylor series
 * instead of `Math.sin` and `Math.cos`, and lower bounds of the distance to a box of the grid
 * (never above the true distance, so a search may stop on them).
 */

import { EARTH_RADIUS_M, METERS_PER_DEGREE } from "../../domain/geo.ts";

/** Degrees to radians. */
export const RAD = Math.PI / 180;
/** Lower bounds are shrunk by this factor so rounding never makes them exceed a true distance. */
export const LB_SAFETY = 0.9999;

/**
 * Below this many radians `sinSmall` and `asinSmall` keep a double's precision: the first term
 * they leave out is under 1e-17 of the value.
 */
const SMALL_RAD = 0.01;

/** sin x: its Taylor series to x^7 for small x (no call into `Math.sin`), else `Math.sin`. */
function sinSmall(x: number): number {
  if (x > -SMALL_RAD && x < SMALL_RAD) {
    const x2 = x * x;
    return x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42)));
  }
  return Math.sin(x);
}

/** asin x for x in [0, 1]: its Taylor series to x^7 for small x, else `Math.asin`. */
function asinSmall(x: number): number {
  if (x < SMALL_RAD) {
    const x2 = x * x;
    return x * (1 + x2 * (1 / 6 + x2 * (3 / 40 + x2 * (5 / 112))));
  }
  return Math.asin(x);
}

/**
 * Haversine "a" (metres: `aToMeters`) from a point (lat1, lon1), given the cosine and sine of its
 * latitude, to (lat2, lon2). The second latitude's cosine comes from the first's and the
 * half-difference's sine (cos(l1 + d) = cos l1 cos d - sin l1 sin d, with cos d = 1 - 2 s1^2 and
 * sin d = 2 s1 cos(d / 2)), so a nearby member costs no call to `Math.sin` or `Math.cos`.
 */
export function haversineA(lat1: number, lon1: number, cos1: number, sin1: number, lat2: number, lon2: number): number {
  const s1 = sinSmall((lat2 - lat1) * (RAD / 2));
  const s2 = sinSmall((lon2 - lon1) * (RAD / 2));
  const q = s1 * s1;
  const cos2 = cos1 * (1 - 2 * q) - sin1 * 2 * s1 * Math.sqrt(1 - q);
  return q + cos1 * cos2 * s2 * s2;
}

/** The great-circle distance in metres of a haversine "a". */
export function aToMeters(a: number): number {
  return 2 * EARTH_RADIUS_M * asinSmall(Math.min(1, Math.sqrt(a)));
}

/**
 * Lower bound (metres) of the distance from a point at a latitude with cosine `cosLat` to anything
 * `dLonDeg` or more degrees of longitude away: the distance to that meridian's great circle,
 * R asin(cosLat sin x), is at least R cosLat (x - x^3/6) for x in [0, pi/2] (no trigonometry).
 */
export function lonGapMeters(cosLat: number, dLonDeg: number): number {
  const x = (dLonDeg < 90 ? dLonDeg : 90) * RAD;
  return EARTH_RADIUS_M * cosLat * (x - x * x * x / 6);
}

/** Lower bound (metres) of the distance from a point to any point of a box `size` degrees wide. */
export function boxLowerBound(
  lat: number,
  lon: number,
  cosLat: number,
  latMin: number,
  lonMin: number,
  size: number,
): number {
  let dLat = 0;
  if (lat < latMin) dLat = latMin - lat;
  else if (lat > latMin + size) dLat = lat - (latMin + size);
  let east = lon - lonMin; // lon and lonMin are both in [-180, 180)
  if (east < 0) east += 360;
  const dLon = east <= size ? 0 : Math.min(east - size, 360 - east);
  const latM = dLat * METERS_PER_DEGREE;
  const lonM = dLon > 0 ? lonGapMeters(cosLat, dLon) : 0;
  return (latM > lonM ? latM : lonM) * LB_SAFETY;
}
