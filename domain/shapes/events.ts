/** The live stream's events (`GET /api/events`). */

/** What changed for a member: carried by the live stream, with the ids a page needs. */
export type MemberEvent =
  | { type: "notifications" }
  | { type: "message"; id: string; from: string; to: string }
  | { type: "read"; by: string; of: string }
  | { type: "message-deleted"; id: string; with: string; scope: "me" | "both" }
  | { type: "conversation-deleted"; with: string }
  | { type: "picture"; id: string }
  | { type: "typing"; from: string }
  | { type: "opened"; id: string }
  /**
   * A secret chat changed (docs/secret-chats.md): a new message (`message`), the other member's
   * read receipt (`read`), or its members or devices (`chat`: started, a device asks or joined).
   * Only the chat's id: the page fetches the ciphertexts as it would otherwise.
   */
  | { type: "secret"; chatId: string; what: "message" | "read" | "chat" }
  /** The member's sessions were ended (a suspension or ban): their open streams close. */
  | { type: "session-ended" }
  /** Reads every instance forgets (kv/kept.ts: `name` is a `KeptName`); never sent to a page. */
  | { type: "forget"; name: string; ids: string[] }
  /** Sessions that ended (logout, log out elsewhere, a new password, deletion); never sent to a page. */
  | { type: "sessions-ended"; ids: string[] }
  /** Live feeds replaced by a member's newer ones, on whichever instance holds them; never sent to a page. */
  | { type: "feeds-ended"; ids: string[] };
