/** The API contract of Bad Boy Dungeon (domain/contract.ts spreads it into RESPONSES). */

import * as z from "zod";
import { RESTRICTED_ACTIONS } from "./dungeon.ts";

const ts = z.number();
const id = z.string();

const Appeal = z.strictObject({
  text: z.string(),
  ts,
  status: z.enum(["PENDING", "UPHELD", "REJECTED"]),
  tsDecided: ts.optional(),
});

const stayFields = {
  id,
  reason: z.string(),
  lines: z.array(z.string()),
  step: z.number(),
  tsStart: ts,
  until: ts,
  restricts: z.array(z.enum(RESTRICTED_ACTIONS)),
  quizAt: ts.nullable(),
  ended: z.enum(["ADMIN", "APPEAL"]).nullable(),
  tsEnded: ts.nullable(),
};

/** The reform card: what its member sees (never who reported, never a juror). */
const ReformCard = z.strictObject({
  ...stayFields,
  appeal: z.strictObject({ status: Appeal.shape.status, ts }).nullable(),
  active: z.boolean(),
});

/** A stay as admins see it. */
const Stay = z.strictObject({
  ...stayFields,
  profileId: id,
  reportId: id,
  decidedBy: z.enum(["JURY", "ADMIN"]),
  appeal: Appeal.nullable(),
});

export const DUNGEON_RESPONSES = {
  "GET /api/games/dungeon": { 200: z.strictObject({ serving: z.number(), card: ReformCard.nullable() }) },
  "POST /api/games/dungeon/quiz": {
    200: z.union([
      z.strictObject({ passed: z.literal(true), card: ReformCard }),
      z.strictObject({ passed: z.literal(false), wrong: z.array(z.number()) }),
    ]),
  },
  "POST /api/games/dungeon/appeal": { 201: z.strictObject({ card: ReformCard }) },
  "GET /api/admin/dungeon": {
    200: z.strictObject({
      items: z.array(z.strictObject({
        stayId: id,
        profileId: id,
        name: z.string().nullable(),
        reason: z.string(),
        step: z.number(),
        tsStart: ts,
        until: ts,
        active: z.boolean(),
        appeal: Appeal.nullable(),
      })),
    }),
  },
  "PUT /api/admin/dungeon/appeals/:stayId": { 200: Stay },
  "DELETE /api/admin/dungeon/stays/:profileId": { 200: Stay },
};
