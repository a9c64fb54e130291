/** Client data of Report Violation: `POST /api/profile-report`. */

import { useMutation } from "@tanstack/react-query";
import { call } from "./api.ts";
import type { ReportInput } from "../../domain/shapes/reports.ts";

/** Sends a report for the moderators. */
export function useReportMutation() {
  return useMutation({
    mutationFn: (report: ReportInput) => call("POST /api/profile-report", {}, { json: report }),
  });
}
