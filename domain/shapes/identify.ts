/** What 3 2 1 Identify answers: a member's standing, a selfie to judge, an admin's queue item. */

import type { ApiAnswer } from "../contract.ts";

/** A member's standing in the game. */
export type IdentifyStatus = ApiAnswer<"GET /api/games/identify">["status"];

/** What a judge sees: never the member's name, id or place; the pictures go through the attempt. */
export type JudgeItem = NonNullable<JudgeDeal["item"]>;

/**
 * Why a member is dealt no selfie to judge: their account is younger than 7 days (and they are
 * not verified), they have no public picture, or their answers kept differing from the outcomes.
 */
export type JudgeRefusal = NonNullable<JudgeDeal["why"]>;

/** What asking for a selfie to judge answers: one, or none, and why when the member may not judge. */
export type JudgeDeal = Omit<ApiAnswer<"GET /api/games/identify/next">, "credits">;

/** A selfie in the admins' queue, with the judges' answers so far. */
export type IdAdminItem = ApiAnswer<"GET /api/admin/games/identify">["items"][number];
