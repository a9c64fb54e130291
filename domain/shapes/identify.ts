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

/** A selfie in the admins' queue, with the judges' answers so far. */
export interface IdAdminItem extends JudgeItem {
  status: "OPEN" | "ESCALATED";
  same: number;
  notSame: number;
  wrongPose: number;
  tsCreated: number;
}
