/** What the community games answer and take: verdicts, tallies, credits, the volunteer standing and the items to judge. */

import type { ApiAnswer } from "../contract.ts";

/** A GPT Buster verdict: the text is a human's, or machine-written / fake. */
export const GPT_VERDICTS = ["HUMAN", "MACHINE"] as const;
export type GptVerdict = typeof GPT_VERDICTS[number];

/** A Community Arbitration verdict. */
export const ARB_VERDICTS = ["VIOLATION", "NO_VIOLATION"] as const;
export type ArbVerdict = typeof ARB_VERDICTS[number];

/** An admin's decision on a report. */
export const ARB_DECISIONS = ["CONFIRM", "DISMISS"] as const;
export type ArbDecision = typeof ARB_DECISIONS[number];

export type GptTally = ApiAnswer<"PUT /api/games/gptbuster/:profileId">["tally"];

/** What a game action answers: whether it earned a credit and the member's credits now. */
export type Credited = Pick<ApiAnswer<"PUT /api/games/gptbuster/:profileId">, "credited" | "credits">;

/** Where a member stands toward the volunteer role. */
export type VolunteerStatus = ApiAnswer<"GET /api/games/volunteer">;

/** A profile text to judge. */
export type GptItem = NonNullable<ApiAnswer<"GET /api/games/gptbuster/next">["item"]>;

/** A picture in the rating deck. */
export type RatingCard = ApiAnswer<"GET /api/games/ratinggame/deck">["items"][number];

/** An open report a juror may judge. */
export type ArbItem = NonNullable<ApiAnswer<"GET /api/games/arbitration/next">["item"]>;
