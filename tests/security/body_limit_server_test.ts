/**
 * The body limit on the real server: 20 concurrent 50 MB bodies (half with a Content-Length,
 * half chunked with none) are cut off while being read, and the server's memory does not grow
 * with them. Runs `serve_fixture.ts` in a subprocess and sends raw HTTP/1.1 over TCP, as an
 * attacker would.
 */

import assert from "node:assert/strict";
import { startServer } from "./server.ts";

const BODY_BYTES = 50 * 1024 * 1024;
const CHUNK = new TextEncoder().encode(`{"email":"${"a".repeat(64 * 1024 - 12)}`.slice(0, 64 * 1024));
const enc = new TextEncoder();

/** Where the bodies go: anonymous calls that read a body (JSON, a login form, a page's form), and a member's. */
interface Target {
  method: string;
  path: string;
  type: string;
  member?: boolean;
}
const TARGETS: Target[] = [
  { method: "POST", path: "/api/auth/register", type: "application/json" },
  { method: "POST", path: "/api/auth", type: "application/x-www-form-urlencoded" },
  { method: "POST", path: "/support", type: "application/x-www-form-urlencoded" },
  { method: "PUT", path: "/api/profile", type: "application/json", member: true },
  { method: "POST", path: "/api/message", type: "application/json", member: true },
];

/**
 * Sends one request of `BODY_BYTES` over a raw connection, chunked or with a Content-Length, and
 * returns the status the server answered (null if it closed the connection without one).
 */
async function send(port: number, cookie: string, call: Target, chunked: boolean): Promise<number | null> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = `${call.method} ${call.path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: ${call.type}\r\n` +
    (call.member ? `cookie: ${cookie}\r\norigin: http://127.0.0.1:${port}\r\n` : "") +
    (chunked ? "transfer-encoding: chunked\r\n" : `content-length: ${BODY_BYTES}\r\n`) + "connection: close\r\n\r\n";
  const answer = (async () => {
    const buf = new Uint8Array(4096);
    let text = "";
    try {
      for (;;) {
        const n = await conn.read(buf);
        if (n === null) break;
        text += new TextDecoder().decode(buf.subarray(0, n));
        if (text.includes("\r\n\r\n")) break;
      }
    } catch { /* reset */ }
    const m = text.match(/^HTTP\/1\.1 (\d{3})/);
    return m ? Number(m[1]) : null;
  })();
  let stop = false;
  answer.then(() => stop = true);
  try {
    await conn.write(enc.encode(head));
    const chunkHead = enc.encode(`${CHUNK.length.toString(16)}\r\n`);
    const crlf = enc.encode("\r\n");
    for (let sent = 0; sent < BODY_BYTES && !stop; sent += CHUNK.length) {
      if (chunked) await conn.write(chunkHead);
      await writeAll(conn, CHUNK);
      if (chunked) await conn.write(crlf);
    }
    if (chunked && !stop) await conn.write(enc.encode("0\r\n\r\n"));
  } catch { /* the server closed the connection: what a limit does */ }
  const status = await answer;
  try {
    conn.close();
  } catch { /* closed */ }
  return status;
}

async function writeAll(conn: Deno.Conn, bytes: Uint8Array) {
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

Deno.test("security - 20 concurrent 50 MB bodies are refused 413 while read: server RSS grows under 50 MB", async () => {
  const server = await startServer();
  try {
    // Warm up: the routes and the JSON path are loaded before the baseline is taken.
    for (let i = 0; i < 5; i++) {
      const r = await fetch(`http://127.0.0.1:${server.port}/api/auth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "x" }),
      });
      await r.body?.cancel();
    }
    const before = await server.rss();
    const t = performance.now();
    const statuses = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) =>
          send(server.port, server.cookie, TARGETS[i % TARGETS.length], Math.floor(i / TARGETS.length) % 2 === 1),
      ),
    );
    const ms = performance.now() - t;
    const after = await server.rss();
    const grewMb = (after - before) / 1024 / 1024;
    console.log(
      `RSS before ${(before / 1048576).toFixed(0)} MB, after ${(after / 1048576).toFixed(0)} MB ` +
        `(+${grewMb.toFixed(1)} MB) in ${ms.toFixed(0)} ms; statuses ${statuses.join(",")}`,
    );
    assert.deepEqual(statuses.filter((s) => s !== 413), [], "every 50 MB body is answered 413");
    assert.ok(grewMb < 50, `RSS grew by ${grewMb.toFixed(1)} MB`);
  } finally {
    await server.stop();
  }
});
