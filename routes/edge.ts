/**
 * The app's one middleware layer: what every request goes through before and after its route, as
 * plain calls in one function instead of seven layers each awaited through Hono's compose (each
 * layer an async frame, a closure and a promise per request). In the order those layers ran:
 *
 * 0. the request's headers, taken from the runtime at once (`takeRequestHeaders`);
 * 1. telemetry: the request id (routes/telemetry.ts);
 * 2. the open requests of the client's address (MAX_OPEN_PER_ADDRESS, 429 past it);
 * 3. the session: brand, caller, offline cache id, language;
 * 4. the body limits (routes/bodylimit.ts), for a request that has a body;
 * 5. the origin check of state-changing calls;
 *
 * then the route; then, on its answer: compression, the security headers (a JSON answer's set or
 * the full one, routes/securityHeaders.ts), the name of a signed-in caller's offline cache (an API
 * call's), an event stream held open for its address, and telemetry's metrics, header and log
 * line. An error before the route
 * (a 429, a 403, a 413) is answered by the app's error handler, and that answer gets the same
 * treatment as any other (the separate layers left the compression and security headers off a 429).
 *
 * The separate middlewares (routes/middleware.ts, telemetry.ts, compression.ts, bodylimit.ts) stay
 * for the apps of tests that use one alone; both call the same steps.
 */

import type { Context, MiddlewareHandler, Next } from "hono";
import type { AppEnv } from "./env.ts";
import { beginRequest, endRequest } from "./telemetry.ts";
import {
  checkOrigin,
  holdAddress,
  holdWhileStreaming,
  loadCaller,
  nameOfflineCache,
  takeRequestHeaders,
  withRequestLocale,
} from "./middleware.ts";
import { compressAnswer } from "./compression.ts";
import { setSecurityHeaders } from "./securityHeaders.ts";
import { answerErrorWith } from "./routeMatches.ts";
import { bodyLimit, type BodyLimits } from "./bodylimit.ts";

/** What the edge needs of the app: its body limits and its error handler. */
export interface EdgeOptions {
  bodyLimits: BodyLimits;
  onError: (err: Error, c: Context<AppEnv>) => Response | Promise<Response>;
}

/** The release of the client address's hold, while the request holds it. */
interface Held {
  release: (() => void) | null;
}

/**
 * The app's middleware, in one layer (see the top of this file). Each step waits only when it has
 * something to wait for: a call whose caller is kept, whose route answers at once and whose answer
 * needs no compression (the signed-in floor) runs through without a promise, and its answer is
 * returned as it is (Hono and the runtime then send it without waiting a turn); else the answer's
 * promise. It resolves to (or is) the answer it made `c.res`.
 */
export function edge(o: EdgeOptions): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit(o.bodyLimits);
  const answerError = (c: Context<AppEnv>, err: unknown) => answerErrorWith(o.onError, c, err);
  function edge(c: Context<AppEnv>, next: Next): Response | Promise<Response> {
    takeRequestHeaders(c.req.raw);
    const began = beginRequest(c);
    const held: Held = { release: null };
    let routed: unknown;
    try {
      try {
        held.release = holdAddress(c);
        // Without a wait when the caller's session and account are kept (no promise made).
        const loading = loadCaller(c);
        const route = () => {
          checkOrigin(c);
          return next();
        };
        const run = c.req.raw.body ? () => limit(c, route) : route;
        routed = typeof loading === "string"
          ? withRequestLocale(loading, run)
          : loading.then((locale) => withRequestLocale(locale, run));
      } catch (err) {
        routed = answerError(c, err);
      }
    } catch (err) {
      // Not an Error: it goes on up, the request ended.
      finish(c, held, began);
      throw err;
    }
    if (routed instanceof Promise) {
      return routed.catch((err) => answerError(c, err)).then(() => answered(c, held, began), (err) => {
        finish(c, held, began);
        throw err;
      });
    }
    return answered(c, held, began);
  }
  return edge as unknown as MiddlewareHandler<AppEnv>;
}

/** The answer `c.res` compressed if it should be, then `done`. */
function answered(c: Context<AppEnv>, held: Held, began: number): Response | Promise<Response> {
  let compressing: Promise<unknown> | undefined;
  try {
    compressing = compressAnswer(c);
  } catch (err) {
    finish(c, held, began);
    throw err;
  }
  if (!compressing) return done(c, held, began);
  return compressing.then(() => done(c, held, began), (err) => {
    finish(c, held, began);
    throw err;
  });
}

/** The answer's security headers, the offline cache's name and an event stream's hold; then `finish`. */
function done(c: Context<AppEnv>, held: Held, began: number): Response {
  try {
    // The answer's type, read once: it picks the security headers (a JSON answer's or a page's) and
    // tells an event stream.
    const type = c.res.headers.get("content-type");
    setSecurityHeaders(c.res.headers, type);
    nameOfflineCache(c);
    if (held.release && holdWhileStreaming(c, held.release, type)) held.release = null;
  } finally {
    finish(c, held, began);
  }
  return c.res;
}

/** The request's end, however it ends: its address released (unless a stream holds it) and its telemetry. */
function finish(c: Context<AppEnv>, held: Held, began: number): void {
  held.release?.();
  endRequest(c, began);
}
