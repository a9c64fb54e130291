/** Members as the map and the lists show them (spec §3 ProfileBrief), and the lists' like filters. */

import type { ApiAnswer } from "../contract.ts";
import { BRIEF_FIELDS } from "../briefFields.ts";

/** A member as the map and the lists show them (spec §3 ProfileBrief), at their shown position. */
export type ProfileBrief = ApiAnswer<"GET /api/profile-briefs/nearest">["items"][number];

/** One page of briefs, nearest first. */
export type BriefsPage = ApiAnswer<"GET /api/profile-briefs/nearest">;

/** The like filters of spec §5, as query values. */
export const LIKE_FILTERS = ["likedMyProfile", "likedMyPics", "iLikedProfile", "iLikedPics"] as const;
export type LikeFilter = typeof LIKE_FILTERS[number];

/** At this many members in a map view the map shows none (spec §9 profile cap; spec §2: "Too many profiles to display."). */
export const MAP_PROFILE_CAP = 800;

/** Largest page size a discovery query accepts. */
export const MAX_BRIEFS_SIZE = 2000;

/**
 * A member as a map marker, in the map's compact answer (`GET /api/profile-briefs/map`): what a
 * marker shows and nothing more, as a row (in the order of its labels here) rather than an object
 * that repeats its keys 800 times. The first public picture only.
 */
export type MapRow = MapView["rows"][number];

/** The members in a map view, nearest to the viewer first; none when there are `MAP_PROFILE_CAP` or more. */
export type MapView = ApiAnswer<"GET /api/profile-briefs/map">;

/** What a map marker shows of a member: a brief holds it, as does a profile at its shown position. */
export type MarkerFields = Pick<
  ProfileBrief,
  "profileId" | "profileName" | "lat" | "lon" | "profilePicIds" | "profileChars" | "verified"
>;

/** A member's row in the map's compact answer. */
export function mapRowOf(m: MarkerFields): MapRow {
  return [m.profileId, m.profileName, m.lat, m.lon, m.profilePicIds[0] ?? null, m.profileChars, m.verified];
}

/** A map view's answer from a page of briefs asked with size `MAP_PROFILE_CAP`. */
export function mapViewOf(page: BriefsPage): MapView {
  if (page.items.length >= MAP_PROFILE_CAP) return { rows: [], tooMany: true };
  return { rows: page.items.map(mapRowOf), tooMany: false };
}

/** A page of briefs as rows (`GET /api/profile-briefs/by-bounds?form=rows`). */
export type BriefsRows = Extract<ApiAnswer<"GET /api/profile-briefs/by-bounds">, { rows: unknown }>;

/**
 * `page` as rows: the field names once (`BRIEF_FIELDS`), each brief as its values in that order;
 * the same members and figures as the page's objects, without their keys repeated for each.
 */
export function briefRowsOf(page: BriefsPage): BriefsRows {
  const { items, ...rest } = page;
  return {
    fields: [...BRIEF_FIELDS],
    rows: items.map((b) => [
      b.profileId,
      b.profileName,
      b.profileAge,
      b.profileChars,
      b.profileWeight,
      b.profileHeight,
      b.profilePicIds,
      b.lat,
      b.lon,
      b.distanceMeters,
      b.tsUpdated,
      b.isNew,
      b.verified,
    ]),
    ...rest,
  };
}
