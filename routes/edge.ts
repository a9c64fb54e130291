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

import type { Context, MiddlewareHandler } from "hono";
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
import { bodyLimit, type BodyLimits } from "./bodylimit.ts";

/** What the edge needs of the app: its body limits and its error handler. */
export interface EdgeOptions {
  bodyLimits: BodyLimits;
  onError: (err: Error, c: Context<AppEnv>) => Response | Promise<Response>;
}

/** The app's middleware, in one layer (see the top of this file). */
export function edge(o: EdgeOptions): MiddlewareHandler<AppEnv> {
  const limit = bodyLimit(o.bodyLimits);
  return async function edge(c, next) {
    takeRequestHeaders(c.req.raw);
    const began = beginRequest(c);
    let release: (() => void) | null = null;
    try {
      try {
        release = holdAddress(c);
        // Without a wait when the caller's session and account are kept (no promise made).
        const loading = loadCaller(c);
        const locale = typeof loading === "string" ? loading : await loading;
        const route = () => {
          checkOrigin(c);
          return next();
        };
        await withRequestLocale(locale, c.req.raw.body ? () => limit(c, route) : route);
      } catch (err) {
        // As Hono's compose answers an error of a layer: the route's own errors it answered already.
        if (!(err instanceof Error)) throw err;
        c.error = err;
        c.res = await o.onError(err, c);
      }
      const compressing = compressAnswer(c);
      if (compressing) await compressing;
      // The answer's type, read once: it picks the security headers (a JSON answer's or a page's) and
      // tells an event stream.
      const type = c.res.headers.get("content-type");
      setSecurityHeaders(c.res.headers, type);
      nameOfflineCache(c);
      if (release && holdWhileStreaming(c, release, type)) release = null;
    } finally {
      release?.();
      endRequest(c, began);
    }
  };
}
