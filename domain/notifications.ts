/**
 * Texts of the in-app and push notifications. Each stays discreet: it may show on a lock screen,
 * so it never names a member or quotes a message.
 */

export const NOTIFICATION_TEXTS = {
  /** A conversation's one unread notification, for `n` messages since it was last read. */
  messages: (n: number) => n <= 1 ? "You have a new message." : `You have ${n} new messages.`,
  profileLiked: "Someone liked your profile.",
  picLiked: "Someone liked your picture.",
  cropSuggested: "Someone suggested a crop for your picture.",
} as const;
