/**
 * Texts of the in-app and push notifications. Each stays discreet: it may show on a lock screen,
 * so it never names a member or quotes a message.
 */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es.ts";
import * as ptBR from "./locales/ptBR.ts";

const EN_NOTIFICATIONS = {
  /** A conversation's one unread notification, for `n` messages since it was last read. */
  messages: (n: number) => n <= 1 ? "You have a new message." : `You have ${n} new messages.`,
  profileLiked: "Someone liked your profile.",
  picLiked: "Someone liked your picture.",
  cropSuggested: "Someone suggested a crop for your picture.",
  /** A health notice became visible (/games/cooties): neutral, it may show on a lock screen. */
  healthNotice: "A health notice for you.",
} as const;

export const NOTIFICATION_TEXTS = catalogue("NOTIFICATION_TEXTS", EN_NOTIFICATIONS, {
  es: es.NOTIFICATION_TEXTS,
  "pt-BR": ptBR.NOTIFICATION_TEXTS,
});
export type EnNotifications = typeof EN_NOTIFICATIONS;
