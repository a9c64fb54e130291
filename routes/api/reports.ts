/**
 * Report Violation: `POST /api/profile-report` stores a report for moderation. Not a spec call
 * (the spec does not show what the action does); rate limited per account and address.
 */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { tooMany } from "../errors.ts";
import { idSchema, jsonBody } from "../validate.ts";
import { ownTowards } from "../policy.ts";
import { clientAddress, requireCaller } from "../middleware.ts";
import { MAX_TEXT, REPORT_REASONS } from "../../domain/texts.ts";
import { saveReport } from "../../kv/reports.ts";
import { hit, hitNewMember } from "../../kv/ratelimit.ts";
import { reviewIfReported } from "../../kv/moderation.ts";
import { answer } from "../answer.ts";

export const reportBody = z.object({
  /** Defaults to the caller's profile. */
  reporterProfileId: idSchema.optional(),
  reportedProfileId: idSchema,
  reason: z.enum(REPORT_REASONS.map((r) => r.id) as [string, ...string[]]),
  text: z.string().trim().max(MAX_TEXT).default(""),
});

export const reports = new Hono<AppEnv>()
  .post("/profile-report", async (c) => {
    const caller = requireCaller(c);
    const body = await jsonBody(c, reportBody);
    const reporter = body.reporterProfileId ?? caller.profileId;
    await ownTowards(c, reporter, body.reportedProfileId);
    if (
      !(await hit("reportByAccount", caller.accountId)) || !(await hit("reportByAddress", clientAddress(c))) ||
      !(await hitNewMember("newMemberReports", caller))
    ) {
      throw tooMany();
    }
    const r = await saveReport(reporter, body.reportedProfileId, body.reason, body.text);
    // Three members' reports within a day hide the profile until an admin looks (kv/moderation.ts).
    await reviewIfReported(body.reportedProfileId);
    return answer(c, "POST /api/profile-report", { id: r.id });
  });
