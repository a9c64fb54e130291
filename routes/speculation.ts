/**
 * The speculation rules of a member's pages: the screens a member is likely to open next are
 * fetched ahead (the tab targets and the profiles in view, when they come into view), so a tap
 * finds its document already here. Nothing is prerendered: a prerender the browser starts when a
 * tap starts made the tap slower than the fetched page, and one started ahead for every profile
 * in view costs a phone more than it saves (decision 0128). Links opened in the page (the grid's
 * tiles) fetch their pages themselves (decision 0130). Only pages
 * whose GET changes nothing are named (never /logout, nothing with a query). The rules are one
 * fixed inline script: the CSP allows exactly it by its hash (routes/middleware.ts).
 */

import { createHash } from "node:crypto";
import { IN_PAGE } from "../islands/screenChange.ts";

/** The app's screens that may be fetched ahead. */
const SCREENS = [
  "/",
  "/search/tile",
  "/search/map",
  "/search/swype",
  "/search/profile",
  "/chat/personal",
  "/chat/broadcast",
  "/likes/*",
  "/profileEdit",
  "/settings",
  "/profile/*",
  "/profile/*#*",
];

/** Links opened in the page fetch their page themselves (islands/inPage.ts): the browser leaves them. */
const where = {
  and: [{ or: SCREENS.map((href_matches) => ({ href_matches })) }, { not: { selector_matches: `[${IN_PAGE}]` } }],
};
/** The rules, as the page writes them: every screen fetched ahead when its link is in view. */
export const SPECULATION_RULES = JSON.stringify({ prefetch: [{ where, eagerness: "eager" }] });

/** Its CSP source: the SHA-256 of the script's text. */
export const SPECULATION_RULES_HASH = `'sha256-${createHash("sha256").update(SPECULATION_RULES).digest("base64")}'`;
