/**
 * Profile likes and picture likes (spec §3, §4): one record per liker and target, written in one
 * atomic with its two time-ordered indexes (given, received). No count is kept: nothing shows one,
 * and each like's atomic is smaller without. A profile like's index rows hold only what their key
 * does not say (when, blocked), and its record when its member was last told of it: each like then
 * writes three small rows and, once a day, its notification.
 * A profile like also carries the `blocked` flag, whose symmetric index lives in kv/blocks.ts.
 */

import { addNotification, LIKE_NOTIFY_EVERY_MS, notificationOf, oncePerDayNotification } from "./notifications.ts";
import { commitGrouped } from "./groupCommit.ts";
import { countHitsOp, type ReadHit } from "./ratelimit.ts";
import { kv, maxChecksPerAtomic } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import { getProfile } from "./profiles.ts";
import { blockedSet, blockIndexOps, blocksChangedHere, hasBlocked, listBlocked } from "./blocks.ts";
import { canViewPicture, getPic } from "./pictures.ts";
import { pushReachable } from "./push.ts";
import { pageOf, type PageRequest } from "./paging.ts";
import {
  type LikeBrief,
  type LikeType,
  type PicLikeItem,
  type ProfileLike,
  type ProfileLikeItem,
  type ProfilePicLike,
} from "../domain/shapes/likes.ts";
import type { Profile } from "../domain/shapes/profiles.ts";
import type { Page } from "../domain/shapes/paging.ts";
import { setNewest } from "../domain/newest.ts";

/** Page sizes of spec §9: likes lists 20, picture likes 30. */
export const LIKES_PAGE = 20;
export const PIC_LIKES_PAGE = 30;

/**
 * The stored records add the index position (`seq`, time-ordered) and, for a profile like, when
 * the liked member was last told of it (`toldAt`); neither is ever sent.
 */
type Stored<T> = T & { seq: string; toldAt?: number };

function strip<T>(stored: Stored<T>): T {
  const { seq: _, toldAt: __, ...rest } = stored;
  return rest as T;
}

/**
 * A profile like's row in a list (given, received): what its key does not say, when the like was
 * made and whether it is blocked, as one number (`tsCreated * 2 + blocked`, a `Deno.KvU64`: stored
 * without the value serializer, in 8 bytes). Rows written before as `{tsCreated, blocked}`, or
 * holding the whole record, read the same.
 */
export type ListedLike = Deno.KvU64 | { tsCreated: number; blocked: boolean };

/** The list row of a like made at `tsCreated` (ms since the epoch). */
export function listRow(tsCreated: number, blocked: boolean): ListedLike {
  // A time one number cannot hold whole (a clock a test set oddly) is written as before.
  if (!Number.isSafeInteger(tsCreated) || tsCreated < 0) return { tsCreated, blocked };
  return new Deno.KvU64(BigInt(tsCreated) * 2n + (blocked ? 1n : 0n));
}

/** What a list row of a profile like says (`listRow`), in any of its stored forms. */
export function listedLikeOf(value: ListedLike): { tsCreated: number; blocked: boolean } {
  if (!(value instanceof Deno.KvU64)) return value;
  return { tsCreated: Number(value.value >> 1n), blocked: (value.value & 1n) === 1n };
}

/** The profile like a list row stands for: the key says who, the type and its place in the list. */
function likeOfRow(e: Deno.KvEntry<ListedLike>, list: "given" | "received"): ProfileLike {
  const [, member, likeType, , other] = e.key as string[];
  const [likerProfileId, likedProfileId] = list === "given" ? [member, other] : [other, member];
  const { blocked, tsCreated } = listedLikeOf(e.value);
  return { likerProfileId, likedProfileId, likeType: likeType as LikeType, blocked, tsCreated };
}

/** The default like when none is stored: UNDETERMINED, not blocked. */
function defaultLike(likerProfileId: string, likedProfileId: string): ProfileLike {
  return { likerProfileId, likedProfileId, likeType: "UNDETERMINED", blocked: false, tsCreated: 0 };
}

/** The like of `liker` for `liked`, or the default. */
export async function getProfileLike(liker: string, liked: string): Promise<ProfileLike> {
  const v = (await kv().get<Stored<ProfileLike>>(keys.profileLike(liker, liked))).value;
  return v ? strip(v) : defaultLike(liker, liked);
}

/** The members `blocker` blocked, with their names, for the block list in Account settings. */
export async function blockList(
  blocker: string,
): Promise<{ profileId: string; profileName: string; tsBlocked: number }[]> {
  const out = [];
  for (const b of await listBlocked(blocker)) {
    const p = await getProfile(b.profileId);
    if (p) out.push({ ...b, profileName: p.profilename });
  }
  return out;
}

/** Lifts a block, keeping the like type that was stored with it; false if there was none. */
export async function unblock(blocker: string, blocked: string): Promise<boolean> {
  if (!(await hasBlocked(blocker, blocked))) return false;
  const like = await getProfileLike(blocker, blocked);
  await putProfileLike(blocker, blocked, like.likeType, false);
  return true;
}

/** The reads a like of `liker` for `liked` begins with (`profileLikeReads`). */
export interface ProfileLikeReads {
  /** The stored like (its record says when its member was last told of it too). */
  entry: Promise<Deno.KvEntryMaybe<Stored<ProfileLike>>>;
  /** Whether the liked member has a device to push to, when the like may tell them. */
  reachable?: Promise<boolean>;
}

/**
 * Begins the reads `putProfileLike` starts from: an API call begins them beside its checks of who
 * may like whom (one wait for the store, not two) and hands them on; nothing read is answered
 * unless the checks pass.
 */
export function profileLikeReads(
  liker: string,
  liked: string,
  likeType: LikeType,
  blocked?: boolean,
): ProfileLikeReads {
  const entry = kv().get<Stored<ProfileLike>>(keys.profileLike(liker, liked));
  entry.catch(() => {}); // a like refused by its checks leaves it unread
  // Asked once (beside the like's read, when the like may tell them), not again on a retry.
  const reachable = likeType === "LIKE" && blocked !== true ? pushReachable(liked) : undefined;
  reachable?.catch(() => {}); // a like that tells no one leaves it unread
  return { entry, ...(reachable ? { reachable } : {}) };
}

/**
 * Sets the like of `liker` for `liked`. `blocked` left out keeps the stored flag. A like equal to
 * the stored one writes nothing (`changed` false). A new type moves the like to the top of both
 * lists. `first`, when given, is called once with the type stored before, after the store was read
 * and before anything is written (a throw writes nothing): the API counts a new LIKE there, without
 * reading the like a second time. It may answer rate-limit counts read before (kv/ratelimit.ts):
 * they are counted in the like's own commit, checked against what was read; a commit that
 * conflicts calls `first` again on its new read.
 */
export async function putProfileLike(
  liker: string,
  liked: string,
  likeType: LikeType,
  blocked?: boolean,
  first?: (stored: LikeType) => Promise<readonly ReadHit[] | void>,
  begun: ProfileLikeReads = profileLikeReads(liker, liked, likeType, blocked),
): Promise<{ like: ProfileLike; changed: boolean }> {
  const key = keys.profileLike(liker, liked);
  let reachableRead = begun.reachable;
  for (let attempt = 0; attempt < 10; attempt++) {
    // The record says when its member was last told of it too: one read (the first begun with the caller's checks).
    const entry = attempt === 0 ? await begun.entry : await kv().get<Stored<ProfileLike>>(key);
    const old = entry.value;
    const hits = (await first?.(old?.likeType ?? "UNDETERMINED")) ?? [];
    const nextBlocked = blocked ?? old?.blocked ?? false;
    if (old && old.likeType === likeType && old.blocked === nextBlocked) return { like: strip(old), changed: false };
    const t = now();
    const typeChanged = !old || old.likeType !== likeType;
    // A new like tells the member, discreetly (it may show on a lock screen), once a day per liker:
    // who is on the Likes page.
    const tell = typeChanged && likeType === "LIKE" && !nextBlocked &&
      !(old?.toldAt !== undefined && t - old.toldAt < LIKE_NOTIFY_EVERY_MS);
    const next: Stored<ProfileLike> = {
      likerProfileId: liker,
      likedProfileId: liked,
      likeType,
      blocked: nextBlocked,
      tsCreated: typeChanged ? t : old.tsCreated,
      seq: typeChanged ? newId(t) : old.seq,
    };
    const toldAt = tell ? t : old?.toldAt;
    const push = tell && await (reachableRead ??= pushReachable(liked));
    if (toldAt !== undefined) next.toldAt = toldAt;
    const row = listRow(next.tsCreated, nextBlocked);
    // Committed with other likes made meanwhile (kv/groupCommit.ts): a like's commit is mostly its
    // transaction's fixed cost.
    const written = await commitGrouped([key, ...hits.map((h) => h.entry.key)], (op) => {
      op.check(entry).set(key, next);
      countHitsOp(op, hits);
      if (old && typeChanged) {
        op.delete(keys.profileLikeByLiker(liker, old.likeType, old.seq, liked))
          .delete(keys.profileLikeByLiked(liked, old.likeType, old.seq, liker));
      }
      // A list is one range read: its rows and their keys are the likes.
      op.set(keys.profileLikeByLiker(liker, likeType, next.seq, liked), row)
        .set(keys.profileLikeByLiked(liked, likeType, next.seq, liker), row);
      if ((old?.blocked ?? false) !== nextBlocked) blockIndexOps(op, liker, liked, nextBlocked, t);
      if (tell) addNotification(op, liked, notificationOf("profileLiked", "/likes/profilelikedyou"), { push });
    });
    if (written) {
      if (typeChanged) forgetDeckRating(liker, liked);
      if ((old?.blocked ?? false) !== nextBlocked) blocksChangedHere(liker, liked);
      return { like: strip(next), changed: true };
    }
  }
  throw new Error("profile like kept conflicting");
}

/** The likes of `liker` for each picture in `picIds` that has one. */
export async function getPicLikes(liker: string, picIds: readonly string[]): Promise<ProfilePicLike[]> {
  const out: ProfilePicLike[] = [];
  for (let i = 0; i < picIds.length; i += 10) {
    const entries = await kv().getMany<Stored<ProfilePicLike>[]>(
      picIds.slice(i, i + 10).map((id) => keys.picLike(liker, id)),
    );
    for (const e of entries) if (e.value) out.push(strip(e.value));
  }
  return out;
}

/**
 * Sets the like of `liker` for picture `picId` of profile `owner`; the same like again writes nothing.
 * `alongside`, when given, is asked on every attempt for writes to add to the like's atomic (the
 * Rating Game's credit); it is not asked when nothing is written.
 */
export async function putPicLike(
  liker: string,
  owner: string,
  picId: string,
  likeType: LikeType,
  alongside?: () => Promise<(op: Deno.AtomicOperation) => void>,
): Promise<{ like: ProfilePicLike; changed: boolean }> {
  const key = keys.picLike(liker, picId);
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv().get<Stored<ProfilePicLike>>(key);
    const old = entry.value;
    if (old && old.likeType === likeType) return { like: strip(old), changed: false };
    const extra = alongside ? await alongside() : null;
    // Once a day per liker, however many pictures they like.
    const tell = likeType === "LIKE"
      ? await oncePerDayNotification(
        owner,
        "pic-like",
        liker,
        notificationOf("picLiked", "/likes/profilelikedyourpics"),
      )
      : null;
    const t = now();
    const next: Stored<ProfilePicLike> = {
      likerProfileId: liker,
      profilePicId: picId,
      profilePicProfileId: owner,
      likeType,
      tsCreated: t,
      seq: newId(t),
    };
    const op = kv().atomic().check(entry).set(key, next)
      .set(keys.picLikeByLiker(liker, likeType, next.seq, picId), next)
      .set(keys.picLikeByOwner(owner, likeType, next.seq, liker, picId), next);
    if (old) {
      op.delete(keys.picLikeByLiker(liker, old.likeType, old.seq, picId))
        .delete(keys.picLikeByOwner(old.profilePicProfileId, old.likeType, old.seq, liker, picId));
    }
    tell?.(op);
    extra?.(op);
    if ((await op.commit()).ok) return { like: strip(next), changed: true };
  }
  throw new Error("picture like kept conflicting");
}

/** May `viewer` see picture `picId` of `owner`: it is the owner's, and public, or private with a grant. */
export async function picVisibleTo(viewer: string, owner: Profile, picId: string): Promise<boolean> {
  const pic = await getPic(picId);
  return !!pic && pic.profileId === owner.id && await canViewPicture(pic, owner, viewer);
}

/** The pictures of `owner` that `viewer` may see, public ones first, in their order. */
export async function visiblePicIds(viewer: string, owner: Profile): Promise<string[]> {
  const out: string[] = [];
  for (const id of [...owner.profilePicIds, ...owner.profilePicIdsPrivate]) {
    if (await picVisibleTo(viewer, owner, id)) out.push(id);
  }
  return out;
}

/** The other member as a list shows them, or null if their profile is gone. */
async function briefOf(profileId: string): Promise<LikeBrief | null> {
  const p = await getProfile(profileId);
  return p && { profileId: p.id, profileName: p.profilename, profilePicId: p.profilePicIds[0] ?? null };
}

/** The profile likes of one type `liker` gave, newest first, without blocked members. */
export async function listLikesGiven(liker: string, type: LikeType, req: PageRequest): Promise<Page<ProfileLikeItem>> {
  const hidden = await blockedSet(liker);
  return pageOf<ListedLike, ProfileLikeItem>(keys.profileLikesByLiker(liker, type), req, async (e) => {
    const like = likeOfRow(e, "given");
    if (hidden.has(like.likedProfileId)) return null;
    const other = await briefOf(like.likedProfileId);
    return other && { ...like, other };
  });
}

/** The profile likes of one type `liked` received, newest first, without blocked members. */
export async function listLikesReceived(
  liked: string,
  type: LikeType,
  req: PageRequest,
): Promise<Page<ProfileLikeItem>> {
  const hidden = await blockedSet(liked);
  return pageOf<ListedLike, ProfileLikeItem>(keys.profileLikesByLiked(liked, type), req, async (e) => {
    const like = likeOfRow(e, "received");
    if (hidden.has(like.likerProfileId)) return null;
    const other = await briefOf(like.likerProfileId);
    return other && { ...like, other };
  });
}

/** The picture likes of one type `liker` gave, newest first, for pictures they may still see. */
export async function listPicLikesGiven(liker: string, type: LikeType, req: PageRequest): Promise<Page<PicLikeItem>> {
  const hidden = await blockedSet(liker);
  return pageOf<Stored<ProfilePicLike>, PicLikeItem>(keys.picLikesByLiker(liker, type), req, async ({ value }) => {
    if (hidden.has(value.profilePicProfileId)) return null;
    const owner = await getProfile(value.profilePicProfileId);
    if (!owner || !(await picVisibleTo(liker, owner, value.profilePicId))) return null;
    const other = { profileId: owner.id, profileName: owner.profilename, profilePicId: owner.profilePicIds[0] ?? null };
    return { ...strip(value), other };
  });
}

/** The likes of one type on `owner`'s pictures, newest first, for pictures they still have. */
export async function listPicLikesReceived(
  owner: string,
  type: LikeType,
  req: PageRequest,
): Promise<Page<PicLikeItem>> {
  const [hidden, profile] = await Promise.all([blockedSet(owner), getProfile(owner)]);
  return pageOf<Stored<ProfilePicLike>, PicLikeItem>(keys.picLikesByOwner(owner, type), req, async ({ value }) => {
    if (hidden.has(value.likerProfileId) || !profile || !(await picVisibleTo(owner, profile, value.profilePicId))) {
      return null;
    }
    const other = await briefOf(value.likerProfileId);
    return other && { ...strip(value), other };
  });
}

/** The like filters of the map (spec §5), as sets of profile ids, without blocked members. */
export interface LikeSets {
  likedMyProfile: Set<string>;
  likedMyPics: Set<string>;
  iLikedProfile: Set<string>;
  iLikedPics: Set<string>;
}

/**
 * What one deck session (a viewer, and the time the deck opened) learnt of its candidates: whom
 * the viewer rated before then, and whom not. A rating made before that time never changes that
 * answer, so the next page of the same deck asks KV only about candidates it has not met yet.
 * Per instance, by viewer (a rating forgets only its rater's decks): the newest `DECK_VIEWERS_MAX`
 * viewers' newest `DECK_SESSIONS_MAX` sessions, each for `DECK_CACHE_MS`.
 */
interface DeckKnown {
  rated: Set<string>;
  unrated: Set<string>;
  at: number;
}
const decks = new Map<string, Map<number, DeckKnown>>();
const DECK_VIEWERS_MAX = 1000;
const DECK_SESSIONS_MAX = 2;
const DECK_CACHE_MS = 15 * 60_000;

/**
 * A rating changed through this instance: the viewer's open decks ask about that member again
 * (a member rated before the deck opened and rated anew since counts as rated after it, as a read
 * of the whole history would say). A change through another instance shows in this one's decks
 * when the deck session ends (`DECK_CACHE_MS`); a swipe in the deck itself never changes an answer.
 */
function forgetDeckRating(viewer: string, member: string): void {
  for (const known of decks.get(viewer)?.values() ?? []) {
    known.rated.delete(member);
    known.unrated.delete(member);
  }
}

/**
 * Which of `ids` `viewer` rated LIKE or DISLIKE before `ts` (the swipe deck leaves them out): one
 * point read per candidate not met before in this deck, so a deck page costs the same whatever the
 * viewer's history.
 */
export async function ratedAmong(viewer: string, ids: readonly string[], ts: number): Promise<Set<string>> {
  const sessions = decks.get(viewer) ?? new Map<number, DeckKnown>();
  setNewest(decks, viewer, sessions, DECK_VIEWERS_MAX);
  let known = sessions.get(ts);
  if (!known || Date.now() - known.at > DECK_CACHE_MS) {
    known = { rated: new Set(), unrated: new Set(), at: Date.now() };
  }
  setNewest(sessions, ts, known, DECK_SESSIONS_MAX);
  // A deck opened in the future (the time is the caller's) could still see ratings made before
  // it: its unrated are asked again each page.
  const settled = ts <= now();
  const out = new Set(ids.filter((id) => known.rated.has(id)));
  const todo = ids.filter((id) => !known.rated.has(id) && !known.unrated.has(id));
  const batches: string[][] = [];
  for (let i = 0; i < todo.length; i += 10) batches.push(todo.slice(i, i + 10));
  for (let i = 0; i < batches.length; i += 16) {
    await Promise.all(
      batches.slice(i, i + 16).map(async (batch) => {
        const entries = await kv().getMany<ProfileLike[]>(batch.map((id) => keys.profileLike(viewer, id)));
        batch.forEach((id, j) => {
          const l = entries[j].value;
          if (l && (l.likeType === "LIKE" || l.likeType === "DISLIKE") && l.tsCreated < ts) {
            out.add(id);
            known.rated.add(id);
          } else if (settled) known.unrated.add(id);
        });
      }),
    );
  }
  return out;
}

/** Who liked the viewer's profile or pictures, and whose profile or pictures the viewer liked. */
export async function likeSets(viewer: string): Promise<LikeSets> {
  const hidden = await blockedSet(viewer);
  const collect = async <V>(prefix: Deno.KvKey, pick: (e: Deno.KvEntry<V>) => string) => {
    const out = new Set<string>();
    for await (const e of kv().list<V>({ prefix })) {
      const id = pick(e);
      if (!hidden.has(id)) out.add(id);
    }
    return out;
  };
  const [likedMyProfile, likedMyPics, iLikedProfile, iLikedPics] = await Promise.all([
    collect<ListedLike>(keys.profileLikesByLiked(viewer, "LIKE"), (e) => likeOfRow(e, "received").likerProfileId),
    collect<ProfilePicLike>(keys.picLikesByOwner(viewer, "LIKE"), (e) => e.value.likerProfileId),
    collect<ListedLike>(keys.profileLikesByLiker(viewer, "LIKE"), (e) => likeOfRow(e, "given").likedProfileId),
    collect<ProfilePicLike>(keys.picLikesByLiker(viewer, "LIKE"), (e) => e.value.profilePicProfileId),
  ]);
  return { likedMyProfile, likedMyPics, iLikedProfile, iLikedPics };
}

/** A like to import (`importLikes`): of a profile, or with `picId` of one of the liked profile's pictures. */
export interface ImportedLike {
  liker: string;
  liked: string;
  likeType: LikeType;
  picId?: string;
}

/**
 * Writes likes that do not exist yet (a seed's, among members with no device to push to) many to
 * an atomic, each checked to be absent, with the records, list rows and notifications that
 * `putProfileLike` and `putPicLike` write (a LIKE tells the liked member once per liker and kind,
 * without a push job). A batch whose check fails (a like was there) goes like by like through
 * those writes instead. Returns how many profile and picture likes were written.
 */
export async function importLikes(likes: readonly ImportedLike[]): Promise<{ profile: number; pic: number }> {
  const out = { profile: 0, pic: 0 };
  const per = Math.min(maxChecksPerAtomic(), 100);
  for (let start = 0; start < likes.length; start += per) {
    const batch = likes.slice(start, start + per);
    const op = kv().atomic();
    const told = new Set<string>();
    const counts = { profile: 0, pic: 0 };
    for (const l of batch) {
      const t = now();
      const seq = newId(t);
      const tell = l.likeType === "LIKE" && !told.has(`${l.picId ? "pic" : "profile"}/${l.liker}/${l.liked}`);
      if (tell) told.add(`${l.picId ? "pic" : "profile"}/${l.liker}/${l.liked}`);
      if (l.picId) {
        const next: Stored<ProfilePicLike> = {
          likerProfileId: l.liker,
          profilePicId: l.picId,
          profilePicProfileId: l.liked,
          likeType: l.likeType,
          tsCreated: t,
          seq,
        };
        const key = keys.picLike(l.liker, l.picId);
        op.check({ key, versionstamp: null }).set(key, next)
          .set(keys.picLikeByLiker(l.liker, l.likeType, seq, l.picId), next)
          .set(keys.picLikeByOwner(l.liked, l.likeType, seq, l.liker, l.picId), next);
        if (tell) {
          op.set(keys.notificationOnce(l.liked, "pic-like", l.liker), t, { expireIn: LIKE_NOTIFY_EVERY_MS });
          addNotification(op, l.liked, notificationOf("picLiked", "/likes/profilelikedyourpics"), { push: false });
        }
        counts.pic++;
      } else {
        const next: Stored<ProfileLike> = {
          likerProfileId: l.liker,
          likedProfileId: l.liked,
          likeType: l.likeType,
          blocked: false,
          tsCreated: t,
          seq,
        };
        if (tell) next.toldAt = t;
        const key = keys.profileLike(l.liker, l.liked);
        const row = listRow(t, false);
        op.check({ key, versionstamp: null }).set(key, next)
          .set(keys.profileLikeByLiker(l.liker, l.likeType, seq, l.liked), row)
          .set(keys.profileLikeByLiked(l.liked, l.likeType, seq, l.liker), row);
        if (tell) {
          addNotification(op, l.liked, notificationOf("profileLiked", "/likes/profilelikedyou"), { push: false });
        }
        counts.profile++;
      }
    }
    if ((await op.commit()).ok) {
      for (const l of batch) if (!l.picId) forgetDeckRating(l.liker, l.liked);
      out.profile += counts.profile;
      out.pic += counts.pic;
      continue;
    }
    for (const l of batch) {
      const { changed } = l.picId
        ? await putPicLike(l.liker, l.liked, l.picId, l.likeType)
        : await putProfileLike(l.liker, l.liked, l.likeType);
      if (changed) out[l.picId ? "pic" : "profile"]++;
    }
  }
  return out;
}
