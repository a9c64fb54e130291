/**
 * Requests that must write nothing naming their caller at the moment they are made (a health report,
 * its page and contact list; docs/health-notices.md): they write no session lastSeen, so none dates
 * the report (routes/middleware.ts), and such a page opens no live feed and fetches nothing ahead
 * (routes/pages/render.tsx).
 */

import type { Context } from "hono";

export const QUIET_REQUESTS: ReadonlySet<string> = new Set([
  "GET /games/healthreport",
  "GET /api/games/healthreport/contacts",
  "POST /api/games/healthreport",
]);

/** The paths of `QUIET_REQUESTS`: every other request is told by its path alone, no name made for it. */
const QUIET_PATHS: ReadonlySet<string> = new Set([...QUIET_REQUESTS].map((r) => r.slice(r.indexOf(" ") + 1)));

/** Is this request one of `QUIET_REQUESTS`? */
export function isQuietRequest(c: Context): boolean {
  const path = c.req.path;
  return QUIET_PATHS.has(path) && QUIET_REQUESTS.has(`${c.req.method} ${path}`);
}
