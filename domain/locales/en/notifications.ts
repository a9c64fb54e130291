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
} as const;

export type EnNotifications = typeof EN_NOTIFICATIONS;
