/**
 * What a device chose for itself, kept in cookies rather than in the account: discreet mode (what
 * its tabs, history and home screen show) and its colour scheme. Every page reads them so the first
 * paint is right; routes/api/safety.ts and routes/api/settings.ts set them.
 */

import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { type Theme, THEME_COOKIE } from "../domain/device.ts";

/** The discreet-mode cookie of a device. */
export const DISCREET_COOKIE = "discreet";

/** Is this device in discreet mode? */
export function isDiscreet(c: Context): boolean {
  return getCookie(c, DISCREET_COOKIE) === "1";
}

export { THEME_COOKIE, THEMES } from "../domain/device.ts";
export type { Theme };

/** The colour scheme this device chose (Account settings), read by every page so the first paint is right. */
export function themeOf(c: Context): Theme {
  const v = getCookie(c, THEME_COOKIE);
  return v === "light" || v === "dark" ? v : "system";
}
