/**
 * The security headers of every answer (design.md; decision 0294). Two sets:
 *
 * - **a JSON answer** (`Content-Type: application/json`, the API's answers and its errors) gets the
 *   headers that act on a response a browser does not render as a document: a short CSP that
 *   allows nothing (`default-src 'none'`, no base, no plugins, never framed), HSTS, nosniff,
 *   Referrer-Policy no-referrer, X-Frame-Options DENY and Cross-Origin-Resource-Policy same-origin;
 * - **every other answer** (pages, HTML error pages, static files, pictures, event streams) gets
 *   the full set, the page's CSP among them, as Hono's `secureHeaders()` gave it with the app's
 *   options.
 *
 * Both lists are made once (the full one again only when the live listener's port changes).
 */

import type { MiddlewareHandler } from "hono";
import { livePort } from "./livePort.ts";
import { SPECULATION_RULES_HASH } from "./speculation.ts";
import { AFTER_PICTURES_HASH } from "./afterPictures.ts";
import { isJson } from "./bodylimit.ts";

/** A header's name and value. */
export type HeaderList = readonly (readonly [string, string])[];

/**
 * The Content-Security-Policy's directives (design.md): no inline script but the speculation rules
 * and the grid's loader of its scripts after its first pictures, by their hashes.
 */
function cspDirectives(livePort: number | null): [string, string[]][] {
  return [
    ["default-src", ["'self'"]],
    // The pages' inline scripts, by their hashes: the speculation rules (JSON, routes/speculation.ts) and
    // the grid's scripts added after its first pictures (routes/afterPictures.ts).
    ["script-src", ["'self'", SPECULATION_RULES_HASH, AFTER_PICTURES_HASH]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:", "blob:"]],
    // The live listener's port, when pages open their event socket there (routes/live.ts).
    ["connect-src", ["'self'", livePort === null ? "" : `ws://*:${livePort} wss://*:${livePort}`]],
    ["object-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["frame-ancestors", ["'none'"]],
    ["form-action", ["'self'"]],
    ["worker-src", ["'self'"]],
    ["manifest-src", ["'self'"]],
  ];
}

/**
 * Every security header of a page (and of any answer but JSON), worked out once per live port (the
 * one part that can change, when the live listener starts).
 */
export function securityHeaderList(livePort: number | null): HeaderList {
  const csp = cspDirectives(livePort).map(([name, values]) => `${name}${values.map((v) => ` ${v}`).join("")}`)
    .join("; ");
  return [
    ["Cross-Origin-Resource-Policy", "same-origin"],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Origin-Agent-Cluster", "?1"],
    ["Referrer-Policy", "no-referrer"],
    ["Strict-Transport-Security", "max-age=63072000; includeSubDomains"],
    ["X-Content-Type-Options", "nosniff"],
    ["X-DNS-Prefetch-Control", "off"],
    ["X-Download-Options", "noopen"],
    ["X-Frame-Options", "DENY"],
    ["X-Permitted-Cross-Domain-Policies", "none"],
    ["X-XSS-Protection", "0"],
    ["Content-Security-Policy", csp],
  ];
}

/**
 * The security headers of a JSON answer: those that act on a response that is not a document.
 * The policy allows nothing to load or run (stricter than a page's, which a JSON answer has no use
 * for) and keeps design.md's three directives; X-Frame-Options stays beside `frame-ancestors` for
 * browsers that know only it (OWASP's REST Security Cheat Sheet lists both for API answers).
 */
export const JSON_SECURITY_HEADERS: HeaderList = [
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Referrer-Policy", "no-referrer"],
  ["Strict-Transport-Security", "max-age=63072000; includeSubDomains"],
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Content-Security-Policy", "default-src 'none'; base-uri 'none'; object-src 'none'; frame-ancestors 'none'"],
];

/** The live port the kept page list was worked out for (undefined: none yet), and the list. */
let headersPort: number | null | undefined;
let headerList: HeaderList = [];

/**
 * Sets the security headers on an answer's `headers` (and drops X-Powered-By): a JSON answer's
 * set when its Content-Type is `type` JSON, else the full set.
 */
export function setSecurityHeaders(headers: Headers, type: string | null): void {
  let list = JSON_SECURITY_HEADERS;
  if (!isJson(type)) {
    const now = livePort();
    if (now !== headersPort) [headersPort, headerList] = [now, securityHeaderList(now)];
    list = headerList;
  }
  for (const [name, value] of list) headers.set(name, value);
  headers.delete("X-Powered-By");
}

/** Security headers of design.md, as middleware (for the apps of tests that use it alone). */
export function securityHeaders(): MiddlewareHandler {
  return async function securityHeaders(c, next) {
    await next();
    setSecurityHeaders(c.res.headers, c.res.headers.get("content-type"));
  };
}
