/**
 * What moderation reads and answers: the actions an admin may take, the audit log, notes, reports with
 * their jury's tally, withdrawals, and the admin screens' queue, search hits and member file.
 */

import type { Profile } from "./profiles.ts";

/** What an admin may do about a confirmed report. */
export const ACTION_KINDS = ["WARNING", "SUSPENSION", "BAN"] as const;
export type ActionKind = typeof ACTION_KINDS[number];

/** An admin's action on a member. */
export interface ModAction {
  id: string;
  profileId: string;
  kind: ActionKind;
  /** A suspension's length in days (null otherwise). */
  days: number | null;
  /** Shown to the member. */
  reason: string;
  tsCreated: number;
  /** When a suspension ends (null: a warning or a ban). */
  until: number | null;
  /** The admin's account id and name. */
  by: string;
  byName: string;
  /** The report this action answers, when one. */
  reportId?: string;
  tsLifted?: number;
  liftedBy?: string;
}

/** One line of the audit log: who did what to whom, when, and why. */
export interface AuditEntry {
  id: string;
  ts: number;
  /** The admin's account id, or "system" for an automatic step (a review, a sending pause). */
  by: string;
  byName: string;
  /** What was done: ACTION_WARNING, ACTION_SUSPENSION, ACTION_BAN, ACTION_LIFTED, REVIEW_STARTED, ... */
  action: string;
  /** The member it concerns (their profile id), or null. */
  target: string | null;
  detail: string;
  reason: string;
}

/** What a member must see on their next page. */
export type AccountNotice =
  | { kind: "WARNING"; actionId: string; reason: string; ts: number }
  | { kind: "REVIEW"; ts: number };

export interface ModNote {
  id: string;
  profileId: string;
  text: string;
  ts: number;
  by: string;
  byName: string;
}

export interface SendingPause {
  ts: number;
  why: string;
}

/** One member in the moderation queue: their open reports with the jury's tally, and why they wait. */
export interface QueueItem {
  profileId: string;
  name: string | null;
  openReports: ReportCase[];
  /** The newest open report's time (or when the member started waiting). */
  tsNewest: number;
  withdrawal: Withdrawal | null;
  sendingPaused: SendingPause | null;
  spamHeld: number;
}

/** A member as the admin search lists them. */
export interface MemberHit {
  profileId: string;
  accountId: string;
  name: string;
  email: string;
  withdrawal: Withdrawal | null;
}

/** Everything an admin's member page shows. */
export interface MemberFile {
  profile: Profile;
  account: { id: string; email: string; roles: string[]; tsCreated: number } | null;
  withdrawal: Withdrawal | null;
  sendingPaused: SendingPause | null;
  spamHeld: number;
  reportsAbout: ReportCase[];
  reportsMade: ReportCase[];
  actions: ModAction[];
  notes: ModNote[];
  audit: AuditEntry[];
}

/** Why and until when a member is withdrawn from everyone's view (kv/moderation.ts writes it). */
export interface Withdrawal {
  kind: "SUSPENSION" | "BAN" | "REVIEW";
  /** The admin action behind it (none for a review). */
  actionId: string | null;
  /** When it ends by itself (null: a ban, or a review that waits for an admin). */
  until: number | null;
  ts: number;
}

/** A member's report about another profile. */
export interface Report {
  id: string;
  reporterProfileId: string;
  reportedProfileId: string;
  /** One of REPORT_REASONS (domain/texts.ts). */
  reason: string;
  text: string;
  tsCreated: number;
}

export interface ArbCase {
  violation: number;
  noViolation: number;
  status: "OPEN" | "CONFIRMED" | "DISMISSED";
  decidedBy?: string;
  tsDecided?: number;
  /** When the report, undecided for 48 h, went to the admins (Bad Boy Dungeon's deadline). */
  tsEscalated?: number;
}

/** A report as admins see it: with both names (null when a profile is gone), its tally and status. */
export type ReportCase = Report & { reporterName: string | null; reportedName: string | null; case: ArbCase };
