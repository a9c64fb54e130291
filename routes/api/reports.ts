/**
 * Report Violation: `POST /api/profile-report` stores a report for moderation. Not a spec call
 * (the spec does not show what the action does); rate limited per account and address.
 */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { tooMany } from "../errors.ts";
import { bodyOf } from "../validate.ts";
import { ownTowards } from "../policy.ts";
import { clientAddress, requireCaller } from "../middleware.ts";
import { saveReport } from "../../kv/reports.ts";
import { hit, hitNewMember } from "../../kv/ratelimit.ts";
import { reviewIfReported } from "../../kv/moderation.ts";
import { answer } from "../answer.ts";

export const reports = new Hono<AppEnv>()
  .post("/profile-report", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/profile-report");
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
