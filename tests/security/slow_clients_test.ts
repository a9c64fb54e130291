/**
 * Slow clients on the real server: a body trickled a byte at a time is answered 408 once
 * BODY_TIMEOUT_MS has passed (its handler and its place among the address's open requests freed),
 * and one address cannot hold more than MAX_OPEN_PER_ADDRESS requests open at once. Deno's server
 * has no time limit of its own for headers, nor does it close a connection whose body it stopped
 * reading: the proxy in front bounds both, as docs/operations.md configures it
 * (tests/e2e/proxy_test.ts covers that through nginx).
 */

import { after, pause, until } from "../wait.ts";
import assert from "node:assert/strict";
import { startServer } from "./server.ts";

const enc = new TextEncoder();
const BODY_TIMEOUT_MS = 1_000;
const MAX_OPEN = 6;

/**
 * A signed-in PUT whose body arrives a byte every `everyMs`: the status it got, and when (after
 * the headers went out) the answer came, or null if none came within `waitMs`.
 */
async function trickle(port: number, cookie: string, chunked: boolean, everyMs = 200, waitMs = 5_000) {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const t0 = performance.now();
  await conn.write(enc.encode(
    `PUT /api/profile HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\n` +
      `cookie: ${cookie}\r\norigin: http://127.0.0.1:${port}\r\n` +
      (chunked ? "transfer-encoding: chunked\r\n" : "content-length: 1000\r\n") + "\r\n",
  ));
  let stop = false;
  const writing = (async () => {
    while (!stop) {
      await conn.write(enc.encode(chunked ? "1\r\nx\r\n" : "x")).catch(() => stop = true);
      await pause(everyMs); // sleep-ok: a client that sends a byte every so often is the case tested
    }
  })();
  let text = "";
  const answered = (async () => {
    const buf = new Uint8Array(4096);
    try {
      while (!/\r\n0\r\n\r\n|"\}\}$/.test(text)) {
        const n = await conn.read(buf);
        if (n === null) break;
        text += new TextDecoder().decode(buf.subarray(0, n));
      }
    } catch { /* reset */ }
    return performance.now() - t0;
  })();
  const ms = await Promise.race([answered, after(waitMs, null)]);
  stop = true;
  try {
    conn.close();
  } catch { /* closed */ }
  await writing;
  await answered;
  return { status: Number(text.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0), answeredAfterMs: ms, text };
}

Deno.test("slow clients - bodies trickled a byte at a time get 408 at BODY_TIMEOUT_MS", async () => {
  const server = await startServer({
    BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    MAX_OPEN_PER_ADDRESS: String(MAX_OPEN),
  });
  try {
    const results = await Promise.all(
      Array.from({ length: 4 }, (_, i) => trickle(server.port, server.cookie, i % 2 === 1)),
    );
    for (const r of results) {
      assert.equal(r.status, 408, r.text);
      assert.match(r.text, /"code":"timeout"/);
      assert.match(r.text, /connection: close/i, "the client is told the connection will not be reused");
      assert.ok(r.answeredAfterMs !== null, "answered");
      assert.ok(
        r.answeredAfterMs >= BODY_TIMEOUT_MS - 50 && r.answeredAfterMs < BODY_TIMEOUT_MS + 2_000,
        `answered after ${r.answeredAfterMs} ms`,
      );
    }
    // The server still answers.
    assert.equal((await fetch(`http://127.0.0.1:${server.port}/api/ping`)).status, 200);
  } finally {
    await server.stop();
  }
});

Deno.test("slow clients - one address holds at most MAX_OPEN_PER_ADDRESS requests open; past it 429, and again 200 once they end", async () => {
  const server = await startServer({
    BODY_TIMEOUT_MS: String(BODY_TIMEOUT_MS),
    MAX_OPEN_PER_ADDRESS: String(MAX_OPEN),
  });
  try {
    const slow = Array.from({ length: MAX_OPEN }, () => trickle(server.port, server.cookie, false));
    // Asked until the slow requests all hold their places: then the next one is refused.
    const refused = await until(
      async () => {
        const r = await fetch(`http://127.0.0.1:${server.port}/api/ping`);
        if (r.status === 429) return r;
        await r.body?.cancel();
        return null;
      },
      "a request past the open ones refused",
      { timeoutMs: 3_000 },
    );
    assert.equal(refused.status, 429);
    assert.equal((await refused.json()).error.code, "rate_limited");
    const ended = await Promise.all(slow);
    assert.deepEqual(ended.map((r) => r.status), ended.map(() => 408));
    const ping = await fetch(`http://127.0.0.1:${server.port}/api/ping`);
    assert.equal(ping.status, 200);
    await ping.body?.cancel();
  } finally {
    await server.stop();
  }
});
