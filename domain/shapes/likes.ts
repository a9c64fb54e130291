/** Profile likes and picture likes (spec §3), and the likes lists' items. */

import type { ApiAnswer } from "../contract.ts";

/** The like types that are stored. UNDETERMINED is the default state. */
export const LIKE_TYPES = ["LIKE", "DISLIKE", "UNDETERMINED"] as const;
export type LikeType = typeof LIKE_TYPES[number];

/** What a swipe produces: a stored type, or ERROR for an unknown swipe (never stored). */
export type SwipeLikeType = LikeType | "ERROR";

/** A like of one profile by another (spec §3 ProfileLike). */
export type ProfileLike = ApiAnswer<"PUT /api/profile-like">;

/** A like of one picture (spec §3 ProfilePicLike). */
export type ProfilePicLike = ApiAnswer<"PUT /api/profile-pic-like">;

/** What a list shows of the other member: name and first public picture. */
export type LikeBrief = ApiAnswer<"GET /api/profile-likes/by-liker/:profileId">["items"][number]["other"];

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
