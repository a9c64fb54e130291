/**
 * What moderation reads and answers: the actions an admin may take, the audit log, notes, reports with
 * their jury's tally, withdrawals, and the admin screens' queue, search hits and member file.
 */

import type { ApiAnswer } from "../contract.ts";

/** What an admin may do about a confirmed report. */
export const ACTION_KINDS = ["WARNING", "SUSPENSION", "BAN"] as const;
export type ActionKind = typeof ACTION_KINDS[number];

/** An admin's action on a member. */
export type ModAction = ApiAnswer<"POST /api/admin/members/:profileId/actions">;

/** One line of the audit log: who did what to whom, when, and why. */
export type AuditEntry = ApiAnswer<"GET /api/admin/audit">["items"][number];

/** What a member must see on their next page. */
export type AccountNotice =
  | { kind: "WARNING"; actionId: string; reason: string; ts: number }
  | { kind: "REVIEW"; ts: number };

export type ModNote = ApiAnswer<"POST /api/admin/members/:profileId/notes">;

export type SendingPause = NonNullable<MemberFile["sendingPaused"]>;

/** One member in the moderation queue: their open reports with the jury's tally, and why they wait. */
export type QueueItem = ApiAnswer<"GET /api/admin/moderation/queue">["items"][number];

/** A member as the admin search lists them. */
export type MemberHit = ApiAnswer<"GET /api/admin/members">["items"][number];

/** Everything an admin's member page shows. */
export type MemberFile = ApiAnswer<"GET /api/admin/members/:profileId">;

/** Why and until when a member is withdrawn from everyone's view (kv/moderation.ts writes it). */
export type Withdrawal = NonNullable<MemberFile["withdrawal"]>;

/** A member's report about another profile. */
export type Report = Omit<ApiAnswer<"GET /api/admin/reports/:reportId">, "case">;

export type ArbCase = ApiAnswer<"GET /api/admin/reports/:reportId">["case"];

/** A report as admins see it: with both names (null when a profile is gone), its tally and status. */
export type ReportCase = ApiAnswer<"GET /api/admin/reports">["items"][number];
