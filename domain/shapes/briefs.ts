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
