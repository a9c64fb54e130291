/** English texts of the notifications (domain/notifications.ts): the catalogue's keys and the words the translations follow. */

export const EN_NOTIFICATIONS = {
  /** A conversation's one unread notification, for `n` messages since it was last read. */
  messages: (n: number) => n <= 1 ? "You have a new message." : `You have ${n} new messages.`,
  profileLiked: "Someone liked your profile.",
  picLiked: "Someone liked your picture.",
  cropSuggested: "Someone suggested a crop for your picture.",
  /** A health notice became visible (/games/cooties): neutral, it may show on a lock screen. */
  healthNotice: "A health notice for you.",
  /** A push to a device in discreet mode, or to a member where being gay is a crime: it names neither the app nor what happened. */
  neutral: "You have a new note.",
  /** A message in a secret chat (docs/secret-chats.md): nothing of it, nor who sent it. */
  secretMessage: "New secret message",
  /** To each admin: a member began a third time-out within 90 days (kv/games/dungeon.ts). */
  dungeonThirdStay: "A member started a third time-out within 90 days.",
  /** To each admin: a report no one decided within 48 hours. */
  reportWaited: "A report waited 48 hours without a decision.",
  /** To the member, when a time-out of the first, second or third step starts: only them; a discreet device gets `neutral`. */
  dungeonStay1:
    "You are in a time-out for 24 hours: no first messages, likes or Map Chat posts. Bad Boy Dungeon says why, and how to shorten it.",
  dungeonStay2:
    "You are in a time-out for 3 days: no first messages, likes or Map Chat posts. Bad Boy Dungeon says why, and how to shorten it.",
  dungeonStay3:
    "You are in a time-out for 7 days: no first messages, likes or Map Chat posts. Bad Boy Dungeon says why, and how to shorten it.",
} as const;

export type EnNotifications = typeof EN_NOTIFICATIONS;
