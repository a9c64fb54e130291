/**
 * 3 2 1 Identify's judges' records: how often each judge's answers agreed with the outcomes of the
 * selfies they judged, and whether a judge who keeps disagreeing is paused (kv/games/identify.ts
 * deals and decides).
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { getProfile, isVerified } from "../profiles.ts";
import { getAccount } from "../accounts.ts";
import { type Origin, originOf } from "../origins.ts";
import type { JudgeRefusal } from "../../domain/shapes/identify.ts";

const DAY_MS = 24 * 3_600_000;
/** An account may judge once it is this old, or as soon as it is verified. */
export const JUDGE_MIN_AGE_MS = 7 * DAY_MS;

/** A judge's agreement with the outcomes is counted over their last this many decided cases... */
export const JUDGE_RECENT_CASES = 20;
/** ...once there are at least this many... */
export const JUDGE_MIN_CASES = 5;
/** ...and below this share of agreeing answers, the judge is no longer dealt selfies. */
export const JUDGE_MIN_AGREEMENT = 0.6;

/** A judge's agreement with outcomes: totals, and the last JUDGE_RECENT_CASES as "1" (agreed) and "0". */
export interface JudgeScore {
  agree: number;
  disagree: number;
  recent?: string;
}

/** A judge's answers that agreed and disagreed with outcomes. */
export async function judgeScore(profileId: string): Promise<JudgeScore> {
  return (await kv().get<JudgeScore>(keys.idJudgeScore(profileId))).value ?? { agree: 0, disagree: 0 };
}

/**
 * Is a judge no longer dealt selfies: of their last JUDGE_RECENT_CASES decided cases (at least
 * JUDGE_MIN_CASES), fewer than JUDGE_MIN_AGREEMENT agreed with the outcome. A score kept before
 * recent cases were counted is judged by its totals.
 */
export function judgePaused(s: JudgeScore): boolean {
  const n = s.recent !== undefined ? s.recent.length : s.agree + s.disagree;
  const agreed = s.recent !== undefined ? s.recent.replaceAll("0", "").length : s.agree;
  return n >= JUDGE_MIN_CASES && agreed / n < JUDGE_MIN_AGREEMENT;
}

/** Counts a judge's answer on a decided selfie: agreed with the outcome or not. */
export async function scoreJudge(judge: string, agreed: boolean): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const e = await kv().get<JudgeScore>(keys.idJudgeScore(judge));
    const s = e.value ?? { agree: 0, disagree: 0 };
    const next: JudgeScore = {
      agree: s.agree + (agreed ? 1 : 0),
      disagree: s.disagree + (agreed ? 0 : 1),
      recent: ((s.recent ?? "") + (agreed ? "1" : "0")).slice(-JUDGE_RECENT_CASES),
    };
    if ((await kv().atomic().check(e).set(e.key, next).commit()).ok) return;
  }
}

/** Who a judge is, as dealing and answering check them. */
export interface JudgeFacts {
  tsCreated: number;
  origin: Origin | null;
}

/**
 * May `judge` judge at all: a public picture; an account JUDGE_MIN_AGE_MS old or verified; not
 * paused for disagreeing with outcomes. Else why not (and, for a new account, from when).
 */
export async function judgeStanding(
  judge: string,
): Promise<{ ok: true; facts: JudgeFacts } | { ok: false; why: JudgeRefusal; judgeFrom: number | null }> {
  const profile = await getProfile(judge);
  if (!profile || profile.profilePicIds.length === 0) return { ok: false, why: "NO_PICTURE", judgeFrom: null };
  const [account, origin, score] = await Promise.all([
    getAccount(profile.accountId),
    originOf(profile.accountId),
    judgeScore(judge),
  ]);
  const tsCreated = account?.tsCreated ?? now();
  if (!isVerified(profile) && now() - tsCreated < JUDGE_MIN_AGE_MS) {
    return { ok: false, why: "NEW_ACCOUNT", judgeFrom: tsCreated + JUDGE_MIN_AGE_MS };
  }
  if (judgePaused(score)) return { ok: false, why: "PAUSED", judgeFrom: null };
  return { ok: true, facts: { tsCreated, origin } };
}
