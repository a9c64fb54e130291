import assert from "node:assert/strict";
import { devtoolsRelay } from "./browserServer.ts";

/** A stand-in for the browser's DevTools port: keeps what each connection sent, answers with `answer`. */
function fakeBrowser(answer: string) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const received: Promise<{ head: string; conn: Deno.Conn }> = (async () => {
    const conn = await listener.accept();
    const buf = new Uint8Array(4096);
    let text = "";
    while (!text.includes("\r\n\r\n")) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
    }
    await conn.write(new TextEncoder().encode(answer));
    return { head: text, conn };
  })();
  return { port: listener.addr.port, received, close: () => listener.close() };
}

async function readText(conn: Deno.Conn, until: string): Promise<string> {
  const buf = new Uint8Array(4096);
  let text = "";
  while (!text.includes(until)) {
    const n = await conn.read(buf);
    if (n === null) break;
    text += new TextDecoder().decode(buf.subarray(0, n));
  }
  return text;
}

Deno.test("browser server - the relay takes the compression offer out of a WebSocket's opening and passes bytes both ways", async () => {
  const answer = "HTTP/1.1 101 WebSocket Protocol Handshake\r\nUpgrade: WebSocket\r\nConnection: Upgrade\r\n\r\n";
  const browser = fakeBrowser(answer);
  const relay = devtoolsRelay(browser.port);
  const client = await Deno.connect({ hostname: "127.0.0.1", port: relay.port });
  try {
    const opening = [
      "GET /devtools/browser/x HTTP/1.1",
      `Host: 127.0.0.1:${relay.port}`,
      "Upgrade: websocket",
      "Connection: Upgrade",
      "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
      "Sec-WebSocket-Version: 13",
      "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover; client_max_window_bits",
    ].join("\r\n") + "\r\n\r\n";
    await client.write(new TextEncoder().encode(opening));
    const { head, conn } = await browser.received;
    // The browser gets the same opening but the offer, so it answers uncompressed.
    assert.equal(head, opening.replace(/Sec-WebSocket-Extensions:[^\r]*\r\n/, ""));
    assert.equal(await readText(client, "\r\n\r\n"), answer);
    // Then bytes go through unchanged, both ways.
    await client.write(new TextEncoder().encode("to the browser"));
    assert.equal(await readText(conn, "browser"), "to the browser");
    await conn.write(new TextEncoder().encode("to the test"));
    assert.equal(await readText(client, "test"), "to the test");
    // A browser that closes closes the test's connection too.
    conn.close();
    assert.equal(await client.read(new Uint8Array(16)), null);
  } finally {
    client.close();
    relay.close();
    browser.close();
  }
});
