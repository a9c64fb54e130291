/**
 * Where a member who has not chosen where they are starts (spec §9): a random point near the
 * first default city. The location reporter (islands/queries/location.ts) draws it in the browser,
 * and the server draws one when onboarding ends without any point (routes/pages/welcome.tsx).
 * Kept apart from domain/geo.ts so the map's bundle takes these few lines only.
 */

/** The first default city. */
export const DEFAULT_CITY = { name: "Phoenix", lat: 33.4484, lon: -112.074 } as const;
/** The spread of the random default point around `DEFAULT_CITY`, in degrees. */
export const RANDOM_SPREAD_DEG = 0.05;

/** A random point within `RANDOM_SPREAD_DEG` of the default city. */
export function randomDefaultPoint(rand: () => number = Math.random): { lat: number; lon: number } {
  return {
    lat: DEFAULT_CITY.lat + (rand() * 2 - 1) * RANDOM_SPREAD_DEG,
    lon: DEFAULT_CITY.lon + (rand() * 2 - 1) * RANDOM_SPREAD_DEG,
  };
}
