/**
 * Every core served: `WEB_INSTANCES=2` starts a supervisor and two web processes on one port. Both
 * answer, a member registered through one is logged in through either, a killed child is started
 * again while the other keeps answering, and SIGTERM drains both and exits 0.
 */

import assert from "node:assert/strict";
import { startInstance } from "./instance.ts";

Deno.test({
  name: "instances - two web processes on one port: served, restarted after a crash, drained on SIGTERM",
  sanitizeResources: false,
  async fn() {
    const app = await startInstance({ WEB_INSTANCES: "2" });
    try {
      const started = await app.waitFor(/(listening on http:\/\/localhost:\d+[\s\S]*){2}/);
      const pids = [...started.matchAll(/instance (\d) started \(pid (\d+)\)/g)].map((m) => Number(m[2]));
      assert.equal(pids.length, 2, `${started}\n--- stderr ---\n${app.stderr()}`);

      const cookie = await app.member("cores@example.com");
      // New connections each time, so the kernel spreads them over both processes.
      const me = async () => {
        const r = await fetch(`${app.origin}/api/settings`, { headers: { cookie, connection: "close" } });
        await r.body?.cancel();
        return r.status;
      };
      for (let i = 0; i < 10; i++) assert.equal(await me(), 200);

      Deno.kill(pids[1], "SIGKILL");
      await app.waitFor(/instance 1 exited[\s\S]*instance 1 started \(pid \d+\)/);
      for (let i = 0; i < 10; i++) assert.equal(await me(), 200);
      await app.waitFor(/(listening on http:\/\/localhost:\d+[\s\S]*){3}/);

      const t = Date.now();
      app.child.kill("SIGTERM");
      const status = await app.child.status;
      assert.equal(status.code, 0);
      assert.ok(Date.now() - t < 10_000, `exited after ${Date.now() - t} ms`);
      await app.waitFor(/(shutdown: done[\s\S]*){2}/);
    } finally {
      await app.stop();
    }
  },
});
