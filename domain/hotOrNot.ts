/**
 * Hot or Not's rules and arithmetic (docs/decisions/0154-hot-or-not.md): how long a test runs,
 * which votes are careless, how each voter's lean to one side is corrected, the interval of a
 * picture's share of wins, and the Thompson sampling that keeps a member's best picture first.
 * Pure functions: kv/games/hotOrNot.ts stores, this decides.
 */

import type { CarelessReason, HotArm, HotChoice, HotPicResult, HotVote, HotVoterStats } from "./shapes/hotOrNot.ts";

/** A test has 2 to 4 of the member's public pictures. */
export const HOT_MIN_PICS = 2;
export const HOT_MAX_PICS = 4;
/** It runs until each picture has this many counted votes... */
export const HOT_TARGET_VOTES = 20;
/** ...or this many days at most. */
export const HOT_DAYS = 7;
/** A vote made sooner than this after its pair was shown is careless (not counted). */
export const HOT_MIN_VOTE_MS = 1_500;
/** The choice that makes a run of this many on the same side, and every one after it, is careless. */
export const HOT_SAME_SIDE_RUN = 8;
/** 'Keep my best picture first' decides again after this many counted profile opens. */
export const HOT_DECIDE_EVERY = 5;
/** The app's moves kept to show the member. */
export const HOT_MOVES_KEPT = 5;

/** A pair's key: its two picture ids, sorted, joined by "+". */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}+${b}` : `${b}+${a}`;
}

/** Every pair of a test's pictures. */
export function pairsOf(picIds: readonly string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < picIds.length; i++) for (let j = i + 1; j < picIds.length; j++) out.push([picIds[i], picIds[j]]);
  return out;
}

export const NO_VOTER: HotVoterStats = { left: 0, right: 0, run: 0, runSide: null };

/**
 * Is this vote careless: made in less than HOT_MIN_VOTE_MS (`ms`: the shorter of the server's and
 * the device's measure), or the HOT_SAME_SIDE_RUN-th choice in a row of the same side? A Skip is
 * never careless (it counts for nothing anyway).
 */
export function carelessReason(choice: HotChoice, ms: number, stats: HotVoterStats): CarelessReason | null {
  if (choice === "SKIP") return null;
  if (ms < HOT_MIN_VOTE_MS) return "FAST";
  const run = stats.runSide === choice ? stats.run + 1 : 1;
  return run >= HOT_SAME_SIDE_RUN ? "SAME_SIDE" : null;
}

/** A voter's sides after one more choice (careless ones too: they show the lean). */
export function nextVoterStats(stats: HotVoterStats, choice: HotChoice): HotVoterStats {
  if (choice === "SKIP") return stats;
  const run = stats.runSide === choice ? stats.run + 1 : 1;
  return {
    left: stats.left + (choice === "LEFT" ? 1 : 0),
    right: stats.right + (choice === "RIGHT" ? 1 : 0),
    run,
    runSide: choice,
  };
}

/** The prior of a voter's lean: as if they had chosen each side this many times more (no lean until shown). */
export const HOT_LEAN_PRIOR = 2;

/**
 * How much a vote for `side` is worth to the picture chosen, given the voter's lean: with p the
 * voter's rate of choosing that side in their other choices (this one left out), shrunk toward
 * one half ((count + 2) / (all + 4)), the chosen picture gets min(1, 0.5 / p) of a win and the
 * other the rest. A voter without a lean (p = 0.5, a first vote too) gives a whole win; one who
 * picked the left 8 times in 10 gives a left pick about 0.7 and a right pick a whole win.
 */
export function sideCredit(stats: HotVoterStats, side: "LEFT" | "RIGHT"): number {
  const same = Math.max(0, (side === "LEFT" ? stats.left : stats.right) - 1);
  const others = Math.max(0, stats.left + stats.right - 1);
  const p = (same + HOT_LEAN_PRIOR) / (others + 2 * HOT_LEAN_PRIOR);
  return Math.min(1, 0.5 / p);
}

/** The Wilson score interval (95%) of a share `p` of `n` trials; [0, 1] when there are none. */
export function wilson(p: number, n: number, z = 1.96): [number, number] {
  if (n <= 0) return [0, 1];
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/**
 * Each picture's lean-corrected share of the counted votes it took part in, with its interval.
 * `votes` carries each counted vote with its voter's sides now.
 */
export function hotResults(
  picIds: readonly string[],
  nsfw: (picId: string) => boolean,
  votes: readonly { vote: HotVote; voter: HotVoterStats }[],
): HotPicResult[] {
  const wins = new Map<string, number>(picIds.map((p) => [p, 0]));
  const trials = new Map<string, number>(picIds.map((p) => [p, 0]));
  for (const { vote, voter } of votes) {
    if (!vote.counted || vote.choice === "SKIP") continue;
    if (!wins.has(vote.left) || !wins.has(vote.right)) continue;
    const [chosen, other] = vote.choice === "LEFT" ? [vote.left, vote.right] : [vote.right, vote.left];
    const c = sideCredit(voter, vote.choice);
    wins.set(chosen, wins.get(chosen)! + c);
    wins.set(other, wins.get(other)! + (1 - c));
    trials.set(chosen, trials.get(chosen)! + 1);
    trials.set(other, trials.get(other)! + 1);
  }
  return picIds.map((picId) => {
    const n = trials.get(picId)!;
    const share = n ? wins.get(picId)! / n : null;
    const [low, high] = wilson(share ?? 0, n);
    return { picId, nsfw: nsfw(picId), votes: n, share, low, high };
  });
}

/** The picture with the highest share (null when none has a vote). */
export function bestOf(results: readonly HotPicResult[]): string | null {
  let best: HotPicResult | null = null;
  for (const r of results) if (r.share !== null && (!best || r.share > best.share!)) best = r;
  return best?.picId ?? null;
}

/** `order` with `picId` moved first (unchanged when it is not in it). */
export function withFirst(order: readonly string[], picId: string): string[] {
  return order.includes(picId) ? [picId, ...order.filter((p) => p !== picId)] : [...order];
}

/** A standard normal draw (Box-Muller). */
function normal(rand: () => number): number {
  const u = Math.max(rand(), Number.MIN_VALUE);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** A Gamma(shape, 1) draw (Marsaglia and Tsang; shape below 1 boosted). */
function gamma(shape: number, rand: () => number): number {
  if (shape < 1) return gamma(shape + 1, rand) * Math.pow(Math.max(rand(), Number.MIN_VALUE), 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    const x = normal(rand);
    const v = Math.pow(1 + c * x, 3);
    if (v <= 0) continue;
    const u = rand();
    if (Math.log(Math.max(u, Number.MIN_VALUE)) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

/** A Beta(a, b) draw. */
export function betaDraw(a: number, b: number, rand: () => number): number {
  const x = gamma(a, rand);
  return x / (x + gamma(b, rand));
}

/**
 * Thompson sampling over a member's public pictures: each picture's rate of likes per profile
 * open is drawn from Beta(1 + won, 1 + max(0, shown - won)) and the highest draw goes first. A
 * picture never shown first and never liked draws from Beta(1, 1), so a new picture gets its chance.
 */
export function thompsonFirst(picIds: readonly string[], arms: Record<string, HotArm>, rand: () => number): string {
  let best = picIds[0];
  let top = -1;
  for (const id of picIds) {
    const arm = arms[id] ?? { shown: 0, won: 0 };
    const draw = betaDraw(1 + arm.won, 1 + Math.max(0, arm.shown - arm.won), rand);
    if (draw > top) [best, top] = [id, draw];
  }
  return best;
}
