/**
 * The Rating Game: members rate nearby members' public pictures Nice, Meh or Skip (the rating is
 * a picture like, kv/likes.ts); the first Nice or Meh of a picture earns a volunteer credit.
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { creditOps, type CreditState, creditState, getCredits } from "./credits.ts";
import { nearbyPictures } from "./deck.ts";
import type { Credited, RatingCard } from "../../domain/shapes/games.ts";

/** Nearby members' public pictures `viewer` has not rated in the game, nearest first. */
export function ratingDeck(viewer: string, max = 30): Promise<RatingCard[]> {
  return nearbyPictures(viewer, max, (picId) => keys.ratingPlay(viewer, picId));
}

/** The game's record of a picture passed: judged (Nice or Meh) or only skipped; a number is a judgement from before. */
type RatingPlay = { ts: number; judged: boolean } | number;

const wasJudged = (p: RatingPlay | null) => p !== null && (typeof p === "number" || p.judged);

/**
 * Adds the game's record of a rating to `op` (checked) and, for the first judgement of the
 * picture, its credit: a Skip only records the picture as passed (it leaves the deck) and earns
 * nothing; Nice or Meh earns one credit per picture, even after a Skip. True when credited.
 */
function ratingOps(
  op: Deno.AtomicOperation,
  viewer: string,
  picId: string,
  judged: boolean,
  played: Deno.KvEntryMaybe<RatingPlay>,
  credit: CreditState,
): boolean {
  op.check(played);
  if (wasJudged(played.value) || (!judged && played.value !== null)) return false;
  op.set(keys.ratingPlay(viewer, picId), { ts: now(), judged } satisfies RatingPlay);
  return judged && creditOps(op, credit);
}

/**
 * The Rating Game's record of `viewer` rating `picId` (`judged`: Nice or Meh, not Skip) and its
 * credit, as writes for the picture like's own atomic (`putPicLike`'s `alongside`): read afresh
 * on every attempt, and checked, so a picture earns a credit once. `result` tells what the
 * committed attempt did.
 */
export function ratingWrites(viewer: string, picId: string, judged: boolean) {
  const result = { credited: false };
  const prepare = async () => {
    const [played, credit] = await Promise.all([
      kv().get<RatingPlay>(keys.ratingPlay(viewer, picId)),
      creditState(viewer),
    ]);
    return (op: Deno.AtomicOperation) => {
      result.credited = ratingOps(op, viewer, picId, judged, played, credit);
    };
  };
  return { prepare, result };
}

/**
 * Records that `viewer` rated `picId` in the game, with its credit in one atomic, when the rating
 * wrote no like (the same like again): the same rules as `ratingWrites`.
 */
export async function creditRating(viewer: string, picId: string, judged: boolean): Promise<Credited> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const [played, credit] = await Promise.all([
      kv().get<RatingPlay>(keys.ratingPlay(viewer, picId)),
      creditState(viewer),
    ]);
    if (wasJudged(played.value) || (!judged && played.value !== null)) {
      return { credited: false, credits: await getCredits(viewer) };
    }
    const op = kv().atomic();
    const credited = ratingOps(op, viewer, picId, judged, played, credit);
    if ((await op.commit()).ok) return { credited, credits: await getCredits(viewer) };
  }
  throw new Error("rating credit kept conflicting");
}
