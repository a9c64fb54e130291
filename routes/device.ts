/**
 * What a device chose for itself, kept in cookies rather than in the account: discreet mode (what
 * its tabs, history and home screen show) and its colour scheme. Every page reads them so the first
 * paint is right; routes/api/safety.ts and routes/api/settings.ts set them.
 */

import type { Context } from "hono";
import { getCookie } from "hono/cookie";

/** The discreet-mode cookie of a device. */
export const DISCREET_COOKIE = "discreet";

/** Is this device in discreet mode? */
export function isDiscreet(c: Context): boolean {
  return getCookie(c, DISCREET_COOKIE) === "1";
}

/** This device's colour scheme: the system's (no cookie), or always light or dark. */
export const THEMES = ["system", "light", "dark"] as const;
export type Theme = typeof THEMES[number];
export const THEME_COOKIE = "theme";

/** The colour scheme this device chose (Account settings), read by every page so the first paint is right. */
export function themeOf(c: Context): Theme {
  const v = getCookie(c, THEME_COOKIE);
  return v === "light" || v === "dark" ? v : "system";
}
