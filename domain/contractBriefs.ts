/** The compact form of a page of briefs (domain/contract.ts names it beside the spec's objects). */

import * as z from "zod";
import { BRIEF_FIELDS } from "./briefFields.ts";

const ts = z.number();
const id = z.string();

/**
 * A page of briefs as rows (by-bounds with `form=rows`): `fields` names each value of a row once
 * (domain/briefFields.ts), every member is a row of `ProfileBrief`'s values in that order; the
 * rest as `BriefsPage`.
 */
export const BriefsRows = z.strictObject({
  fields: z.array(z.enum(BRIEF_FIELDS)).length(BRIEF_FIELDS.length),
  rows: z.array(z.tuple([
    id,
    z.string(),
    z.number().nullable(),
    z.array(z.string()),
    z.string(),
    z.string(),
    z.array(id),
    z.number(),
    z.number(),
    z.number().nullable(),
    ts,
    z.boolean(),
    z.boolean(),
  ])),
  page: z.number(),
  size: z.number(),
  hasMore: z.boolean(),
  nearbyOnly: z.literal(true).optional(),
});
