/**
 * The live listener in a real browser: with `LIVE_PORT`, a page opens its event socket on that port
 * (named by the page, allowed by its CSP, the session cookie sent along), and a message arrives
 * live through it.
 */

import { until } from "../wait.ts";
import assert from "node:assert/strict";
import { logInThroughApi, mainApp, startHarness } from "./harness.ts";
import { startLiveListener } from "../../routes/live.ts";
import { TEXTS } from "../../domain/texts.ts";

Deno.test({
  name: "e2e - live listener: the page's event socket opens on LIVE_PORT and a message arrives live through it",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const h = await startHarness();
    const app = await mainApp();
    const live = await startLiveListener(app, {
      port: 0,
      hostname: "127.0.0.1",
      mainPort: Number(new URL(h.origin).port),
    });
    try {
      const a = await h.newPage("phone"), b = await h.newPage("phone");
      await logInThroughApi(a.context, h.origin, "livelistener-a@example.com");
      const bId = (await logInThroughApi(b.context, h.origin, "livelistener-b@example.com")).profileId;
      const sockets: string[] = [];
      const streams: string[] = [];
      b.page.on("websocket", (ws) => sockets.push(ws.url()));
      b.page.on("request", (r) => new URL(r.url()).pathname === "/api/events" && streams.push(r.url()));
      const violations: string[] = [];
      b.page.on("console", (m) => m.text().includes("Content Security Policy") && violations.push(m.text()));

      await b.page.goto("/chat/personal");
      await b.page.getByText(TEXTS.noConversations).waitFor();
      // The socket is open before the message goes (the page subscribes once it is hydrated).
      await until(() => sockets.length > 0, "the page's event socket", { timeoutMs: 5_000 }).catch(() => {});
      // On the live port, from the event cursor the page was rendered with.
      assert.equal(sockets.length, 1, sockets.join(", "));
      assert.match(sockets[0], new RegExp(`^ws://localhost:${live.port}/api/events\\?after=[0-9a-f]{20}$`));

      await a.page.goto(`/profile/${bId}#chat`);
      await a.page.getByRole("textbox", { name: "Message" }).fill("Through the live port");
      await a.page.getByRole("button", { name: "Send" }).click();
      // Live: well before the 15 s poll.
      await b.page.locator(".conversation-item", { hasText: "Through the live port" }).waitFor({ timeout: 5_000 });
      assert.deepEqual(violations, []);
      assert.equal(streams.filter((u) => !u.startsWith("ws")).length, 0, "no fallback to server-sent events");
    } finally {
      await live.close();
      await h.close();
    }
  },
});
