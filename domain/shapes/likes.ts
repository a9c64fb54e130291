/** Profile likes and picture likes (spec §3), and the likes lists' items. */

/** The like types that are stored. UNDETERMINED is the default state. */
export const LIKE_TYPES = ["LIKE", "DISLIKE", "UNDETERMINED"] as const;
export type LikeType = typeof LIKE_TYPES[number];

/** What a swipe produces: a stored type, or ERROR for an unknown swipe (never stored). */
export type SwipeLikeType = LikeType | "ERROR";

/** A like of one profile by another (spec §3 ProfileLike). */
export interface ProfileLike {
  likerProfileId: string;
  likedProfileId: string;
  likeType: LikeType;
  blocked: boolean;
  /** When the like took its current type; 0 for the default (nothing stored). */
  tsCreated: number;
}

/** A like of one picture (spec §3 ProfilePicLike). */
export interface ProfilePicLike {
  likerProfileId: string;
  profilePicId: string;
  /** The profile that owns the picture. */
  profilePicProfileId: string;
  likeType: LikeType;
  tsCreated: number;
}

/** What a list shows of the other member: name and first public picture. */
export interface LikeBrief {
  profileId: string;
  profileName: string;
  profilePicId: string | null;
}

/** A profile like in a list, with the other member (the liked one for given, the liker for received). */
export type ProfileLikeItem = ProfileLike & { other: LikeBrief };

/** A picture like in a list, with the other member (the owner for given, the liker for received). */
export type PicLikeItem = ProfilePicLike & { other: LikeBrief };

/** What `PUT /api/profile-like` takes (the server's clock sets the time). */
export interface ProfileLikeChange {
  likerProfileId: string;
  likedProfileId: string;
  likeType: LikeType;
  /** Left out: the stored flag stays. */
  blocked?: boolean;
}

/** What `PUT /api/profile-pic-like` takes (the server's clock sets the time). */
export interface PicLikeChange {
  likerProfileId: string;
  profilePicId: string;
  profilePicProfileId: string;
  likeType: LikeType;
}
