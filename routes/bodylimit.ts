/**
 * Request body limits, enforced while the body is read: a declared Content-Length over the limit
 * is refused before a byte is read; a body without one (chunked, or a stream) is counted chunk by
 * chunk and cut off the moment it passes the limit, so no call ever holds more than its limit in
 * memory. The answer is 413 with the one error shape.
 */

import type { MiddlewareHandler } from "hono";
import { ApiError, errorBody, tooLarge } from "./errors.ts";

/** The body limit of a JSON or form call: every such body of this app fits well within it. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** The limits: a default, and overrides by `"METHOD /path"` (the path as requested, no query). */
export interface BodyLimits {
  defaultBytes: number;
  routes?: Record<string, number>;
}

/** The limit of one call. */
export function bodyLimitOf(limits: BodyLimits, method: string, path: string): number {
  return limits.routes?.[`${method} ${path}`] ?? limits.defaultBytes;
}

function refusal(limit: number): ApiError {
  return tooLarge(`The request body is larger than the limit of ${limit.toLocaleString("en-US")} bytes.`);
}

/**
 * The middleware: refuses a declared length over the limit at once, and passes one within it; a
 * body without a declared length (chunked) is replaced by a counting stream that fails its reader
 * with a 413 past the limit. Whatever the handler made of
 * that failure, the call answers 413.
 */
export function bodyLimit(limits: BodyLimits): MiddlewareHandler {
  return async function bodyLimit(c, next) {
    const req = c.req.raw;
    if (!req.body) return next();
    const limit = bodyLimitOf(limits, req.method, c.req.path);
    const declared = req.headers.get("content-length");
    const length = declared !== null && /^\s*\d+\s*$/.test(declared) ? Number(declared) : null;
    if (length !== null && length > limit) throw refusal(limit);
    // A declared length within the limit bounds the body already: the HTTP server reads exactly that
    // many bytes (HTTP/1.1 framing; HTTP/2 refuses a stream whose data differs from it).
    if (length !== null) return next();

    let seen = 0;
    let over = false;
    let done = false;
    const source = req.body.getReader();
    const counted = new ReadableStream<Uint8Array>({
      async pull(ctl) {
        const r = await source.read();
        if (r.done) {
          done = true;
          ctl.close();
          return;
        }
        seen += r.value.byteLength;
        if (seen > limit) {
          over = true;
          const e = refusal(limit);
          ctl.error(e);
          await source.cancel(e).catch(() => {});
          return;
        }
        ctl.enqueue(r.value);
      },
      // Passed on, not waited for (as below).
      cancel: (reason) => {
        source.cancel(reason).catch(() => {});
      },
    }, { highWaterMark: 0 });
    // Made from the URL, not from `req`: copying `req` would follow its abort signal, which Deno 2.9
    // warns of (it aborts on a successful answer too); no handler here reads the signal.
    c.req.raw = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: counted,
      duplex: "half",
    } as RequestInit);
    try {
      await next();
    } finally {
      // A body the call did not read to its end is dropped, so the server stops receiving it now.
      // Not awaited: cancelling one branch of a teed body waits for the other branch.
      if (!done && !over) source.cancel().catch(() => {});
    }
    if (over && c.res.status !== 413) {
      // The handler turned the cut-off into another answer (a 400 "not JSON", say): it is a 413.
      c.res = undefined;
      c.res = c.json(errorBody("too_large", refusal(limit).message, c.get("requestId")), 413);
    }
  };
}
