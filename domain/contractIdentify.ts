/** The API contract of 3 2 1 Identify (domain/contract.ts spreads it into RESPONSES). */

import * as z from "zod";

const ts = z.number();
const ok = z.strictObject({ ok: z.literal(true) });
const Credited = { credited: z.boolean(), credits: z.number() };

const IdAdminItem = z.strictObject({
  attemptId: z.string(),
  poseId: z.string(),
  pictures: z.number(),
  status: z.enum(["OPEN", "ESCALATED"]),
  escalation: z.enum(["DISAGREED", "SHARED_PLACE"]).nullable(),
  same: z.number(),
  notSame: z.number(),
  wrongPose: z.number(),
  tsCreated: ts,
});

export const IDENTIFY_RESPONSES = {
  "GET /api/games/identify": {
    200: z.strictObject({
      status: z.strictObject({
        verified: z.boolean(),
        tsVerified: ts.nullable(),
        lapsed: z.boolean(),
        pending: z.string().nullable(),
        lastRejected: ts.nullable(),
        attemptsLeft: z.number(),
        hasPicture: z.boolean(),
      }),
      credits: z.number(),
    }),
  },
  "POST /api/games/identify/challenge": {
    201: z.strictObject({ challenge: z.strictObject({ id: z.string(), poseId: z.string(), expires: ts }) }),
  },
  "POST /api/games/identify/selfie": { 201: z.strictObject({ attemptId: z.string(), poseId: z.string() }) },
  "DELETE /api/games/identify/attempt": { 200: ok },
  "GET /api/games/identify/next": {
    200: z.strictObject({
      item: z.strictObject({ attemptId: z.string(), poseId: z.string(), pictures: z.number() }).nullable(),
      /** Why the caller may not judge (null: they may; no item then means nothing waits for them). */
      why: z.enum(["NEW_ACCOUNT", "NO_PICTURE", "PAUSED"]).nullable(),
      judgeFrom: ts.nullable(),
      credits: z.number(),
    }),
  },
  "PUT /api/games/identify/attempts/:attemptId": {
    200: z.strictObject({ status: z.enum(["OPEN", "ESCALATED", "DECIDED"]), ...Credited }),
  },
  "GET /api/settings/verified-only": { 200: z.strictObject({ on: z.boolean() }) },
  "PUT /api/settings/verified-only": { 200: z.strictObject({ on: z.boolean() }) },
  "GET /api/admin/games/identify": { 200: z.strictObject({ items: z.array(IdAdminItem) }) },
  "PUT /api/admin/games/identify/:attemptId": {
    200: z.strictObject({ outcome: z.enum(["VERIFIED", "REJECTED"]) }),
  },
} as const;
