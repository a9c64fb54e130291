import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { uncompressedDevtools } from "./uncompressed.ts";

/**
 * A stand-in for a browser's DevTools port: answers `/json/version` with its WebSocket's address,
 * and keeps the head of the WebSocket's opening request (then closes it, failing the connection).
 */
function fakeDevtools() {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = listener.addr.port;
  const opening = (async () => {
    for (;;) {
      const conn = await listener.accept();
      const buf = new Uint8Array(8192);
      let head = "";
      while (!head.includes("\r\n\r\n")) {
        const n = await conn.read(buf);
        if (n === null) break;
        head += new TextDecoder().decode(buf.subarray(0, n));
      }
      if (/^upgrade: websocket/im.test(head)) {
        conn.close();
        return head;
      }
      const body = JSON.stringify({ webSocketDebuggerUrl: `ws://127.0.0.1:${port}/devtools/browser/x` });
      await conn.write(new TextEncoder().encode(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      ));
      conn.close();
    }
  })();
  return { url: `http://127.0.0.1:${port}`, opening, close: () => listener.close() };
}

Deno.test("uncompressed devtools - Playwright opens the shared browser's WebSocket without offering compression", async () => {
  const other = fakeDevtools(), shared = fakeDevtools();
  try {
    uncompressedDevtools(shared.url);
    // Another address keeps Playwright's offer: only the shared browser's opening is changed.
    await chromium.connectOverCDP(other.url, { timeout: 10_000 }).then((b) => b.close(), () => {});
    assert.match(await other.opening, /^Sec-WebSocket-Extensions: permessage-deflate/im);
    await chromium.connectOverCDP(shared.url, { timeout: 10_000 }).then((b) => b.close(), () => {});
    const head = await shared.opening;
    assert.match(head, /^Upgrade: websocket/im);
    assert.doesNotMatch(head, /Sec-WebSocket-Extensions/i);
  } finally {
    other.close();
    shared.close();
  }
});
