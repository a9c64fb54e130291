/**
 * The app's middleware: session, client address, origin check, errors (the request log: telemetry.ts;
 * the security headers: securityHeaders.ts).
 */

import type { Context, MiddlewareHandler } from "hono";
import { AsyncLocalStorage } from "node:async_hooks";
import { getCookie } from "hono/cookie";
import { parse as parseCookies } from "hono/utils/cookie";
import { HTTPException } from "hono/http-exception";
import type { AppEnv, Caller, ResolvedClient } from "./env.ts";
import { ApiError, errorBody, forbidden, tooMany, unauthorized } from "./errors.ts";
import { config, isLoopbackAddress, normalizeAddress, type ProxyTrust } from "../config/config.ts";
import { accountHint, getSession, keptSession, type Session } from "../kv/sessions.ts";
import { sha256Hex } from "../kv/ids.ts";
import { accountWithGrants, keptAccountWithGrants } from "../kv/roles.ts";
import type { Account } from "../kv/accounts.ts";
import { accountNotice } from "../kv/moderation.ts";
import { eventBus } from "../kv/events.ts";
import { getProfile } from "../kv/profiles.ts";
import { BadCursorError } from "../kv/paging.ts";
import { type Brand, brandFor } from "../domain/brand.ts";
import { negotiate, type PageLang, pageLang, PSEUDO_LOCALE, setRequestLocaleSource } from "../domain/i18n.ts";
import { phrase } from "../domain/phrases.ts";
import { CACHE_ID_HEADER } from "../islands/sw/caches.ts";
import { DISCREET_COOKIE } from "./device.ts";
import { setNewest } from "../domain/newest.ts";
import { isQuietRequest } from "./quiet.ts";

/**
 * Takes every header of a request from the runtime in one call. Deno hands a served request's
 * headers over one by one, each read a call into the runtime, and once any is read it copies them
 * all anyway when the answer is sent (so they can still be read after); every request reads
 * several (the cookie, the client's address chain, the request id, the languages). Taken first,
 * each later read is a lookup in that copy, and the copy at the end finds them taken.
 */
export function takeRequestHeaders(req: Request): void {
  req.headers.has("cookie");
}

/** The session cookie: `__Host-` and Secure on https and localhost, a plain name on plain-http hosts. */
export function sessionCookieName(c: Context): string {
  return isSecureContext(c) ? "__Host-sid" : "sid";
}

/** https, or a localhost address that browsers treat as secure. */
export function isSecureContext(c: Context): boolean {
  const url = new URL(c.req.url);
  // The scheme the client used, as the proxy nearest to the app saw it (when that proxy is trusted).
  const forwarded = fromTrustedProxy(c) ? c.req.header("x-forwarded-proto")?.split(",").at(-1)?.trim() : undefined;
  const proto = forwarded || url.protocol.slice(0, -1);
  return proto === "https" || url.hostname === "localhost" || url.hostname === "127.0.0.1";
}

/** The caller's network address (for rate limits and the pages of this machine; never logged). */
export function clientAddress(c: Context): string {
  return resolvedClient(c).address;
}

/**
 * Is the caller this machine itself? The pages for the operator alone (`/dev/outbox`, `/metrics`
 * without its token) ask this. The connection itself must come from loopback, whatever a header
 * says; and a proxy on the same host connects from loopback: then only an address it names (when
 * trusted) counts, never its own connection.
 */
export function fromThisMachine(c: Context): boolean {
  return resolvedClient(c).thisMachine;
}

/** Did the request come from a proxy that TRUST_PROXY trusts (so its X-Forwarded-* headers count)? */
export function fromTrustedProxy(c: Context): boolean {
  const trust = config.trustProxy;
  if (!trust) return false;
  return "hops" in trust || trust.addresses.has(normalizeAddress(peerAddress(c)));
}

/** Each request's client, resolved once (its limits, its log and its checks all ask), kept in its context. */
function resolvedClient(c: Context): ResolvedClient {
  const known: ResolvedClient | undefined = c.get("client");
  if (known) return known;
  const resolved = resolveClientNow(c);
  c.set("client", resolved);
  return resolved;
}

function resolveClientNow(c: Context): ResolvedClient {
  const trust = config.trustProxy;
  // Untrusted, a proxy's RFC 7239 `Forwarded` header still says the request was passed on.
  const forwarded = c.req.header("x-forwarded-for") ?? (!trust && c.req.header("forwarded") ? "unknown" : undefined);
  const peer = peerAddress(c);
  if (trust !== resolvedUnder) {
    resolvedUnder = trust;
    resolvedByChain.clear();
  }
  // A client calls from the same address through the same proxies, call after call: its chain is
  // read once. A long chain (a header a client may have padded) is read each time, never kept.
  const key = forwarded === undefined ? peer : `${peer} ${forwarded}`;
  if (key.length > RESOLVED_KEY_MAX) return resolveClient(peer, forwarded, trust);
  let resolved = resolvedByChain.get(key);
  if (!resolved) setNewest(resolvedByChain, key, resolved = resolveClient(peer, forwarded, trust), RESOLVED_KEPT);
  return resolved;
}

/** `resolveClient`'s answers by connection address and X-Forwarded-For, under the trust they were read with. */
const resolvedByChain = new Map<string, ResolvedClient>();
let resolvedUnder: ProxyTrust | null | undefined;
const RESOLVED_KEPT = 10_000;
const RESOLVED_KEY_MAX = 200;

/** The connection's own address; "local" where there is none (a test's `app.request`). */
function peerAddress(c: Context): string {
  // The runtime's connection info (Deno.serve's `remoteAddr`, or the live listener's), read once: each
  // read of the runtime's makes it anew.
  return (c.env as { remoteAddr?: { hostname?: string } } | undefined)?.remoteAddr?.hostname || "local";
}

/**
 * The client's address from the connection's (`peer`) and the X-Forwarded-For chain, read from
 * the right: each proxy appends the address it was connected from, so only the entries that
 * trusted proxies wrote can be believed, and whatever stands left of them may be the client's own
 * invention. With `{hops: N}` the client is the Nth address from the right (the peer being the
 * last proxy); with `{addresses}`, the first address from the right that is not a trusted proxy.
 * A chain that runs out at a trusted proxy gives that proxy's address, which is never this
 * machine; nor is a loopback peer that forwarded for someone without being trusted. This machine is
 * always a loopback connection (`peer`) first: a caller that reached the port from elsewhere is
 * not, whatever address it or the chain names (under `{hops}` a direct caller writes the chain).
 */
export function resolveClient(
  peer: string,
  forwardedFor: string | undefined,
  trust: ProxyTrust | null,
): ResolvedClient {
  const chain = forwardedFor ? forwardedFor.split(",").map(normalizeAddress).filter(Boolean) : [];
  const all = [...chain, normalizeAddress(peer)];
  let i = all.length - 1;
  let ranOut = false;
  if (trust && "hops" in trust) {
    i = all.length - 1 - trust.hops;
    if (i < 0) [i, ranOut] = [0, true];
  } else if (trust) {
    while (i > 0 && trust.addresses.has(all[i])) i--;
    ranOut = trust.addresses.has(all[i]);
  }
  const address = all[i];
  // The peer itself, yet someone in front of it forwarded the request: an untrusted proxy's own address.
  const proxiedPeer = i === all.length - 1 && chain.length > 0;
  const thisMachine = !ranOut && !proxiedPeer && isLoopbackAddress(peer) && isLoopbackAddress(address);
  return { address, thisMachine };
}

/** Requests open now, by client address (this process's). */
const openByAddress = new Map<string, number>();

/**
 * Bounds the requests one client address has open at once (MAX_OPEN_PER_ADDRESS; an event stream
 * counts until its reader leaves): past it, 429. Slow clients that trickle bodies hold their
 * request open, so a few addresses cannot take every handler. Behind a proxy the address is the
 * client's as resolved above, not the proxy's.
 */
export function openPerAddress(): MiddlewareHandler {
  return async function openPerAddress(c, next) {
    const release = holdAddress(c);
    let held = false;
    try {
      await next();
      held = holdWhileStreaming(c, release);
    } finally {
      if (!held) release();
    }
  };
}

/**
 * Counts the request as open for its client's address, or throws 429 past MAX_OPEN_PER_ADDRESS;
 * returns the release (once the answer is made, or `holdWhileStreaming` holds it longer).
 */
export function holdAddress(c: Context): () => void {
  const address = clientAddress(c);
  const open = openByAddress.get(address) ?? 0;
  if (open >= config.maxOpenPerAddress) {
    throw tooMany(phrase("Too many requests open from your address at once; please try again in a moment."));
  }
  openByAddress.set(address, open + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (openByAddress.get(address) ?? 1) - 1;
    if (left > 0) openByAddress.set(address, left);
    else openByAddress.delete(address);
  };
}

/**
 * An event stream's answer holds its address until its reader leaves: true when `c.res` is one (it
 * then calls `release` at its end); false for any other answer (release it now). `type` is the
 * answer's Content-Type, when the caller has read it already.
 */
export function holdWhileStreaming(
  c: Context,
  release: () => void,
  type: string | null = c.res.headers.get("content-type"),
): boolean {
  const res = c.res;
  // The content type first: reading `res.body` turns a string answer into a stream, which
  // Deno then serves by the slower streaming path.
  if (!type?.startsWith("text/event-stream") || !res.body) return false;
  c.res = undefined;
  c.res = new Response(heldUntilEnd(res.body, release), res);
  return true;
}

/** `body`, passed on as it is read; `end` is called once when it ends, fails or is cancelled. */
function heldUntilEnd(body: ReadableStream<Uint8Array>, end: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(ctl) {
      try {
        const r = await reader.read();
        if (r.done) {
          end();
          ctl.close();
        } else ctl.enqueue(r.value);
      } catch (e) {
        end();
        ctl.error(e);
      }
    },
    cancel(reason) {
      end();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}

/**
 * Static files (the service worker among them) and the build's version, answered alike to all: they
 * read no session, so they write no lastSeen (decision 0289) and name no member's caches.
 */
function sessionless(path: string): boolean {
  return path.startsWith("/static/") || path === "/version_frontend.json";
}

/** Loads the caller from the session cookie into `c.var.caller`, and the brand from the host. */
export function session(): MiddlewareHandler<AppEnv> {
  return async function session(c, next) {
    await withRequestLocale(await loadCaller(c), next);
    nameOfflineCache(c);
  };
}

/**
 * The session's work before the route: the brand from the host, the caller from the session cookie
 * (`c.var.caller`, with the offline cache's name: in a page's header, or in `c.var.cacheId` for
 * `nameOfflineCache` to name on an API call's answer), a page's moderation notice, and
 * the request's language (`c.var.locale`, returned): run the rest in `withRequestLocale`. An API
 * call whose session and account this instance keeps is answered without a wait (the language
 * itself, not a promise of it).
 */
export function loadCaller(c: Context<AppEnv>): PageLang | Promise<PageLang> {
  c.set("brand", brandOf(c.req.url));
  c.set("caller", null);
  c.set("notice", null);
  c.set("eventsAfter", null);
  // The Cookie header read once for the session, discreet mode and the pseudo-locale (each read of
  // a request header is a call into the runtime).
  const cookies = c.req.raw.headers.get("Cookie");
  const token = cookies ? cookieIn(cookies, "__Host-sid") ?? cookieIn(cookies, "sid") : undefined;
  if (!token || sessionless(c.req.path)) return requestLocale(c, cookies);
  // The map's tiles are for members only, but no page: no notice, no feed cursor (decision 0289).
  const page = !c.req.path.startsWith("/api/") && !c.req.path.startsWith("/tiles/");
  if (page) return loadCallerRead(c, token, cookies!, true);
  const s = keptSession(token, !isQuietRequest(c));
  const account = s && keptAccountWithGrants(s.accountId);
  if (!s || account === undefined) return loadCallerRead(c, token, cookies!, false);
  if (!account) return requestLocale(c, cookies);
  const caller = callerOf(s, account);
  c.set("caller", caller);
  const discreet = cookieIn(cookies!, DISCREET_COOKIE) === "1";
  const id = keptCacheId(s.id, discreet);
  if (id === undefined) {
    return offlineCacheId(s.id, discreet).then((id) => {
      c.set("cacheId", id);
      return requestLocale(c, cookies);
    });
  }
  c.set("cacheId", id);
  return requestLocale(c, cookies);
}

/** `loadCaller` of a signed-in request whose session or account must be read (or of a page). */
async function loadCallerRead(c: Context<AppEnv>, token: string, cookies: string, page: boolean): Promise<PageLang> {
  // The account the token names is read beside the session (one wait for the store, not two),
  // and used only if the session is that account's.
  const hint = accountHint(token);
  // A page's moderation notice is read beside them too (pages only; used if the session is the hint's).
  const hintedNotice = page && hint ? accountNotice(hint) : null;
  hintedNotice?.catch(() => {}); // a page that renders no notice (an error page) leaves it unread
  const [s, guessed] = await Promise.all([
    getSession(token, { touch: !isQuietRequest(c) }),
    hint ? accountWithGrants(hint) : null,
  ]);
  // Stored roles plus the live granted ones (an earned VOLUNTEER role), in the one read.
  const account = s && (guessed?.id === s.accountId ? guessed : await accountWithGrants(s.accountId));
  if (s && account) {
    c.set("caller", callerOf(s, account));
    const discreet = cookieIn(cookies, DISCREET_COOKIE) === "1";
    const id = keptCacheId(s.id, discreet) ?? await offlineCacheId(s.id, discreet);
    // A page's answer names it from the start (its head may be sent before the route ends);
    // an API call's once its answer is made (`nameOfflineCache`).
    if (page) c.header(CACHE_ID_HEADER, id);
    else c.set("cacheId", id);
    // A page shows the member's moderation notice; API calls skip the read.
    // Not awaited here: the page's own reads go on meanwhile (routes/pages/render.tsx waits for it).
    if (page) {
      const notice = hintedNotice && hint === account.id ? hintedNotice : accountNotice(account.id);
      notice.catch(() => {}); // a page that renders no notice (an error page) leaves it unread
      c.set("notice", notice);
      // Before the page's own reads: the page's feed first sends what was written after it.
      c.set("eventsAfter", await eventBus().pageCursor());
    }
  }
  return requestLocale(c, cookies);
}

/**
 * Names the caller's offline cache on an API call's answer, once it is made: every answer of the
 * call but a socket's upgrade (101, made by the runtime rather than by the context) named it when
 * it was set before the route; set here, the answer is not first built with a header list of its
 * own, made into the runtime's and dropped again when the other headers are set.
 */
export function nameOfflineCache(c: Context<AppEnv>): void {
  const id = c.get("cacheId");
  if (id !== undefined && c.res.status !== 101) c.res.headers.set(CACHE_ID_HEADER, id);
}

/** The cookie `name` in a Cookie header, as Hono's `getCookie` reads it. */
function cookieIn(header: string, name: string): string | undefined {
  return parseCookies(header, name)[name];
}

/** The request's language, set in `c.var.locale`: the pseudo-locale's cookie, else the caller's, else the browser's. */
function requestLocale(c: Context<AppEnv>, cookies: string | null): PageLang {
  // The pseudo-locale (development and tests only) when the `lang` cookie asks for it.
  const locale: PageLang = config.pseudoLocale && cookies && cookieIn(cookies, "lang") === PSEUDO_LOCALE
    ? PSEUDO_LOCALE
    : c.get("caller")?.language ?? negotiated(c.req.header("accept-language"));
  c.set("locale", locale);
  return locale;
}

/**
 * The caller of a session and its account, made once while both are the same (the kept copies):
 * not made again on each call. Frozen, as every request of the session shares it.
 */
function callerOf(s: Session, account: Account): Caller {
  const known = callers.get(s);
  if (known?.account === account) return known.caller;
  const caller: Caller = Object.freeze({
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
  });
  callers.set(s, { account, caller });
  return caller;
}
/** The caller made of each session (as read or kept), with the account it was made of. */
const callers = new WeakMap<Session, { account: Account; caller: Caller }>();

/**
 * Runs `fn` (the rest of the request) in `locale`: the catalogues read it wherever a text is read
 * while serving it (in what it runs at once and in what it waits for). Returns what `fn` returns.
 */
export function withRequestLocale<T>(locale: PageLang, fn: () => T): T {
  // A request in the language the catalogues read already (English, where no other request's is
  // kept) needs no store of its own: running it in one costs every request a context.
  if (locale === "en" && pageLang() === "en") return fn();
  return requestLocales.run(locale, fn);
}

/** `negotiate`'s answer, worked out once per Accept-Language header (browsers send a few dozen kinds). */
function negotiated(header: string | undefined): PageLang {
  if (header === undefined) return WITHOUT_HEADER;
  let locale = localesByHeader.get(header);
  if (!locale) setNewest(localesByHeader, header, locale = negotiate(header), 500);
  return locale;
}
const localesByHeader = new Map<string, PageLang>();
/** The language of a caller that sends no Accept-Language header (a script, a bench). */
const WITHOUT_HEADER: PageLang = negotiate(undefined);

/** The brand of the host a URL names, worked out once per origin (the few an instance serves). */
function brandOf(url: string): Brand {
  const end = url.indexOf("/", url.indexOf("//") + 2);
  const origin = end < 0 ? url : url.slice(0, end);
  let brand = brandsByOrigin.get(origin);
  if (!brand) setNewest(brandsByOrigin, origin, brand = brandFor(new URL(url).hostname), 100);
  return brand;
}
const brandsByOrigin = new Map<string, Brand>();

/**
 * The name of this session's offline caches on the device (islands/sw/worker.ts keeps pages,
 * reads and pictures under it, and wipes them when an answer names another or none): a hash of the
 * session's public id, never the session's token. Discreet mode has its own, so pages kept before
 * it was turned on are wiped and the kept ones are the discreet ones.
 */
export async function offlineCacheId(sessionId: string, discreet: boolean): Promise<string> {
  const known = keptCacheId(sessionId, discreet);
  if (known) return known;
  // The first 12 bytes of its SHA-256, by node:crypto (Web Crypto's digest costs a session's
  // first call about 40 times as much).
  const id = (await sha256Hex(`offline-cache\0${sessionId}${discreet ? "\0discreet" : ""}`)).slice(0, 24);
  const both = cacheIds.get(sessionId) ?? {};
  setNewest(cacheIds, sessionId, discreet ? { ...both, discreet: id } : { ...both, plain: id }, CACHE_IDS_KEPT);
  return id;
}

/**
 * `offlineCacheId`'s answer when it was worked out lately, without a wait: looked up by the
 * session's id as the kept session holds it (no name made and hashed per request).
 */
function keptCacheId(sessionId: string, discreet: boolean): string | undefined {
  const both = cacheIds.get(sessionId);
  return discreet ? both?.discreet : both?.plain;
}

/**
 * Every answer to a signed-in member names their cache: the names worked out lately, by session
 * id (plain and discreet), oldest out first.
 */
const cacheIds = new Map<string, { plain?: string; discreet?: string }>();
const CACHE_IDS_KEPT = 50_000;

const requestLocales = new AsyncLocalStorage<PageLang>();
setRequestLocaleSource(() => requestLocales.getStore());

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Refuses state-changing calls from other sites. A browser's Sec-Fetch-Site (which no page can
 * forge) must be same-origin or none; without it, an Origin header must be this host's (a
 * "null" or foreign one is refused). A call that carries the session cookie must carry one of
 * the two: browsers send Origin on every such write, so a cookie without either is an old or
 * odd client whose page cannot be told (a Referer is no proof, and is not read). Calls without
 * the cookie and without either header come from non-browser clients, which carry no ambient
 * cookies to abuse. Sec-Fetch-Site is trusted first because a same-origin form post sends
 * `Origin: null` under this app's `Referrer-Policy: no-referrer`.
 */
export function originCheck(): MiddlewareHandler {
  return async function originCheck(c, next) {
    checkOrigin(c);
    await next();
  };
}

/** `originCheck`'s test of one request: throws 403 for a state-changing call from another site. */
export function checkOrigin(c: Context): void {
  if (SAFE.has(c.req.method)) return;
  const site = c.req.header("sec-fetch-site");
  const origin = c.req.header("origin");
  if (site) {
    if (site !== "same-origin" && site !== "none") throw forbidden("Cross-site requests are refused.");
  } else if (origin !== undefined) {
    if (!isOwnOrigin(c, origin)) throw forbidden("Cross-site requests are refused.");
  } else if (getCookie(c, "__Host-sid") !== undefined || getCookie(c, "sid") !== undefined) {
    throw forbidden("A signed-in write must say where it comes from (an Origin header).");
  }
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
