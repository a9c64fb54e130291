/** The API contract of Bad Boy Dungeon (domain/contract.ts spreads it into RESPONSES). */

import * as z from "zod";

/** What a stay takes away (replies in a conversation under way, browsing and the games stay). */
export const RESTRICTED_ACTIONS = ["first_message", "like", "map_chat"] as const;
export type RestrictedAction = typeof RESTRICTED_ACTIONS[number];

const ts = z.number();
const id = z.string();

/** A member's appeal of a stay: once, decided by an admin, whose word is final. */
const Appeal = z.strictObject({
  text: z.string(),
  ts,
  status: z.enum(["PENDING", "UPHELD", "REJECTED"]),
  tsDecided: ts.optional(),
});

/** What a stay's member and admins both see of it. */
const stayFields = {
  id,
  /** The report's reason (a minor one: domain/dungeon.ts MINOR_REASONS). */
  reason: z.string(),
  /** The reported lines with every other member's name removed. */
  lines: z.array(z.string()),
  /** 1, 2 or 3: the stays that began within 90 days, this one included. */
  step: z.number(),
  tsStart: ts,
  /** When it ends (the quiz may bring it forward once). */
  until: ts,
  restricts: z.array(z.enum(RESTRICTED_ACTIONS)),
  /** When the quiz shortened it, or null. */
  quizAt: ts.nullable(),
  /** Ended before `until`: by an admin, or by an upheld appeal (then it counts for nothing). */
  ended: z.enum(["ADMIN", "APPEAL"]).nullable(),
  tsEnded: ts.nullable(),
};

/** The reform card: what its member sees (never who reported, never a juror). */
const ReformCard = z.strictObject({
  ...stayFields,
  appeal: z.strictObject({ status: Appeal.shape.status, ts }).nullable(),
  /** In force now (false: over, or ended early). */
  active: z.boolean(),
});

/** A stay as admins see it (and as it is stored). */
const Stay = z.strictObject({
  ...stayFields,
  profileId: id,
  reportId: id,
  /** Who decided: a strong jury, or an admin. */
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
