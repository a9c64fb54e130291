/**
 * Answers compressed for callers that accept it, at the least cost to this process's one
 * JavaScript thread:
 *
 * - a JSON answer (always built whole in this app) is measured first: under `COMPRESS_MIN_BYTES`
 *   it goes out as it is, by Deno's fast path for a body of known length (compressing a few
 *   hundred bytes through a stream cost more than the rest of a signed-in call together);
 * - a larger one is compressed at once, Brotli for callers that take it, else gzip, and from
 *   16 KB on in Zstandard for callers that name it (routes/compressBytes.ts: native code, no
 *   streams), and from `OFF_THREAD_BYTES` on by
 *   one worker thread (routes/compressThread.ts) while this thread serves others: a map view of
 *   800 members is about 225 KB of JSON;
 * - a page rendered whole (`pageAnswer`) goes the same way at a page's levels
 *   (routes/compressBytes.ts `PAGE_LEVELS`): about as small as gzip's default makes it, for half
 *   or less of the CPU a gzip stream took (bench/member_pages.ts);
 * - anything else (a text file, a page not made by `pageAnswer`) goes to Hono's `compress()`, gzip
 *   or deflate through a stream, from 1 KB as before.
 *
 * The caller gets the same content once decoded, with `Content-Encoding` and
 * `Vary: Accept-Encoding` as HTTP asks.
 */

import type { Context, MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import { acceptsEncoding } from "./assets.ts";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type AnswerKind, compressBytes, type Encoding, LARGE_BYTES } from "./compressBytes.ts";
import { setNewest } from "../domain/newest.ts";

/** JSON answers smaller than this go out uncompressed (Hono's `compress()` threshold too). */
export const COMPRESS_MIN_BYTES = 1024;
/** JSON answers this large or larger are compressed off this thread. */
export const OFF_THREAD_BYTES = 64 * 1024;

let thread: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (out: Uint8Array<ArrayBuffer> | null) => void>();

function compressThread(): Worker {
  if (thread) return thread;
  const w = new Worker(new URL("./compressThread.ts", import.meta.url).href, { type: "module" });
  w.onmessage = (e: MessageEvent<{ id: number; out: Uint8Array<ArrayBuffer> | null }>) => {
    waiting.get(e.data.id)?.(e.data.out);
    waiting.delete(e.data.id);
  };
  w.onerror = (e) => {
    // A broken thread answers nothing more: its callers get their answer uncompressed.
    e.preventDefault();
    stopCompressThread();
  };
  return thread = w;
}

/** Stops the thread (shutdown); answers waiting for it go uncompressed. */
export function stopCompressThread(): void {
  thread?.terminate();
  thread = null;
  for (const done of waiting.values()) done(null);
  waiting.clear();
}

function compressOffThread(
  bytes: Uint8Array<ArrayBuffer>,
  encoding: Encoding,
  kind: AnswerKind,
): Promise<Uint8Array<ArrayBuffer> | null> {
  const id = nextId++;
  return new Promise((done) => {
    waiting.set(id, done);
    compressThread().postMessage({ id, bytes, encoding, kind }, [bytes.buffer]);
  });
}

const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/**
 * What a caller's Accept-Encoding allows: `best`, Brotli when it is accepted, else gzip, else none;
 * and whether it names Zstandard (never taken from `*`: a caller that names no coding is not sent
 * one it may not know).
 */
interface Accepted {
  best: Encoding | null;
  zstd: boolean;
  /** Whether gzip is accepted (what a page goes in when Zstandard is not named). */
  gzip: boolean;
}

const NOTHING: Accepted = { best: null, zstd: false, gzip: false };

/** The encodings `c` accepts (`Accepted`). */
function acceptedEncodings(c: Context): Accepted {
  const header = c.req.header("accept-encoding");
  if (!header) return NOTHING;
  let accepted = encodingsByHeader.get(header);
  if (accepted === undefined) {
    const gzip = acceptsEncoding(header, "gzip");
    accepted = {
      best: acceptsEncoding(header, "br") ? "br" : gzip ? "gzip" : null,
      zstd: /(?:^|,)\s*zstd\s*(?:[;,]|$)/i.test(header) && acceptsEncoding(header, "zstd"),
      gzip,
    };
    setNewest(encodingsByHeader, header, accepted, 100);
  }
  return accepted;
}
/** The encodings accepted by each Accept-Encoding header lately (browsers send a handful of kinds). */
const encodingsByHeader = new Map<string, Accepted>();

/**
 * A JSON answer of `text` (as Hono's `c.json` makes it), whose size the compression knows without
 * reading it (a copy of an answer to measure it costs a small call more than the rest of it
 * together): the answer and its text are kept in the request's context.
 */
export function jsonAnswer(c: Context, text: string, status: ContentfulStatusCode): Response {
  return known(c, c.body(text, status, JSON_TYPE), text, "json");
}
const JSON_TYPE = { "Content-Type": "application/json" } as const;

/**
 * A page's HTML (as Hono's `c.html` makes it), rendered whole: compressed at once like a JSON
 * answer, at a page's levels (routes/compressBytes.ts `PAGE_LEVELS`), not streamed through gzip.
 */
export function pageAnswer(c: Context, html: string, status: ContentfulStatusCode): Response {
  return known(c, c.html(html, status), html, "page");
}

/** Keeps `res`, its text and its kind in the request's context, for `compressAnswer`. */
function known(c: Context, res: Response, text: string, kind: AnswerKind): Response {
  c.set("knownAnswer", res);
  c.set("knownText", text);
  c.set("knownKind", kind);
  return res;
}

/** The text and kind of `res` if `jsonAnswer` or `pageAnswer` made it for the request of `c`. */
function knownOf(c: Context, res: Response): { text: string; kind: AnswerKind } | undefined {
  return c.get("knownAnswer") === res ? { text: c.get("knownText"), kind: c.get("knownKind") } : undefined;
}

const encoder = new TextEncoder();

/** Adds Accept-Encoding to the Vary header of `headers` (unless it says `*` or has it already). */
function varyOnEncoding(headers: Headers): void {
  const vary = headers.get("vary");
  if (!vary) headers.set("vary", "Accept-Encoding");
  else if (vary !== "*" && !/accept-encoding/i.test(vary)) headers.set("vary", `${vary}, Accept-Encoding`);
}

/**
 * The encoding a JSON answer of `length` bytes is sent in to a caller that accepts `accepted`, or
 * null (too small, or nothing accepted). A large answer in Zstandard where the caller names it (a
 * third smaller than Brotli 0, for about two thirds of its CPU); else Brotli, else gzip. A small
 * one in Zstandard only for a caller that takes nothing else (Brotli 1 suits short JSON better).
 */
function encodingOf(accepted: Accepted, length: number, kind: AnswerKind = "json"): Encoding | null {
  if (length < COMPRESS_MIN_BYTES || (!accepted.best && !accepted.zstd)) return null;
  // A page: Zstandard where named, else gzip (the bytes pages went in before, at half or less of the
  // stream's CPU), Brotli only for a caller that takes nothing else (its level 4 costs twice gzip's).
  if (kind === "page") return accepted.zstd ? "zstd" : accepted.gzip ? "gzip" : accepted.best;
  return accepted.zstd && (length >= LARGE_BYTES || !accepted.best) ? "zstd" : accepted.best;
}

/** The encoding `compressAnswer` sends a JSON answer of `length` bytes in to the caller of `c` (null: as it is). */
export function answerEncoding(c: Context, length: number): Encoding | null {
  return encodingOf(acceptedEncodings(c), length);
}

/** What is told of each answer's compression: the encoding, the bytes sent and the length before. */
type CompressedWatcher = (encoding: Encoding, out: Uint8Array<ArrayBuffer>, length: number) => void;
const compressedWatchers = new WeakMap<Response, CompressedWatcher>();

/**
 * Has `watch` told when `res` (a `jsonAnswer`) is compressed, with its bytes as sent (which stay
 * as they are: a body of bytes is not taken from them), so that they can be sent again.
 */
export function whenCompressed(res: Response, watch: CompressedWatcher): void {
  compressedWatchers.set(res, watch);
}

/** The middleware: put it where Hono's `compress()` would go (it takes that one's place). */
export function compression(): MiddlewareHandler {
  return async function compression(c, next) {
    await next();
    await compressAnswer(c);
  };
}

const streamed = compress();
const done = () => Promise.resolve();

/**
 * `compression`'s work once the answer `c.res` is made: compresses it in its place, if it should be.
 * Returns a promise only when there is work to wait for (a small JSON answer is left as it is at once).
 */
export function compressAnswer(c: Context): Promise<unknown> | undefined {
  const res = c.res;
  // A `jsonAnswer` or `pageAnswer` is known by its making: its type is not read back from its headers.
  const made = knownOf(c, res);
  const text = made?.text;
  if (made === undefined && !res.headers.get("content-type")?.startsWith("application/json")) {
    // Neither JSON nor a page: Hono's compress() looks at the answer now made (its `next` has been run).
    return streamed(c, done);
  }
  if (
    res.status === 206 || res.status === 204 || res.status === 304 || c.req.method === "HEAD" ||
    res.headers.has("content-encoding") || NO_TRANSFORM.test(res.headers.get("cache-control") ?? "")
  ) return;
  varyOnEncoding(res.headers);
  // An answer of known text is measured without reading it: UTF-8 takes at most 3 bytes a UTF-16 unit.
  if (text !== undefined && text.length * 3 < COMPRESS_MIN_BYTES) return;
  const accepted = acceptedEncodings(c);
  if (!accepted.best && !accepted.zstd) return;
  return compressWhole(c, res, text, made?.kind ?? "json", accepted);
}

/**
 * Compresses the answer `res` (its text if known) of a `kind` for a caller that accepts `accepted`,
 * if it is large enough.
 */
async function compressWhole(
  c: Context,
  res: Response,
  text: string | undefined,
  kind: AnswerKind,
  accepted: Accepted,
): Promise<void> {
  // Else measured on a copy, so a small answer goes out as it was made (no headers copied again).
  const bytes = text !== undefined ? encoder.encode(text) : new Uint8Array(await res.clone().arrayBuffer());
  const encoding = encodingOf(accepted, bytes.byteLength, kind);
  if (!encoding) return;
  const length = bytes.byteLength;
  const out = length >= OFF_THREAD_BYTES
    ? await compressOffThread(bytes, encoding, kind)
    : compressBytes(bytes, encoding, kind);
  // The thread failed: the answer goes as it was made.
  if (!out) return;
  compressedWatchers.get(res)?.(encoding, out, length);
  const headers = new Headers(res.headers);
  headers.set("content-encoding", encoding);
  headers.delete("content-length");
  const etag = headers.get("etag");
  if (etag && !etag.startsWith("W/")) headers.set("etag", `W/${etag}`);
  c.res = undefined;
  c.res = new Response(out, { status: res.status, statusText: res.statusText, headers });
}
