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

/** A number as JSON writes it: null for NaN and the infinities. */
const jsonNumber = (n: number | null | undefined) => typeof n === "number" && Number.isFinite(n) ? String(n) : "null";

/**
 * A brief's member part (from `profileId` to `profilePicIds`, and `isNew` and `verified`), as JSON,
 * kept by member while it is the same: every answer that lists a member joins the kept text with
 * their place, instead of writing the same member out again for every viewer and every page.
 */
interface KeptBrief {
  of: ProfileBrief;
  head: string;
  tail: string;
}
const keptBriefs = new Map<string, KeptBrief>();
/** Members kept at most (a city's members in every view): past it the oldest kept go. */
const KEPT_BRIEFS_MAX = 100_000;

/** Is `b`'s member part that of `k`? The arrays are a profile's own (a changed profile has new ones). */
function samePart(k: ProfileBrief, b: ProfileBrief): boolean {
  return k.profileName === b.profileName && k.profileAge === b.profileAge && k.profileChars === b.profileChars &&
    k.profileWeight === b.profileWeight && k.profileHeight === b.profileHeight &&
    k.profilePicIds === b.profilePicIds && k.isNew === b.isNew && k.verified === b.verified;
}

/** `JSON.stringify(b)`, the member part from the kept text when it is the same. */
export function briefJson(b: ProfileBrief): string {
  let k = keptBriefs.get(b.profileId);
  if (!k || !samePart(k.of, b)) {
    const { profileId, profileName, profileAge, profileChars, profileWeight, profileHeight, profilePicIds } = b;
    const head = JSON.stringify({
      profileId,
      profileName,
      profileAge,
      profileChars,
      profileWeight,
      profileHeight,
      profilePicIds,
    });
    k = {
      of: b,
      head: head.slice(0, -1),
      tail: `${JSON.stringify({ isNew: b.isNew, verified: b.verified }).slice(1)}`,
    };
    if (keptBriefs.size >= KEPT_BRIEFS_MAX) keptBriefs.delete(keptBriefs.keys().next().value!);
    keptBriefs.set(b.profileId, k);
  }
  return `${k.head},"lat":${jsonNumber(b.lat)},"lon":${jsonNumber(b.lon)},"distanceMeters":${
    jsonNumber(b.distanceMeters)
  },"tsUpdated":${jsonNumber(b.tsUpdated)},${k.tail}`;
}

/**
 * `JSON.stringify(page)` for a page of briefs as kv/briefs.ts makes them (the keys in the order of
 * `ProfileBrief`, every one present), its members' parts kept (`briefJson`).
 */
export function briefsPageJson(page: BriefsPage): string {
  const { items, ...rest } = page;
  const after = JSON.stringify(rest);
  return `{"items":[${items.map(briefJson).join(",")}]${after === "{}" ? "}" : `,${after.slice(1)}`}`;
}
