/**
 * Client data of likes (spec §7): a profile like (`GET/PUT /api/profile-like`, also Block /
 * Ignore through its `blocked` flag), picture likes (`PUT /api/profile-pic-like`) and the four
 * Likes tabs, each a cursor-paged list. Likes are cached 15 minutes (spec §9).
 */

import { type QueryClient, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { call, NAVIGATION } from "./api.ts";
import { whenWriteDelivered, writeThroughOutbox } from "./outbox.ts";
import { queryClient, useServerData } from "./client.tsx";
import { TEXTS, titleText } from "../../domain/texts.ts";
import { invalidateLikeFilteredBriefs } from "./briefs.ts";
import type {
  LikeType,
  PicLikeItem,
  ProfileLike,
  ProfileLikeItem,
  ProfilePicLike,
  SwipeLikeType,
} from "../../domain/shapes/likes.ts";
import type { Page } from "../../domain/shapes/paging.ts";
import type { PicLikeChange, ProfileLikeChange } from "../../domain/shapes/likes.ts";

export type { LikeType, PicLikeItem, ProfileLike, ProfileLikeItem, ProfilePicLike, SwipeLikeType };

/** Likes cache lifetime (spec §9). */
export const LIKES_CACHE_MS = 15 * 60_000;

/** Query keys of likes. */
export const likeKeys = {
  all: ["likes"] as const,
  profileLike: (liker: string, liked: string) => ["likes", "profile", liker, liked] as const,
  picLike: (liker: string, picId: string) => ["likes", "pic", liker, picId] as const,
  list: (tab: LikesTabId, profileId: string) => ["likes", "list", tab, profileId] as const,
  lists: ["likes", "list"] as const,
};

/** The like type of a swipe; ERROR for an unknown swipe (spec §3), which is never sent. */
export function swipeLikeType(direction: string): SwipeLikeType {
  return direction === "right"
    ? "LIKE"
    : direction === "left"
    ? "DISLIKE"
    : direction === "down"
    ? "UNDETERMINED"
    : "ERROR";
}

/** The Like button's next state: LIKE toggles back to UNDETERMINED (Remove Like), anything else to LIKE. */
export function toggled(likeType: LikeType): LikeType {
  return likeType === "LIKE" ? "UNDETERMINED" : "LIKE";
}

// --- the four tabs

/** The Likes tabs of spec §2, in order: path, label, the list call, and the empty and end texts. */
export const LIKES_TABS = [
  {
    id: "profilelikedyou",
    get label() {
      return titleText("Liked You");
    },
    pics: false,
    route: "GET /api/profile-likes/by-liked/:profileId",
    get empty() {
      return TEXTS.likedYouEmpty;
    },
    get end() {
      return TEXTS.thatsAllFolks;
    },
  },
  {
    id: "profilelikedyourpics",
    get label() {
      return titleText("Your Pics");
    },
    pics: true,
    route: "GET /api/profile-pic-likes/by-liked-profileid/:profileId",
    get empty() {
      return TEXTS.yourPicsEmpty;
    },
    get end() {
      return TEXTS.yourPicsEnd;
    },
  },
  {
    id: "youlikedprofile",
    get label() {
      return titleText("You Liked");
    },
    pics: false,
    route: "GET /api/profile-likes/by-liker/:profileId",
    get empty() {
      return TEXTS.youLikedEmpty;
    },
    get end() {
      return TEXTS.youLikedEnd;
    },
  },
  {
    id: "youlikedprofilepics",
    get label() {
      return titleText("Their Pics");
    },
    pics: true,
    route: "GET /api/profile-pic-likes/by-liker-profileid/:profileId",
    get empty() {
      return TEXTS.theirPicsEmpty;
    },
    get end() {
      return TEXTS.theirPicsEnd;
    },
  },
] as const;

export type LikesTab = typeof LIKES_TABS[number];
export type LikesTabId = LikesTab["id"];
/** One item of any tab: a profile like or a picture like, with the other member. */
export type LikesItem = ProfileLikeItem | PicLikeItem;

/** The tab of a path like /likes/youlikedprofile, or undefined. */
export function tabOfPath(path: string): LikesTab | undefined {
  return LIKES_TABS.find((t) => path === `/likes/${t.id}`);
}

/** A tab's list, page by page with the cursor; `first` is the page the server rendered. */
export function useLikesListQuery(tab: LikesTab, profileId: string, first?: Page<LikesItem>) {
  const key = likeKeys.list(tab.id, profileId);
  useServerData(key, first && { pages: [first], pageParams: [""] });
  return useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) =>
      call(tab.route, { profileId }, { query: { cursor: pageParam || undefined } }) as Promise<Page<LikesItem>>,
    initialPageParam: "",
    getNextPageParam: (last: Page<LikesItem>) => last.cursor ?? undefined,
    staleTime: LIKES_CACHE_MS,
    meta: NAVIGATION,
  });
}

// --- a profile like (and blocking)

/*
 * A like this device queued earlier (offline, or on a page left before its answer) and sent from
 * this page shows as stored, not as this page was rendered before it landed. Subscribed as the
 * page loads: the outbox may send it before any button is on screen, and the server's first data
 * does not replace a newer answer (useServerData).
 */
if (typeof document !== "undefined") {
  whenWriteDelivered("PUT /api/profile-like", (like) => {
    if (like) queryClient().setQueryData(likeKeys.profileLike(like.likerProfileId, like.likedProfileId), like);
  });
  whenWriteDelivered("PUT /api/profile-pic-like", (like) => {
    if (like) queryClient().setQueryData(likeKeys.picLike(like.likerProfileId, like.profilePicId), like.likeType);
  });
}

/** The viewer's like of a profile; `initial` is what the server rendered. */
export function useProfileLikeQuery(liker: string, liked: string, initial?: ProfileLike) {
  const key = likeKeys.profileLike(liker, liked);
  useServerData(key, initial);
  return useQuery({
    queryKey: key,
    queryFn: () => call("GET /api/profile-like", {}, { query: { likerProfileId: liker, likedProfileId: liked } }),
    staleTime: LIKES_CACHE_MS,
  });
}

/**
 * Sets a profile like (or blocks): the cache changes at once and is put back if the server
 * refuses it. Without a connection it waits in the device's outbox (outbox.ts) and is sent later.
 */
export function useProfileLikeMutation() {
  const qc = useQueryClient();
  return useMutation({
    // Not paused while offline: the outbox keeps the like meanwhile (null: it waits there).
    networkMode: "always",
    mutationFn: (change: ProfileLikeChange) =>
      writeThroughOutbox("PUT /api/profile-like", { ...change, tsCreated: Date.now() }),
    onMutate: async (change) => {
      const key = likeKeys.profileLike(change.likerProfileId, change.likedProfileId);
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<ProfileLike>(key);
      qc.setQueryData<ProfileLike>(key, {
        likerProfileId: change.likerProfileId,
        likedProfileId: change.likedProfileId,
        likeType: change.likeType,
        blocked: change.blocked ?? before?.blocked ?? false,
        tsCreated: Date.now(),
      });
      return { key, before };
    },
    onError: (_e, _change, ctx) => {
      if (ctx) qc.setQueryData(ctx.key, ctx.before);
    },
    // The stored like reaches the cache through the outbox's delivery (whenWriteDelivered above).
    onSettled: () => invalidateLikeLists(qc),
  });
}

/** Likes changed: the tab lists (and the discovery lists that filter by likes) load again when next shown. */
function invalidateLikeLists(qc: QueryClient) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: likeKeys.lists }),
    invalidateLikeFilteredBriefs(qc),
  ]);
}

// --- picture likes

/** The like type of each of `owner`'s pictures the viewer rated, by picture id. */
async function fetchPicLikes(qc: QueryClient, liker: string, owner: string): Promise<Map<string, LikeType>> {
  const page = await call("GET /api/profile-pic-likes/by-liker-profileid/:profileId", { profileId: liker }, {
    query: { profilePicProfileId: owner },
  });
  const out = new Map(page.items.map((l) => [l.profilePicId, l.likeType]));
  // One call answers for every picture of the owner: fill the siblings' cache too.
  for (const [picId, type] of out) qc.setQueryData(likeKeys.picLike(liker, picId), type);
  return out;
}

/** The viewer's like of one picture (UNDETERMINED when none); `initial` is what the server rendered. */
export function usePicLikeQuery(liker: string, owner: string, picId: string, initial?: LikeType) {
  const qc = useQueryClient();
  const key = likeKeys.picLike(liker, picId);
  useServerData(key, initial);
  return useQuery({
    queryKey: key,
    queryFn: async () => (await fetchPicLikes(qc, liker, owner)).get(picId) ?? "UNDETERMINED",
    staleTime: LIKES_CACHE_MS,
  });
}

/**
 * Rates a picture (spec §4): the local cache takes the new like at once, replacing any earlier
 * like of that picture, and then the call is sent; a failed call puts the old one back.
 */
export function usePicLikeMutation() {
  const qc = useQueryClient();
  return useMutation({
    networkMode: "always",
    mutationFn: (change: PicLikeChange) =>
      writeThroughOutbox("PUT /api/profile-pic-like", { ...change, tsCreated: Date.now() }),
    onMutate: async (change) => {
      const key = likeKeys.picLike(change.likerProfileId, change.profilePicId);
      await qc.cancelQueries({ queryKey: key });
      const before = qc.getQueryData<LikeType>(key);
      qc.setQueryData<LikeType>(key, change.likeType);
      return { key, before };
    },
    onError: (_e, _change, ctx) => {
      if (ctx) qc.setQueryData(ctx.key, ctx.before);
    },
    onSettled: () => invalidateLikeLists(qc),
  });
}
