/**
 * Texts of the in-app and push notifications. Each stays discreet: it may show on a lock screen,
 * so it never names a member or quotes a message.
 */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";
import { EN_NOTIFICATIONS } from "./locales/en/notifications.ts";

export const NOTIFICATION_TEXTS = catalogue("NOTIFICATION_TEXTS", EN_NOTIFICATIONS, {
  es: es.NOTIFICATION_TEXTS,
  "pt-BR": ptBR.NOTIFICATION_TEXTS,
  fr: fr.NOTIFICATION_TEXTS,
  ar: ar.NOTIFICATION_TEXTS,
});
