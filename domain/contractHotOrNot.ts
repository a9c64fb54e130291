/** The API contract of Hot or Not (domain/contract.ts spreads it into RESPONSES). */

import * as z from "zod";

const ts = z.number();
const status = z.enum(["RUNNING", "DONE", "STOPPED"]);

const HotTestView = z.strictObject({
  id: z.string(),
  status,
  tsCreated: ts,
  tsEnds: ts,
  tsDone: ts.nullable(),
  /** Counted votes each picture needs. */
  target: z.number(),
  pictures: z.array(z.strictObject({
    picId: z.string(),
    nsfw: z.boolean(),
    /** Counted votes this picture took part in. */
    votes: z.number(),
    /** Lean-corrected share of wins, 0..1; null before a counted vote. */
    share: z.number().nullable(),
    low: z.number(),
    high: z.number(),
  })),
  careless: z.number(),
  skips: z.number(),
  /** The picture with the highest share once the test ended (null while running or with no vote). */
  best: z.string().nullable(),
});

const KeepBest = z.strictObject({
  on: z.boolean(),
  since: ts.nullable(),
  /** The app's latest moves, newest first: which picture it put first, and when. */
  moves: z.array(z.strictObject({ picId: z.string(), ts })),
  /** Whether Undo can put an earlier order back. */
  canUndo: z.boolean(),
});

const PairPic = z.strictObject({ nsfw: z.boolean() });

export const HOT_OR_NOT_RESPONSES = {
  "GET /api/games/hotornot": {
    200: z.strictObject({
      pictures: z.array(z.strictObject({ picId: z.string(), nsfw: z.boolean() })),
      current: HotTestView.nullable(),
      earlier: z.array(HotTestView),
      keepBest: KeepBest,
      credits: z.number(),
    }),
  },
  "POST /api/games/hotornot/tests": { 201: z.strictObject({ test: HotTestView }) },
  "GET /api/games/hotornot/tests/:testId": { 200: z.strictObject({ test: HotTestView }) },
  "DELETE /api/games/hotornot/tests/:testId": { 200: z.strictObject({ test: HotTestView }) },
  "POST /api/games/hotornot/tests/:testId/best-first": { 200: z.strictObject({ profilePicIds: z.array(z.string()) }) },
  "GET /api/games/hotornot/next": {
    200: z.strictObject({
      item: z.strictObject({ testId: z.string(), deal: ts, left: PairPic, right: PairPic }).nullable(),
      credits: z.number(),
    }),
  },
  "PUT /api/games/hotornot/vote": {
    200: z.strictObject({
      counted: z.boolean(),
      why: z.enum(["FAST", "SAME_SIDE"]).nullable(),
      credited: z.boolean(),
      credits: z.number(),
      ended: z.boolean(),
    }),
  },
  "PUT /api/games/hotornot/keep-best": { 200: z.strictObject({ keepBest: KeepBest }) },
  "POST /api/games/hotornot/keep-best/undo": {
    200: z.strictObject({ keepBest: KeepBest, profilePicIds: z.array(z.string()) }),
  },
  "GET /api/admin/games/hotornot": {
    200: z.strictObject({ running: z.number(), votes: z.number(), careless: z.number() }),
  },
} as const;
