/**
 * How long a device may show a member's private copies without a connection (the service worker,
 * islands/sw/worker.ts, applies it). Private copies are shown offline only while the member's
 * session was confirmed (an answer made for it, signed in) within `OFFLINE_CONFIRMED_MS`; past it
 * the device shows the offline page and forgets them, as the session may have ended elsewhere
 * meanwhile. The pages' persisted query cache is only ever shown inside those pages, and keeps
 * 24 h at most on its own (islands/queries/client.tsx, the same figure).
 */

/** The longest a session's last confirmation lets private copies be shown offline: 24 hours. */
export const OFFLINE_CONFIRMED_MS = 24 * 3_600_000;

/**
 * A confirmation this far in the future is believed (clocks of a device drift, or are set back a
 * little); one further ahead means the clock was set back far, and is not.
 */
export const CONFIRMATION_SKEW_MS = 5 * 60_000;

/**
 * May private copies be shown offline, the session last confirmed at `confirmedAt` (ms since the
 * epoch; null: never on this device), at `now`?
 */
export function offlineCopiesUsable(
  confirmedAt: number | null,
  now: number,
  maxAgeMs: number = OFFLINE_CONFIRMED_MS,
): boolean {
  if (confirmedAt === null || !Number.isFinite(confirmedAt) || !Number.isFinite(now)) return false;
  const age = now - confirmedAt;
  return age >= -CONFIRMATION_SKEW_MS && age <= maxAgeMs;
}

/** Reads a stored confirmation time (text of a number), or null when absent or unreadable. */
export function parseConfirmedAt(text: string | null | undefined): number | null {
  if (!text || !/^\d{1,16}$/.test(text.trim())) return null;
  return Number(text.trim());
}
