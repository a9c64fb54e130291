/** The volunteer role's rules (the games earn it: domain/games.ts), and how a day is written. */

import { dateTimeFormat, intlLocale, locale } from "./i18n.ts";

/** Credits earned within VOLUNTEER_WINDOW_DAYS that make a member a volunteer. */
export const VOLUNTEER_CREDITS = 100;
/** The credits that count toward the volunteer role: those of the last this many UTC days, today included. */
export const VOLUNTEER_WINDOW_DAYS = 30;
/** The volunteer role lasts this many days after the credit that earned (or renewed) it. */
export const VOLUNTEER_ROLE_DAYS = 30;

/** A date as members read it, in UTC, in the language in use: "14 March 2026", "14 de marzo de 2026". */
export function formatDay(ts: number): string {
  const l = locale();
  return dateTimeFormat(l === "en" ? "en-GB" : intlLocale(l), {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(ts);
}
