/** What 3 2 1 Identify answers: a member's standing, a selfie to judge, an admin's queue item. */

/** A member's standing in the game. */
export interface IdentifyStatus {
  /** Shows the badge now. */
  verified: boolean;
  /** When their accepted selfie was decided (kept after the badge lapses). */
  tsVerified: number | null;
  /** Verified once, but the first picture changed since: asked to verify again. */
  lapsed: boolean;
  /** The id of their selfie being judged, or null. */
  pending: string | null;
  /** The last outcome, when it was a refusal. */
  lastRejected: number | null;
  attemptsLeft: number;
  hasPicture: boolean;
}

/** What a judge sees: never the member's name, id or place; the pictures go through the attempt. */
export interface JudgeItem {
  attemptId: string;
  poseId: string;
  pictures: number;
}

/**
 * Why a member is dealt no selfie to judge: their account is younger than 7 days (and they are
 * not verified), they have no public picture, or their answers kept differing from the outcomes.
 */
export type JudgeRefusal = "NEW_ACCOUNT" | "NO_PICTURE" | "PAUSED";

/** What asking for a selfie to judge answers: one, or none, and why when the member may not judge. */
export interface JudgeDeal {
  item: JudgeItem | null;
  /** Null: the member may judge (no item: nothing waits for them now). */
  why: JudgeRefusal | null;
  /** NEW_ACCOUNT: when the member may judge. */
  judgeFrom: number | null;
}

/** A selfie in the admins' queue, with the judges' answers so far. */
export interface IdAdminItem extends JudgeItem {
  /** OPEN: still with the judges (an admin may decide it); ESCALATED: waiting for an admin. */
  status: "OPEN" | "ESCALATED";
  /** Why it waits for an admin: the judges disagreed, or agreeing judges share an address or device. */
  escalation: "DISAGREED" | "SHARED_PLACE" | null;
  same: number;
  notSame: number;
  wrongPose: number;
  tsCreated: number;
}
