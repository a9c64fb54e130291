/** The app's middleware: security headers, session, origin check, errors (the request log: telemetry.ts). */

import type { Context, MiddlewareHandler } from "hono";
import { AsyncLocalStorage } from "node:async_hooks";
import { getCookie } from "hono/cookie";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import { getConnInfo } from "hono/deno";
import { livePort } from "./livePort.ts";
import type { AppEnv, Caller } from "./env.ts";
import { ApiError, errorBody, forbidden, unauthorized } from "./errors.ts";
import { config } from "../config/config.ts";
import { getSession } from "../kv/sessions.ts";
import { accountWithGrants } from "../kv/roles.ts";
import { accountNotice } from "../kv/moderation.ts";
import { getProfile } from "../kv/profiles.ts";
import { BadCursorError } from "../kv/paging.ts";
import { brandFor } from "../domain/brand.ts";
import { CACHE_ID_HEADER } from "../islands/sw/caches.ts";
import { isDiscreet } from "./api/safety.ts";
import { type Locale, negotiate, setRequestLocaleSource } from "../domain/i18n.ts";

/** Security headers of design.md: CSP without inline script, HSTS, nosniff, no referrer. */
export function securityHeaders(): MiddlewareHandler {
  const tiles = tileOrigin();
  return secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", "data:", "blob:", ...(tiles ? [tiles] : [])],
      // The live listener's port, when pages open their event socket there (routes/live.ts).
      connectSrc: ["'self'", () => {
        const port = livePort();
        return port === null ? "" : `ws://*:${port} wss://*:${port}`;
      }],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
      formAction: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
    },
    strictTransportSecurity: "max-age=63072000; includeSubDomains",
    xContentTypeOptions: "nosniff",
    referrerPolicy: "no-referrer",
    xFrameOptions: "DENY",
    crossOriginResourcePolicy: "same-origin",
    crossOriginOpenerPolicy: "same-origin",
  });
}

function tileOrigin(): string | undefined {
  const m = config.tileUrl.match(/^(https?:\/\/[^/]+)/);
  return m?.[1].replace(/\{s\}\./, "*.");
}

/** The session cookie: `__Host-` and Secure on https and localhost, a plain name on plain-http hosts. */
export function sessionCookieName(c: Context): string {
  return isSecureContext(c) ? "__Host-sid" : "sid";
}

/** https, or a localhost address that browsers treat as secure. */
export function isSecureContext(c: Context): boolean {
  const url = new URL(c.req.url);
  const proto = config.trustProxy
    ? c.req.header("x-forwarded-proto") ?? url.protocol.slice(0, -1)
    : url.protocol.slice(0, -1);
  return proto === "https" || url.hostname === "localhost" || url.hostname === "127.0.0.1";
}

/** The caller's network address (for rate limits only, never logged). */
export function clientAddress(c: Context): string {
  if (config.trustProxy) {
    const fwd = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (fwd) return fwd;
  }
  try {
    return getConnInfo(c).remote.address ?? "local";
  } catch {
    return "local";
  }
}

/** Loads the caller from the session cookie into `c.var.caller`, and the brand from the host. */
export function session(): MiddlewareHandler<AppEnv> {
  return async function session(c, next) {
    c.set("brand", brandFor(new URL(c.req.url).hostname));
    c.set("caller", null);
    c.set("notice", null);
    const token = getCookie(c, "__Host-sid") ?? getCookie(c, "sid");
    if (token) {
      const s = await getSession(token);
      // Stored roles plus the live granted ones (an earned VOLUNTEER role), in the one read.
      const account = s && await accountWithGrants(s.accountId);
      if (s && account) {
        const caller: Caller = {
          sessionId: s.id,
          accountId: account.id,
          profileId: account.defaultProfileId,
          email: account.email,
          name: account.name,
          roles: account.roles,
          hasPassword: account.passwordHash !== null,
          accountCreated: account.tsCreated,
          ...(account.language ? { language: account.language } : {}),
          ...(account.onboarding ? { onboarding: account.onboarding } : {}),
        };
        c.set("caller", caller);
        c.header(CACHE_ID_HEADER, await offlineCacheId(s.id, isDiscreet(c)));
        // A page shows the member's moderation notice; API calls skip the read.
        if (!c.req.path.startsWith("/api/")) c.set("notice", await accountNotice(account.id));
      }
    }
    const locale = c.get("caller")?.language ?? negotiate(c.req.header("accept-language"));
    c.set("locale", locale);
    // The catalogues read the request's language wherever a text is read while serving it.
    await requestLocales.run(locale, next);
  };
}

/**
 * The name of this session's offline caches on the device (islands/sw/worker.ts keeps pages,
 * reads and pictures under it, and wipes them when an answer names another or none): a hash of the
 * session's public id, never the session's token. Discreet mode has its own, so pages kept before
 * it was turned on are wiped and the kept ones are the discreet ones.
 */
export async function offlineCacheId(sessionId: string, discreet: boolean): Promise<string> {
  const data = new TextEncoder().encode(`offline-cache\0${sessionId}${discreet ? "\0discreet" : ""}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data));
  return [...digest.slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const requestLocales = new AsyncLocalStorage<Locale>();
setRequestLocaleSource(() => requestLocales.getStore());

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing calls from other sites. A browser's Sec-Fetch-Site (which no page can
 * forge) must be same-origin or none; without it, an Origin header must be this host's (a
 * missing, "null" or foreign one is refused). Calls without either header come from non-browser
 * clients, which carry no ambient cookies to abuse. Sec-Fetch-Site is trusted first because a
 * same-origin form post sends `Origin: null` under this app's `Referrer-Policy: no-referrer`.
 */
export function originCheck(): MiddlewareHandler {
  return async function originCheck(c, next) {
    if (!SAFE.has(c.req.method)) {
      const site = c.req.header("sec-fetch-site");
      const origin = c.req.header("origin");
      if (site) {
        if (site !== "same-origin" && site !== "none") throw forbidden("Cross-site requests are refused.");
      } else if (origin !== undefined && !isOwnOrigin(c, origin)) {
        throw forbidden("Cross-site requests are refused.");
      }
    }
    await next();
  };
}

/** Is `origin` this app's origin (PUBLIC_ORIGIN, or the request's host)? Never throws on junk. */
export function isOwnOrigin(c: Context, origin: string): boolean {
  const own = config.publicOrigin ?? new URL(c.req.url).origin;
  if (origin === own) return true;
  const host = c.req.header("host");
  if (!host || !URL.canParse(origin)) return false;
  return new URL(origin).host === host;
}

/** API guard: a logged-in caller, else 401. */
export function requireCaller(c: Context<AppEnv>): Caller {
  const caller = c.get("caller");
  if (!caller) throw unauthorized();
  return caller;
}

/**
 * API guard: `profileId` is one of the caller's own profiles, else 403 (also for a profile that
 * does not exist, so the answer tells nothing about other members). Admins get no exception.
 */
export async function requireOwnProfile(c: Context<AppEnv>, profileId: string): Promise<Caller> {
  const caller = requireCaller(c);
  if (profileId === caller.profileId) return caller;
  const profile = await getProfile(profileId);
  if (profile?.accountId !== caller.accountId) throw forbidden();
  return caller;
}

/** API guard: an admin caller, else 401/403. */
export function requireAdmin(c: Context<AppEnv>): Caller {
  const caller = requireCaller(c);
  if (!caller.roles.includes("ADMIN")) throw forbidden("Admins only.");
  return caller;
}

/**
 * Maps every error to `{error: {code, message, requestId}}`; unknown errors are logged (with the
 * request id, so a member's report finds the line) and answered 500.
 */
export function toErrorResponse(err: Error, c: Context): Response {
  const id = c.get("requestId") as string | undefined;
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message, id), err.status);
  if (err instanceof BadCursorError) return c.json(errorBody("bad_cursor", err.message, id), 400);
  if (err instanceof HTTPException) {
    const status = err.status;
    const code = status === 413 ? "too_large" : status === 401 ? "unauthorized" : "http_error";
    return c.json(errorBody(code, err.message || "Request refused.", id), status);
  }
  console.error(`error on ${c.req.method} ${c.req.path} (request ${id}):`, err);
  return c.json(errorBody("internal", "Something went wrong on our side.", id), 500);
}
