/** Messages (spec §3) and the pages of a conversation or a Map Chat sector. */

import type { ApiAnswer } from "../contract.ts";

/** A message (spec §3). `recipientProfileId` is absent for a broadcast, which has a `sector`. */
export type Message = ApiAnswer<"POST /api/message">;

/** Who a list mentions: each profile's name and first public picture. */
export type People = MessagePage["people"];

/** One page of messages with the people it mentions (what the API answers and pages render). */
export type MessagePage = ApiAnswer<"GET /api/messages/between/:a/:b">;

/** What POST /api/message takes (spec §7). */
export interface NewMessage {
  senderProfileId: string;
  recipientProfileId?: string;
  bodyText: string;
  profilePicIds: string[];
  /** Private pictures that open once for the recipient. */
  viewOnce?: boolean;
}
