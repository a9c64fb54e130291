/**
 * How discovery shows a member: distance (feet under a mile, else miles with 2 decimals, spec
 * §2 Tiles), the name cut to 12 characters (spec §9), and the picture address (spec §7). Shared
 * by the server render and the islands, so both print the same text.
 */

import { TEXTS } from "./texts.ts";
import { locale } from "./i18n.ts";

/** Metres in one international mile. */
export const METERS_PER_MILE = 1609.344;
/** Metres in one international foot. */
export const METERS_PER_FOOT = 0.3048;
/** Profile names are shown with at most this many characters in lists (spec §9). */
export const NAME_DISPLAY_CHARS = 12;

/**
 * "850 ft" under one mile, else "1.25 mi" (spec §2 Tiles). In Spanish and Portuguese, metric in the
 * locale's writing: "850 m" under a kilometre, else "1,25 km". A missing or bad distance gives "".
 */
export function formatDistance(meters: number | null | undefined): string {
  if (typeof meters !== "number" || !Number.isFinite(meters) || meters < 0) return "";
  const l = locale();
  if (l !== "en") {
    const m = Math.round(meters);
    if (m < 1000) return `${m} m`;
    return `${(meters / 1000).toLocaleString(l, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} km`;
  }
  if (meters < METERS_PER_MILE) {
    // Rounding may reach 5280 ft just under a mile: show the mile then.
    const feet = Math.round(meters / METERS_PER_FOOT);
    if (feet < 5280) return `${feet} ft`;
  }
  return `${(meters / METERS_PER_MILE).toFixed(2)} mi`;
}

/**
 * The distance a list shows: `formatDistance`, or "nearby" when none is sent (a viewer where being
 * gay is a crime sees no distances: domain/safety.ts).
 */
export function distanceText(meters: number | null | undefined): string {
  return formatDistance(meters) || TEXTS.nearby;
}

/** The first 12 characters of a name (whole code points, so an emoji is never cut in half). */
export function shortName(name: string): string {
  const chars = Array.from(name ?? "");
  return chars.length <= NAME_DISPLAY_CHARS ? chars.join("") : chars.slice(0, NAME_DISPLAY_CHARS).join("");
}

/** Picture widths the server renders (spec §9). */
export type PicScale = 256 | 512 | 1024 | 2048;

/**
 * The address of a public picture at a width; `nsfw` gives the unblurred route, for members who
 * chose Showing NSFW (design.md: the plain route serves NSFW pictures blurred).
 */
export function profilePicUrl(picId: string, scale: PicScale, nsfw = false): string {
  return `/api/profile-pic/${nsfw ? "nsfw/" : ""}${encodeURIComponent(picId)}?scale_x=${scale}`;
}
