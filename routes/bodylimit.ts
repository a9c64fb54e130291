/**
 * Request body limits, enforced while the body is read: a declared Content-Length over the limit
 * is refused before a byte is read; a body without one (chunked, or a stream) is counted chunk by
 * chunk and cut off the moment it passes the limit, so no call ever holds more than its limit in
 * memory. The answer is 413 with the one error shape. A body must also arrive whole within its
 * time (BODY_TIMEOUT_MS from its headers on), else the call answers 408 and the connection is
 * closed: a client trickling a byte at a time holds no handler for long.
 */

import type { MiddlewareHandler } from "hono";
import { ApiError, errorBody, timedOut, tooLarge } from "./errors.ts";
import { config } from "../config/config.ts";

/** The body limit of a JSON or form call: every such body of this app fits well within it. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** The limits: a default, and overrides by `"METHOD /path"` (the path as requested, no query). */
export interface BodyLimits {
  defaultBytes: number;
  routes?: Record<string, number>;
  /** Time limits by `"METHOD /path"`, in ms, where a route's bodies need longer than BODY_TIMEOUT_MS. */
  timeouts?: Record<string, number>;
}

/** The limit of one call. */
export function bodyLimitOf(limits: BodyLimits, method: string, path: string): number {
  return limits.routes?.[`${method} ${path}`] ?? limits.defaultBytes;
}

/** The time a picture upload has at least (8 MB over a slow mobile link). */
export const UPLOAD_BODY_TIMEOUT_MS = 120_000;

/** The time a call's body has to arrive. */
function bodyTimeoutOf(limits: BodyLimits, method: string, path: string): number {
  return Math.max(limits.timeouts?.[`${method} ${path}`] ?? 0, config.bodyTimeoutMs);
}

function lateness(ms: number): ApiError {
  return timedOut(`The request body did not arrive within ${Math.round(ms / 1000)} s.`);
}

function refusal(limit: number): ApiError {
  return tooLarge(`The request body is larger than the limit of ${limit.toLocaleString("en-US")} bytes.`);
}

const decoder = new TextDecoder();

/** A JSON content type (`application/json`, with or without parameters). */
export function isJson(type: string | null): boolean {
  return type !== null && /^application\/json\s*(?:;|$)/i.test(type);
}

/**
 * The whole of a body (its length declared, so bounded), or "late" when it did not all arrive
 * within `timeoutMs` (its reading is then cancelled), or the error that ended its reading.
 */
async function readWhole(
  body: ReadableStream<Uint8Array>,
  timeoutMs: number,
): Promise<Uint8Array<ArrayBuffer> | "late" | { error: unknown }> {
  const reader = body.getReader();
  let late = false;
  const deadline = {
    at: performance.now() + timeoutMs,
    late: () => {
      late = true;
      reader.cancel(lateness(timeoutMs)).catch(() => {});
    },
  };
  watchDeadline(deadline);
  try {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const r = await reader.read();
      if (late) return "late";
      if (r.done) break;
      chunks.push(r.value);
      size += r.value.byteLength;
    }
    if (chunks.length === 1 && chunks[0].buffer instanceof ArrayBuffer) return chunks[0] as Uint8Array<ArrayBuffer>;
    const out = new Uint8Array(size);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return out;
  } catch (error) {
    return late ? "late" : { error };
  } finally {
    bodiesDue.delete(deadline);
  }
}

/** A body's deadline (`performance.now()` time) and what to do when it passes. */
interface Deadline {
  at: number;
  late: () => void;
}

/**
 * The deadlines of the bodies being read whole, under one timer set for the earliest: a body that
 * arrives with its headers (nearly every JSON call's) costs no timer of its own, where setting and
 * clearing one was a visible part of a small call's CPU. The timer does not keep the process
 * alive, and when it fires with no body late it is set again only for the bodies still being read.
 */
const bodiesDue = new Set<Deadline>();
let timer: ReturnType<typeof setTimeout> | undefined;
let timerAt = Infinity;

function watchDeadline(d: Deadline): void {
  bodiesDue.add(d);
  if (d.at < timerAt) setTimer(d.at);
}

function setTimer(at: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerAt = at;
  timer = setTimeout(lateBodies, Math.max(0, at - performance.now()));
  Deno.unrefTimer(timer);
}

/** Ends the bodies past their deadline, and sets the timer for the next one still being read. */
function lateBodies(): void {
  timer = undefined;
  timerAt = Infinity;
  const t = performance.now();
  let next = Infinity;
  for (const d of bodiesDue) {
    if (d.at <= t) {
      bodiesDue.delete(d);
      d.late();
    } else next = Math.min(next, d.at);
  }
  if (next < Infinity) setTimer(next);
}

/**
 * The middleware: refuses a declared length over the limit at once; any other body is replaced by
 * a counting stream that fails its reader with a 413 past the limit, or with a 408 when the body
 * is not all there by its deadline. Whatever the handler made of that failure, the call answers
 * 413 or 408.
 */
export function bodyLimit(limits: BodyLimits): MiddlewareHandler {
  return async function bodyLimit(c, next) {
    const req = c.req.raw;
    if (!req.body) return next();
    const limit = bodyLimitOf(limits, req.method, c.req.path);
    const declared = req.headers.get("content-length");
    const length = declared !== null && /^\s*\d+\s*$/.test(declared) ? Number(declared) : null;
    if (length !== null && length > limit) throw refusal(limit);
    const timeoutMs = bodyTimeoutOf(limits, req.method, c.req.path);
    if (length !== null && length <= JSON_BODY_LIMIT && isJson(req.headers.get("content-type"))) {
      // A JSON body of declared length (every JSON call of a browser): read whole now, by its
      // deadline, and handed to the call as Hono keeps a body it read (`c.req.json()` and the
      // others answer from it). No counting stream and no copy of the request for it: those cost
      // a like about a sixth of its time.
      const read = await readWhole(req.body, timeoutMs);
      if (read === "late") {
        // The rest of the body will not be read: the connection is not reused.
        c.res = c.json(errorBody("timeout", lateness(timeoutMs).message, c.get("requestId")), 408, {
          connection: "close",
        });
        return;
      }
      const cache = (c.req as unknown as { bodyCache: Record<string, Promise<unknown>> }).bodyCache;
      if (read instanceof Uint8Array) {
        cache.arrayBuffer = Promise.resolve(
          read.buffer.byteLength === read.byteLength ? read.buffer : read.slice().buffer,
        );
        cache.text = Promise.resolve(decoder.decode(read));
      } else {
        // The body could not be read (the caller went): the call's read of it fails, as it would have.
        const failed = Promise.reject(read.error);
        failed.catch(() => {});
        cache.arrayBuffer = failed;
        cache.text = failed;
      }
      return next();
    }
    // A declared length within the limit bounds the body already (the HTTP server reads exactly that
    // many bytes: HTTP/1.1 framing; HTTP/2 refuses a stream whose data differs from it); it is still
    // counted, for its deadline.

    let seen = 0;
    let over = false;
    let late = false;
    let done = false;
    const source = req.body.getReader();
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const deadline = setTimeout(() => {
      if (done || over) return;
      late = true;
      const e = lateness(timeoutMs);
      try {
        controller?.error(e);
      } catch { /* already closed */ }
      source.cancel(e).catch(() => {});
    }, timeoutMs);
    const counted = new ReadableStream<Uint8Array>({
      start(ctl) {
        controller = ctl;
      },
      async pull(ctl) {
        const r = await source.read().catch((e) => {
          if (late) return { done: true as const, value: undefined };
          throw e;
        });
        if (late) return;
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
      clearTimeout(deadline);
      // A body the call did not read to its end is dropped, so the server stops receiving it now.
      // Not awaited: cancelling one branch of a teed body waits for the other branch.
      if (!done && !over && !late) source.cancel().catch(() => {});
    }
    if (over && c.res.status !== 413) {
      // The handler turned the cut-off into another answer (a 400 "not JSON", say): it is a 413.
      c.res = undefined;
      c.res = c.json(errorBody("too_large", refusal(limit).message, c.get("requestId")), 413);
    }
    if (late) {
      // The rest of the body will not be read: the connection is not reused.
      c.res = undefined;
      c.res = c.json(errorBody("timeout", lateness(timeoutMs).message, c.get("requestId")), 408, {
        connection: "close",
      });
    }
  };
}
