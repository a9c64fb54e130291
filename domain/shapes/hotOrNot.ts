/**
 * What Hot or Not stores and answers: picture tests, votes on pairs, results (the owner's alone)
 * and 'Keep my best picture first'. The answers' types are inferred from the contract
 * (domain/contractHotOrNot.ts); what is only stored is written here.
 */

import type { ApiAnswer } from "../contract.ts";

/** A vote: the left picture, the right one, or neither (Skip). */
export const HOT_CHOICES = ["LEFT", "RIGHT", "SKIP"] as const;
export type HotChoice = typeof HOT_CHOICES[number];

/** Why a vote was not counted: too fast, or one more of a long run on the same side. */
export type CarelessReason = NonNullable<ApiAnswer<"PUT /api/games/hotornot/vote">["why"]>;

/** A test's state: running, every picture has its votes (or the days ran out), or stopped by its owner. */
export type HotStatus = HotTestView["status"];

/** A test as stored: the owner's data. */
export interface HotTest {
  id: string;
  ownerProfileId: string;
  picIds: string[];
  /** Any picture flagged NSFW: dealt only to voters whose device shows NSFW. */
  nsfw: boolean;
  status: HotStatus;
  tsCreated: number;
  tsEnds: number;
  tsDone: number | null;
  /** Counted votes each picture took part in, by picture id. */
  counted: Record<string, number>;
  careless: number;
  skips: number;
}

/** One voter's vote on one pair, as stored (its correction is applied when the result is read). */
export interface HotVote {
  left: string;
  right: string;
  choice: HotChoice;
  counted: boolean;
  why: CarelessReason | null;
  ts: number;
}

/** A voter's sides so far: counted LEFT and RIGHT choices, and the current run on one side. */
export interface HotVoterStats {
  left: number;
  right: number;
  run: number;
  runSide: "LEFT" | "RIGHT" | null;
}

/** One picture's result: its share of wins (lean-corrected) and a 95% interval. */
export type HotPicResult = HotTestView["pictures"][number];

/** A test as its owner sees it. */
export type HotTestView = ApiAnswer<"GET /api/games/hotornot/tests/:testId">["test"];

/**
 * A pair to vote on: two pictures of one member, never who, not even the pictures' ids (they are
 * served through the deal: `GET /api/games/hotornot/pair/:testId/:side`). `deal` stamps it: the
 * vote names it, and the picture addresses carry it so a new pair is fetched afresh.
 */
export type HotPair = NonNullable<ApiAnswer<"GET /api/games/hotornot/next">["item"]>;

/** One picture's counts in the 'keep my best picture first' bandit. */
export interface HotArm {
  /** Profile opens while it was first, and likes it earned (its own, or the profile's while it was first). */
  shown: number;
  won: number;
}

/** 'Keep my best picture first' as stored. */
export interface HotKeepBest {
  on: boolean;
  since: number | null;
  /** The public order when it was switched on: Undo puts it back. */
  orderBefore: string[];
  arms: Record<string, HotArm>;
  /** Opens counted since the last decision. */
  sinceDecision: number;
  /** The app's latest moves, newest first: which picture it put first, and when. */
  moves: { picId: string; ts: number }[];
}

/** The setting as its owner sees it. */
export type HotKeepBestView = ApiAnswer<"PUT /api/games/hotornot/keep-best">["keepBest"];
