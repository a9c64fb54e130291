/** Messages (spec §3) and the pages of a conversation or a Map Chat sector. */

/** A message (spec §3). `recipientProfileId` is absent for a broadcast, which has a `sector`. */
export interface Message {
  id: string;
  senderProfileId: string;
  recipientProfileId?: string;
  sector?: string;
  bodyText: string;
  profilePicIds: string[];
  tsCreated: number;
  tsRecipientRead?: number;
  tsRecipientDeleted?: number;
  tsSenderDeleted?: number;
  /** The pictures open once for the recipient, then their grant ends ("view once"). */
  viewOnce?: true;
  /** When the recipient opened a view-once message. */
  tsOpened?: number;
  /** A first message that looks like spam (kv/spam.ts): the recipient sees it only when they ask. */
  held?: true;
}

/** Who a list mentions: each profile's name and first public picture. */
export type People = Record<string, { profileName: string; picId: string | null }>;

/** One page of messages with the people it mentions (what the API answers and pages render). */
export interface MessagePage {
  items: Message[];
  hasMore: boolean;
  people: People;
}

/** What POST /api/message takes (spec §7). */
export interface NewMessage {
  senderProfileId: string;
  recipientProfileId?: string;
  bodyText: string;
  profilePicIds: string[];
  /** Private pictures that open once for the recipient. */
  viewOnce?: boolean;
}
