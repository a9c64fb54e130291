/** A member's private notes about other profiles. */

import type { ApiAnswer } from "../contract.ts";

/** A member's private note and tags about another profile. */
export type ProfileNote = ApiAnswer<"PUT /api/profile-note">;
