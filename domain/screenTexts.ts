/**
 * Texts of the app's screens that are ours, not the spec's (the photo-first profile, the chat
 * screen, the conversation list, onboarding), in the three languages (the English in
 * domain/locales/en/screenTexts.ts); and the chat list's relative times ("2 min", "Yesterday").
 */

import { catalogue, dateTimeFormat, intlLocale, type Locale, numberFormat } from "./i18n.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";
import { EN_SCREEN_TEXTS } from "./locales/en/screenTexts.ts";

export const SCREEN_TEXTS = catalogue("SCREEN_TEXTS", EN_SCREEN_TEXTS, {
  es: es.SCREEN_TEXTS,
  "pt-BR": ptBR.SCREEN_TEXTS,
  fr: fr.SCREEN_TEXTS,
  ar: ar.SCREEN_TEXTS,
});

/**
 * When a message was sent, as a chat list says it: "now", "2 min" within the hour, the time of
 * day today ("14:05"), "Yesterday", the weekday within a week, else the date. `at` is now;
 * both are read in the reader's time zone (the browser's; the server prints UTC instead).
 */
export function chatTimeText(ts: number, at: number, lang: Locale): string {
  const s = Math.max(0, Math.round((at - ts) / 1000));
  if (s < 60) return SCREEN_TEXTS.now;
  // "2 min": Intl writes the minutes in the language.
  if (s < 3600) {
    return numberFormat(intlLocale(lang), { style: "unit", unit: "minute", unitDisplay: "short" })
      .format(Math.floor(s / 60));
  }
  const d = new Date(ts), today = new Date(at);
  const dayStart = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((dayStart(today) - dayStart(d)) / 86_400_000);
  const l = intlLocale(lang);
  if (days <= 0) return dateTimeFormat(l, { hour: "numeric", minute: "2-digit" }).format(d);
  if (days === 1) return SCREEN_TEXTS.yesterday;
  if (days < 7) return dateTimeFormat(l, { weekday: "long" }).format(d);
  const sameYear = d.getFullYear() === today.getFullYear();
  return dateTimeFormat(
    l,
    sameYear ? { month: "short", day: "numeric" } : { month: "short", day: "numeric", year: "numeric" },
  )
    .format(d);
}
