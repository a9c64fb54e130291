/**
 * The live layer across instances: two instances on one KV file (a local file's watch sees only
 * its own process), or with TEST_KV=remote on one remote KV (whose watch sees every writer), a
 * message sent through one reaches a stream open on the other.
 */

import assert from "node:assert/strict";
import { type Instance, startInstance, withTwoInstances } from "./instance.ts";
import { streamText } from "./sse.ts";

/** Two instances on one store, and members A and B (registered through the first): runs `fn`, then stops both. */
function withTwoMembers(
  prefix: string,
  fn: (
    w: { one: Instance; two: Instance; a: string; b: string; aId: string; bId: string },
  ) => Promise<void>,
): Promise<void> {
  return withTwoInstances(async ({ one, two }) => {
    const a = await one.member(`${prefix}-a@example.com`);
    const b = await one.member(`${prefix}-b@example.com`);
    const idOf = async (cookie: string) =>
      (await (await fetch(`${one.origin}/api/settings`, { headers: { cookie } })).json()).defaultProfileId as string;
    await fn({ one, two, a, b, aId: await idOf(a), bId: await idOf(b) });
  });
}

Deno.test({
  name:
    "live - two instances on one store (a KV file, or remote KV): a message sent through one reaches a stream on the other within 1.5 s",
  sanitizeResources: false,
  async fn() {
    await withTwoMembers("live", async ({ one, two, a, b, aId, bId }) => {
      // B's page is connected to the second instance.
      const events = await streamText(await fetch(`${two.origin}/api/events`, { headers: { cookie: b } }));
      assert.equal(events.status, 200);
      assert.ok(await events.until("event: ready"), "the stream is ready");

      const t = performance.now();
      const sent = await fetch(`${one.origin}/api/message`, {
        method: "POST",
        headers: { cookie: a, origin: one.origin, "content-type": "application/json" },
        body: JSON.stringify({ senderProfileId: aId, recipientProfileId: bId, bodyText: "across instances" }),
      });
      assert.equal(sent.status, 201);
      const { id } = await sent.json();
      const want = `event: member\ndata: ${JSON.stringify({ type: "message", id, from: aId, to: bId })}\n`;
      assert.ok(await events.until(want, 10_000), `the message event came: ${events.text}`);
      const ms = performance.now() - t;
      assert.ok(ms < 1500, `arrived after ${ms.toFixed(0)} ms`);
      await events.close();
    });
  },
});

Deno.test({
  name: "live - the same events over a WebSocket; a socket from another site's page is refused",
  sanitizeResources: false,
  async fn() {
    await withTwoMembers("ws", async ({ one, two, a, b, aId, bId }) => {
      const wsUrl = `${two.origin.replace("http", "ws")}/api/events`;

      // Another site's page: the browser sends its origin and the member's cookie; refused.
      const foreign = await fetch(`${two.origin}/api/events`, {
        headers: {
          cookie: b,
          origin: "https://evil.example",
          upgrade: "websocket",
          connection: "Upgrade",
          "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
          "sec-websocket-version": "13",
        },
      });
      assert.equal(foreign.status, 403);
      await foreign.body?.cancel();
      // Without a session: 401.
      const anonymous = new WebSocket(wsUrl, { headers: { origin: two.origin } } as unknown as string[]);
      const refused = await new Promise<boolean>((r) => {
        anonymous.onopen = () => r(false);
        anonymous.onerror = () => r(true);
      });
      assert.ok(refused);

      const ws = new WebSocket(wsUrl, { headers: { cookie: b, origin: two.origin } } as unknown as string[]);
      const messages: { event: string; data?: unknown }[] = [];
      let wake = () => {};
      ws.onmessage = (m) => {
        messages.push(JSON.parse(String(m.data)));
        wake();
      };
      const until = async (f: () => boolean) => {
        while (!f()) await new Promise<void>((r) => wake = r);
      };
      await until(() => messages.some((m) => m.event === "ready"));
      const t = performance.now();
      const sent = await fetch(`${one.origin}/api/message`, {
        method: "POST",
        headers: { cookie: a, origin: one.origin, "content-type": "application/json" },
        body: JSON.stringify({ senderProfileId: aId, recipientProfileId: bId, bodyText: "over a socket" }),
      });
      const { id } = await sent.json();
      await until(() => messages.some((m) => m.event === "member"));
      assert.ok(performance.now() - t < 1500);
      assert.deepEqual(messages.find((m) => m.event === "member")!.data, { type: "message", id, from: aId, to: bId });
      const closed = new Promise((r) => ws.onclose = r);
      ws.close();
      await closed;
    });
  },
});

Deno.test({
  name:
    "live - the live listener (LIVE_PORT): pages name its port and the CSP allows it, events arrive over it, other sites and anonymous callers are refused, SIGTERM tells sockets to reconnect",
  sanitizeResources: false,
  async fn() {
    const one = await startInstance({ LIVE_PORT: "0" });
    try {
      const livePort = (await one.waitFor(/live sockets on port (\d+)/)).match(/live sockets on port (\d+)/)![1];
      const a = await one.member("livelistener-a@example.com");
      const b = await one.member("livelistener-b@example.com");
      const idOf = async (cookie: string) =>
        (await (await fetch(`${one.origin}/api/settings`, { headers: { cookie } })).json()).defaultProfileId as string;
      const [aId, bId] = [await idOf(a), await idOf(b)];

      // A logged-in page names the port; its CSP lets the page connect there.
      const page = await fetch(`${one.origin}/chat/personal`, { headers: { cookie: b } });
      const html = await page.text();
      assert.ok(html.includes(`<meta name="live-port" content="${livePort}"/>`), "the page names the live port");
      assert.match(page.headers.get("content-security-policy")!, new RegExp(`connect-src 'self' ws://\\*:${livePort}`));
      // Only the event socket is served there.
      const plain = await fetch(`http://127.0.0.1:${livePort}/api/events`, { headers: { cookie: b } });
      assert.equal(plain.status, 404);
      await plain.body?.cancel();

      const wsUrl = `ws://127.0.0.1:${livePort}/api/events`;
      const opens = (ws: WebSocket) =>
        new Promise<boolean>((r) => {
          ws.onopen = () => r(true);
          ws.onerror = () => r(false);
        });
      // Another site's page, and a caller without a session: refused before any upgrade.
      assert.equal(
        await opens(new WebSocket(wsUrl, { headers: { cookie: b, origin: "https://evil.example" } } as never)),
        false,
      );
      assert.equal(await opens(new WebSocket(wsUrl, { headers: { origin: one.origin } } as never)), false);

      const ws = new WebSocket(wsUrl, { headers: { cookie: b, origin: one.origin } } as never);
      const messages: { event: string; data?: unknown }[] = [];
      let wake = () => {};
      ws.onmessage = (m) => {
        messages.push(JSON.parse(String(m.data)));
        wake();
      };
      const until = async (f: () => boolean) => {
        while (!f()) await new Promise<void>((r) => wake = r);
      };
      await until(() => messages.some((m) => m.event === "ready"));
      const sent = await fetch(`${one.origin}/api/message`, {
        method: "POST",
        headers: { cookie: a, origin: one.origin, "content-type": "application/json" },
        body: JSON.stringify({ senderProfileId: aId, recipientProfileId: bId, bodyText: "over the live port" }),
      });
      assert.equal(sent.status, 201);
      const { id } = await sent.json();
      await until(() => messages.some((m) => m.event === "member"));
      assert.deepEqual(messages.find((m) => m.event === "member")!.data, { type: "message", id, from: aId, to: bId });

      // Shutdown: the socket is told to reconnect (elsewhere) and closed with 1012.
      const closed = new Promise<number>((r) => ws.onclose = (e) => r(e.code));
      one.child.kill("SIGTERM");
      assert.equal(await closed, 1012);
      assert.ok(messages.some((m) => m.event === "reconnect"));
      assert.equal((await one.child.status).code, 0);
    } finally {
      await one.stop();
    }
  },
});
