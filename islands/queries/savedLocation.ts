/**
 * What this device saved of the member's own location (islands/queries/location.ts keeps it up
 * to date), read without React: the map's first tiles (islands/MapPreview.enhance.ts) start from
 * it before the reporter runs.
 */

/** How the member's location is chosen. */
export type LocationType = "RANDOM" | "OVERRIDE" | "DEVICE_GPS";

/** Local storage key of the last location. */
export const LOCATION_STORAGE_KEY = "last-location";

/** The saved location: whose it is, how it was chosen, where, and whether it is hidden. */
export interface SavedLocation {
  profileId: string;
  type: LocationType;
  lat: number;
  lon: number;
  hide: boolean;
}

/** A finite point on the globe. */
export const validPoint = (lat: unknown, lon: unknown): boolean =>
  typeof lat === "number" && typeof lon === "number" && Number.isFinite(lat) && Number.isFinite(lon) &&
  Math.abs(lat) <= 90 && Math.abs(lon) <= 180;

/** The location this device saved for `profileId`, or null (none, another member's, or unreadable). */
export function readSaved(profileId: string): SavedLocation | null {
  try {
    const s = JSON.parse(localStorage.getItem(LOCATION_STORAGE_KEY) ?? "null") as SavedLocation | null;
    if (!s || s.profileId !== profileId || !validPoint(s.lat, s.lon)) return null;
    if (!["RANDOM", "OVERRIDE", "DEVICE_GPS"].includes(s.type)) return null;
    return { profileId, type: s.type, lat: s.lat, lon: s.lon, hide: s.hide === true };
  } catch {
    return null;
  }
}
