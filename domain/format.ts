/**
 * How discovery shows a member: distance (feet under a mile, else miles with 2 decimals, spec
 * §2 Tiles), the name cut to 12 characters (spec §9), and the picture address (spec §7). Shared
 * by the server render and the islands, so both print the same text.
 */

import { TEXTS } from "./texts.ts";
import { intlLocale, locale, numberFormat } from "./i18n.ts";

/** Metres in one international mile. */
export const METERS_PER_MILE = 1609.344;
/** Metres in one international foot. */
export const METERS_PER_FOOT = 0.3048;
/** Profile names are shown with at most this many characters in lists (spec §9). */
export const NAME_DISPLAY_CHARS = 12;

/** A length in a unit, as the language writes it (Intl: "850 ft", "1,25 km", "1.25 كم"). */
function length(value: number, unit: "foot" | "mile" | "meter" | "kilometer", digits: number): string {
  return numberFormat(intlLocale(), {
    style: "unit",
    unit,
    unitDisplay: "short",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
    // Feet and metres below a mile or kilometre: a plain number, as the spec writes "850 ft".
    useGrouping: digits > 0,
    // Rounded as toFixed does (on the binary value), before Intl writes it.
  }).format(Number(value.toFixed(digits)));
}

/**
 * The units of the language's convention: English (the spec's, American) in feet and miles,
 * every other language in metres and kilometres.
 */
export function unitsOf(l = locale()): "imperial" | "metric" {
  return l === "en" ? "imperial" : "metric";
}

/**
 * "850 ft" under one mile, else "1.25 mi" (spec §2 Tiles); in metric, "850 m" under a kilometre,
 * else "1,25 km", each written by Intl in the language in use. A missing or bad distance gives "".
 */
export function formatDistance(meters: number | null | undefined): string {
  if (typeof meters !== "number" || !Number.isFinite(meters) || meters < 0) return "";
  if (unitsOf() === "metric") {
    const m = Math.round(meters);
    if (m < 1000) return length(m, "meter", 0);
    return length(meters / 1000, "kilometer", 2);
  }
  if (meters < METERS_PER_MILE) {
    // Rounding may reach 5280 ft just under a mile: show the mile then.
    const feet = Math.round(meters / METERS_PER_FOOT);
    if (feet < 5280) return length(feet, "foot", 0);
  }
  return length(meters / METERS_PER_MILE, "mile", 2);
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

/** The address of a member's profile page; `section` opens it at one ("chat": the conversation). */
export function profileUrl(profileId: string, section?: "chat"): string {
  return `/profile/${encodeURIComponent(profileId)}${section ? `#${section}` : ""}`;
}
