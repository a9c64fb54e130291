/**
 * Graceful shutdown of a real instance: on SIGTERM it tells open event streams to reconnect, stops
 * taking connections, lets running work finish and exits 0 within 10 s.
 */

import assert from "node:assert/strict";
import { startInstance } from "./instance.ts";
import { streamText } from "./sse.ts";

Deno.test({
  name: "shutdown - SIGTERM: open event streams are told to reconnect, the process exits 0 within 10 s",
  sanitizeResources: false,
  async fn() {
    const app = await startInstance();
    try {
      const cookie = await app.member("sigterm@example.com");
      const events = await streamText(await fetch(`${app.origin}/api/events`, { headers: { cookie } }));
      assert.equal(events.status, 200);

      const t = Date.now();
      app.child.kill("SIGTERM");
      assert.ok(await events.ends(10_000), "the server ended the stream");
      assert.match(events.text, /event: reconnect\ndata: shutdown\nretry: 500/);
      const status = await app.child.status;
      const took = Date.now() - t;
      assert.equal(status.code, 0);
      assert.ok(took < 10_000, `exited after ${took} ms`);
      await app.waitFor(/shutdown: done/);
      await fetch(app.origin).then((r) => r.body?.cancel()).then(
        () => assert.fail("still answering after shutdown"),
        () => {},
      );
    } finally {
      await app.stop();
    }
  },
});
