/**
 * The speculation rules of a member's pages: the screens a member is likely to open next are
 * fetched ahead (the tab targets and the profiles in view, when they come into view); the grid's
 * profiles in view are prerendered, and any other screen when a tap or a hover starts, so a tap
 * shows the next screen at once. Only pages
 * whose GET changes nothing are named (never /logout, nothing with a query). The rules are one
 * fixed inline script: the CSP allows exactly it by its hash (routes/middleware.ts).
 */

import { createHash } from "node:crypto";

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

const where = { or: SCREENS.map((href_matches) => ({ href_matches })) };
/** The profiles the grid and home show: a tap on one is the likeliest next step. */
const profilesInView = {
  and: [{ href_matches: "/profile/*" }, { selector_matches: ".tile, .around-list a" }],
};

/**
 * The rules, as the page writes them: every screen fetched ahead when its link is in view, the
 * grid's profiles in view prerendered (the browser keeps at most a few), any other screen
 * prerendered when a tap or hover starts on its link.
 */
export const SPECULATION_RULES = JSON.stringify({
  prefetch: [{ where, eagerness: "eager" }],
  prerender: [{ where: profilesInView, eagerness: "eager" }, { where, eagerness: "moderate" }],
});

/** Its CSP source: the SHA-256 of the script's text. */
export const SPECULATION_RULES_HASH = `'sha256-${createHash("sha256").update(SPECULATION_RULES).digest("base64")}'`;
