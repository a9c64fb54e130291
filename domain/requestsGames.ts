/**
 * What the community games, the Health Incident Report and the admins' routes read (domain/requests.ts
 * spreads it into REQUESTS): their JSON bodies, queries and forms, by "METHOD /path".
 */

import * as z from "zod";
import { filePart, idSchema, tokenSchema } from "./requestParts.ts";
import { LIKE_TYPES } from "./shapes/likes.ts";
import { ARB_DECISIONS, ARB_VERDICTS, GPT_VERDICTS } from "./shapes/games.ts";
import { HEALTH_CONDITIONS, HEALTH_PERIOD_CHOICES } from "./health.ts";
import { ID_ANSWERS } from "./identify.ts";
import { HOT_MAX_PICS, HOT_MIN_PICS } from "./hotOrNot.ts";
import { HOT_CHOICES } from "./shapes/hotOrNot.ts";
import { QUIZ_ANSWERS } from "./dungeon.ts";
import { ACTION_KINDS } from "./shapes/moderation.ts";
import { MAX_REASON, SUSPENSION_DAYS } from "./moderation.ts";

// --- GPT Buster, the rating game, arbitration, photo crops

const gptBody = z.object({ verdict: z.enum(GPT_VERDICTS) });
const ratingBody = z.object({
  profilePicId: idSchema,
  profilePicProfileId: idSchema,
  likeType: z.enum(LIKE_TYPES),
});
const arbBody = z.object({ verdict: z.enum(ARB_VERDICTS) });
const decisionBody = z.object({ decision: z.enum(ARB_DECISIONS) });
const share = z.number().finite().min(0).max(1);
const suggestCropBody = z.object({ gen: z.string().max(40), x: share, y: share, width: share, height: share });
const answerBody = z.object({ action: z.enum(["ACCEPT", "DISMISS"]) });
const photoCropNextQuery = z.object({ skip: z.string().max(2000).optional() });

// --- Health Incident Report

const days = z.coerce.number().int().refine((d) => (HEALTH_PERIOD_CHOICES as readonly number[]).includes(d), {
  message: `must be one of ${HEALTH_PERIOD_CHOICES.join(", ")}`,
});
const healthContactsQuery = z.object({ days });
const healthReportBody = z.object({
  condition: z.enum(HEALTH_CONDITIONS),
  days,
  profileIds: z.array(idSchema).min(1).max(500),
});

// --- 3 2 1 Identify

const challengeBody = z.object({ noHands: z.boolean().optional() });
const idAnswerBody = z.object({ answer: z.enum(ID_ANSWERS) });
const onlyVerifiedBody = z.object({ on: z.boolean() });

// --- Hot or Not

const hotTestBody = z.object({ picIds: z.array(idSchema).min(HOT_MIN_PICS).max(HOT_MAX_PICS) });
const hotVoteBody = z.object({
  testId: idSchema,
  /** The stamp of the deal this vote answers (`deal` of the pair). */
  deal: z.number().int().min(0),
  choice: z.enum(HOT_CHOICES),
  /** How long the device showed the pair before the tap, in ms. */
  ms: z.number().int().min(0).max(86_400_000),
});
const hotNextQuery = z.object({ nsfw: z.enum(["0", "1"]).optional() });
const keepBestBody = z.object({ on: z.boolean() });

// --- Bad Boy Dungeon

const quizBody = z.object({
  /** The chosen option of each question, in order. */
  answers: z.array(z.number().int().min(0).max(9)).length(QUIZ_ANSWERS.length),
});
const appealBody = z.object({
  text: z.string().trim().min(1, "Say why this was not a violation.").max(2000),
});
const appealDecisionBody = z.object({ decision: z.enum(["UPHOLD", "REJECT"]) });

// --- admins

const actionBody = z.object({
  kind: z.enum(ACTION_KINDS),
  /** A suspension's days: 1, 7 or 30. */
  days: z.union(SUSPENSION_DAYS.map((d) => z.literal(d)) as [z.ZodLiteral<1>, z.ZodLiteral<7>, z.ZodLiteral<30>])
    .optional(),
  reason: z.string().trim().min(1, "Give the reason the member will read.").max(MAX_REASON),
  /** The report this action answers: confirmed with it. */
  reportId: idSchema.optional(),
});
const modNoteBody = z.object({ text: z.string().trim().min(1).max(2000) });
const auditQuery = z.object({ limit: z.coerce.number().int().min(1).max(500).default(100) });
const membersQuery = z.object({ q: z.string().max(254).default("") });

/** The request schemas of the games and the admins' routes. */
export const GAME_REQUESTS = {
  "PUT /api/games/gptbuster/:profileId": { body: gptBody },
  "PUT /api/games/ratinggame": { body: ratingBody },
  "PUT /api/games/arbitration/:reportId": { body: arbBody },
  "GET /api/games/photocrop/next": { query: photoCropNextQuery },
  "PUT /api/games/photocrop/:picId": { body: suggestCropBody },
  "PUT /api/games/photocrop/suggestions/:id": { body: answerBody },
  "GET /api/games/healthreport/contacts": { query: healthContactsQuery },
  "POST /api/games/healthreport": { body: healthReportBody },
  "POST /api/games/identify/challenge": { body: challengeBody },
  "POST /api/games/identify/selfie": {
    form: z.object({
      challenge: tokenSchema.describe("the id of the caller's live challenge (the pose asked for)"),
      selfie: filePart("the selfie taken in the page: JPEG, PNG, WebP, AVIF or HEIC"),
    }),
  },
  "PUT /api/games/identify/attempts/:attemptId": { body: idAnswerBody },
  "PUT /api/settings/verified-only": { body: onlyVerifiedBody },
  "PUT /api/admin/games/identify/:attemptId": { body: idAnswerBody },
  "POST /api/games/hotornot/tests": { body: hotTestBody },
  "GET /api/games/hotornot/next": { query: hotNextQuery },
  "PUT /api/games/hotornot/vote": { body: hotVoteBody },
  "PUT /api/games/hotornot/keep-best": { body: keepBestBody },
  "PUT /api/admin/reports/:reportId": { body: decisionBody },
  "POST /api/games/dungeon/quiz": { body: quizBody },
  "POST /api/games/dungeon/appeal": { body: appealBody },
  "PUT /api/admin/dungeon/appeals/:stayId": { body: appealDecisionBody },
  "GET /api/admin/audit": { query: auditQuery },
  "GET /api/admin/members": { query: membersQuery },
  "POST /api/admin/members/:profileId/actions": { body: actionBody },
  "POST /api/admin/members/:profileId/notes": { body: modNoteBody },
} as const;
