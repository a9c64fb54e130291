/** In-app notifications (spec §3). */

import type { ApiAnswer } from "../contract.ts";

/** A notification (spec §3); `count` is how many messages a conversation's notification stands for. */
export type Notification = ApiAnswer<"GET /api/notifications/:profileId">[number];
