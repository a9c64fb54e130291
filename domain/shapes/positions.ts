/** The map's aggregates of positions (`GET /api/profile-positions/aggregates`). */

import type { ApiAnswer } from "../contract.ts";

/** Visible members per 1-degree sector (spec "Position aggregate"); delta* is the cell's full size. */
export type PositionAggregate = ApiAnswer<"GET /api/profile-positions/aggregates">[number];
