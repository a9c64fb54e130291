/** What the community games answer and take: verdicts, tallies, credits, the volunteer standing and the items to judge. */

import type { Report } from "./moderation.ts";

/** A GPT Buster verdict: the text is a human's, or machine-written / fake. */
export const GPT_VERDICTS = ["HUMAN", "MACHINE"] as const;
export type GptVerdict = typeof GPT_VERDICTS[number];

/** A Community Arbitration verdict. */
export const ARB_VERDICTS = ["VIOLATION", "NO_VIOLATION"] as const;
export type ArbVerdict = typeof ARB_VERDICTS[number];

/** An admin's decision on a report. */
export const ARB_DECISIONS = ["CONFIRM", "DISMISS"] as const;
export type ArbDecision = typeof ARB_DECISIONS[number];

export interface GptTally {
  human: number;
  machine: number;
}

/** What a game action answers: whether it earned a credit and the member's credits now. */
export interface Credited {
  credited: boolean;
  credits: number;
}

/** Where a member stands toward the volunteer role. */
export interface VolunteerStatus {
  /** All volunteer credits ever earned. */
  credits: number;
  /** Credits earned in the last VOLUNTEER_WINDOW_DAYS UTC days, today included. */
  recentCredits: number;
  /** VOLUNTEER_CREDITS. */
  threshold: number;
  /** Credits still needed in the window (0 once reached). */
  toGo: number;
  /** When the earned VOLUNTEER role ends; null when none is granted now. */
  volunteerUntil: number | null;
}

/** A profile text to judge. */
export interface GptItem {
  profileId: string;
  profileName: string;
  profileAge: number | null;
  picId: string | null;
  description: string;
}

/** A picture in the rating deck. */
export interface RatingCard {
  picId: string;
  profileId: string;
  profileName: string;
}

/** An open report a juror may judge. */
export interface ArbItem {
  /** Never the reporter: a juror sees what was reported, not who reported it. */
  report: Pick<Report, "id" | "reason" | "text" | "tsCreated">;
  reported: { profileId: string; profileName: string; description: string; picId: string | null };
}
