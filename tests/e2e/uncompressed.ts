/**
 * The browser tests' DevTools connection to a shared browser without compression (decision 0259).
 * Playwright's WebSocket client (the `ws` package inside playwright-core) offers `permessage-deflate`
 * on every connection, with no option to leave it out, and Chromium's DevTools server takes it:
 * every message the browser sends (some 8,000 a browser test file receives, five network events for
 * each of a page's forty-odd requests) was deflated by Chromium and inflated by the test process with
 * Node's zlib as Deno emulates it, in JavaScript streams. Over a local socket it saves nothing.
 */

import http from "node:http";

/** The `host:port` of the browsers whose DevTools WebSocket opens without the compression offer. */
const plain = new Set<string>();
let wrapped = false;

/**
 * From now on, a WebSocket this process opens to the DevTools address `url` (the shared browser's,
 * `http://host:port`) opens without offering `permessage-deflate`, so both sides send messages as
 * they are. It wraps `node:http`'s `request`, which the `ws` package calls for the opening request,
 * and takes the offer out of that request's headers only: an upgrade to a WebSocket on that address.
 */
export function uncompressedDevtools(url: string): void {
  plain.add(new URL(url).host);
  if (wrapped) return;
  wrapped = true;
  const request = http.request;
  http.request = function (this: unknown, ...args: unknown[]) {
    const opts = args[0] as { host?: string; port?: string | number; headers?: Record<string, unknown> } | undefined;
    const headers = opts && typeof opts === "object" && !(opts instanceof URL) ? opts.headers : undefined;
    if (headers?.Upgrade === "websocket" && plain.has(`${opts!.host}:${opts!.port}`)) {
      delete headers["Sec-WebSocket-Extensions"];
    }
    return (request as (...a: unknown[]) => http.ClientRequest).apply(this, args);
  } as typeof http.request;
}
