/**
 * Large JSON answers gzipped on a thread of their own. A map view of 800 members is about 250 KB
 * of JSON; gzipping it costs the server's one JavaScript thread several times what building it
 * does, and every other call waits meanwhile. Answers of `OFF_THREAD_BYTES` or more, to callers
 * that accept gzip, are compressed by one worker thread (routes/gzipThread.ts) while this thread
 * serves others; smaller answers and everything else are left to `compress()` after this.
 * The caller gets the same bytes once decoded, with `Content-Encoding: gzip` as from `compress()`.
 */

import type { MiddlewareHandler } from "hono";
import { acceptsEncoding } from "./assets.ts";

/** Answers this large or larger are gzipped off this thread. */
export const OFF_THREAD_BYTES = 64 * 1024;

let thread: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (out: Uint8Array<ArrayBuffer> | null) => void>();

function gzipThread(): Worker {
  if (thread) return thread;
  const w = new Worker(new URL("./gzipThread.ts", import.meta.url).href, { type: "module" });
  w.onmessage = (e: MessageEvent<{ id: number; out: Uint8Array<ArrayBuffer> | null }>) => {
    waiting.get(e.data.id)?.(e.data.out);
    waiting.delete(e.data.id);
  };
  w.onerror = (e) => {
    // A broken thread answers nothing more: its callers get their answer uncompressed.
    e.preventDefault();
    stopGzipThread();
  };
  return thread = w;
}

/** Stops the thread (shutdown); answers waiting for it go uncompressed. */
export function stopGzipThread(): void {
  thread?.terminate();
  thread = null;
  for (const done of waiting.values()) done(null);
  waiting.clear();
}

function gzipOffThread(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer> | null> {
  const id = nextId++;
  return new Promise((done) => {
    waiting.set(id, done);
    gzipThread().postMessage({ id, bytes }, [bytes.buffer]);
  });
}

/**
 * The middleware, for routes whose JSON answers are built whole (never a stream): put after
 * `compress()`, it sees the answer first and gzips a large one off this thread.
 */
export function offThreadGzip(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (
      !res.body || res.status === 206 || res.headers.has("content-encoding") || c.req.method === "HEAD" ||
      !acceptsEncoding(c.req.header("accept-encoding") ?? "", "gzip") ||
      !(res.headers.get("content-type") ?? "").startsWith("application/json") ||
      /no-transform/i.test(res.headers.get("cache-control") ?? "")
    ) return;
    const bytes = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    const out = bytes.byteLength >= OFF_THREAD_BYTES ? await gzipOffThread(bytes.slice()) : null;
    if (out) {
      const vary = headers.get("vary");
      if (!vary) headers.set("vary", "Accept-Encoding");
      else if (vary !== "*" && !/accept-encoding/i.test(vary)) headers.set("vary", `${vary}, Accept-Encoding`);
      headers.set("content-encoding", "gzip");
      headers.delete("content-length");
    }
    // Small (or the thread failed): the same answer again, for compress() to take as before.
    c.res = undefined;
    c.res = new Response(out ?? bytes, { status: res.status, statusText: res.statusText, headers });
  };
}
