/** Members as the map and the lists show them (spec §3 ProfileBrief), and the lists' like filters. */

/** A member as the map and the lists show them (spec §3 ProfileBrief), at their shown position. */
export interface ProfileBrief {
  profileId: string;
  profileName: string;
  profileAge: number | null;
  profileChars: string[];
  profileWeight: string;
  profileHeight: string;
  /** Public pictures only, in the member's order. */
  profilePicIds: string[];
  /** The shown position (never the reported one). */
  lat: number;
  lon: number;
  /** From the viewer's shown position to this member's shown position; null for a viewer where being gay is a crime (`nearbyOnly`). */
  distanceMeters: number | null;
  tsUpdated: number;
  /** A member for less than `NEW_MEMBER_DAYS` (only this, never when they joined). */
  isNew: boolean;
  /** 3 2 1 Identify: the community compared a live selfie with their first picture (`isVerified`). */
  verified: boolean;
}

/** One page of briefs, nearest first. */
export interface BriefsPage {
  items: ProfileBrief[];
  page: number;
  size: number;
  hasMore: boolean;
  /** Set for a viewer where being gay is a crime: no distance is sent, the screens say "nearby". */
  nearbyOnly?: true;
}

/** The like filters of spec §5, as query values. */
export const LIKE_FILTERS = ["likedMyProfile", "likedMyPics", "iLikedProfile", "iLikedPics"] as const;
export type LikeFilter = typeof LIKE_FILTERS[number];

/** At this many members in a map view the map shows none (spec §9 profile cap; spec §2: "Too many profiles to display."). */
export const MAP_PROFILE_CAP = 800;

/**
 * A member as a map marker, in the map's compact answer (`GET /api/profile-briefs/map`): what a
 * marker shows and nothing more, as a row (in the order of its labels here) rather than an object
 * that repeats its keys 800 times. The first public picture only.
 */
export type MapRow = [
  profileId: string,
  profileName: string,
  lat: number,
  lon: number,
  profilePicId: string | null,
  profileChars: string[],
  verified: boolean,
];

/** The members in a map view, nearest to the viewer first; none when there are `MAP_PROFILE_CAP` or more. */
export interface MapView {
  rows: MapRow[];
  /** `MAP_PROFILE_CAP` or more members are in the view: `rows` is empty and the map says so. */
  tooMany: boolean;
}

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
