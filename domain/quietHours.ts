/**
 * When pushes stay quiet. The conversation a member has in view: its page says so every
 * LOOKING_EVERY_MS, and the mark lasts LOOKING_KEEP_MS past the last time (a closed or hidden
 * page stops saying it), so a push for it is held back only while it is really on screen.
 *
 * "Do not disturb" hours (Account settings): a daily span, in the member's own time zone, during
 * which no push notification is sent to any of their devices (the in-app notification is stored
 * all the same). A span may run past midnight (22:00 to 07:00).
 */

import { dateTimeFormat } from "./i18n.ts";

/** A page with a conversation in view says so this often... */
export const LOOKING_EVERY_MS = 20_000;
/** ...and the mark lasts this long past the last time it did. */
export const LOOKING_KEEP_MS = 45_000;

/** The member's do-not-disturb hours: "HH:MM" from and to, in an IANA time zone. */
export interface QuietHours {
  from: string;
  to: string;
  timeZone: string;
}

/** "HH:MM", 00:00 to 23:59. */
export const CLOCK_TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** True for a time zone the runtime knows (an IANA name such as "Europe/Madrid", or "UTC"). */
export function isTimeZone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    clockIn(tz);
    return true;
  } catch {
    return false;
  }
}

/** The 24-hour clock of a time zone (throws a RangeError for a zone the runtime does not know). */
function clockIn(timeZone: string): Intl.DateTimeFormat {
  return dateTimeFormat("en-GB", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/** Minutes since midnight of "HH:MM". */
function minutesOf(clock: string): number {
  const [h, m] = clock.split(":").map(Number);
  return h * 60 + m;
}

/** Minutes since local midnight in `timeZone` at `at` (ms since the epoch). */
export function localMinutes(at: number, timeZone: string): number {
  const parts = clockIn(timeZone).formatToParts(new Date(at));
  const h = Number(parts.find((p) => p.type === "hour")?.value ?? 0);
  const m = Number(parts.find((p) => p.type === "minute")?.value ?? 0);
  return h * 60 + m;
}

/**
 * Is `at` inside the do-not-disturb hours? From is inclusive, to exclusive; equal from and to
 * mean the whole day. An unknown time zone counts as UTC rather than failing a push.
 */
export function inQuietHours(q: QuietHours | null | undefined, at: number): boolean {
  if (!q) return false;
  const from = minutesOf(q.from), to = minutesOf(q.to);
  const t = localMinutes(at, isTimeZone(q.timeZone) ? q.timeZone : "UTC");
  if (from === to) return true;
  return from < to ? t >= from && t < to : t >= from || t < to;
}
