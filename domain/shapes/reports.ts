/** What Report Violation sends (`POST /api/profile-report`). */

import type { ReportReason } from "../texts.ts";

/** What `POST /api/profile-report` takes: the report of a violation (the reporter is the caller). */
export interface ReportInput {
  reportedProfileId: string;
  reason: ReportReason;
  text: string;
}
