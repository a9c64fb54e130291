import assert from "node:assert/strict";
import { testApp } from "../tests/api.ts";
import { startLiveListener } from "./live.ts";
import { livePort } from "./livePort.ts";

Deno.test({
  name: "live listener - binds the address it is given, and tells pages the proxy's port in front of it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const t = await testApp();
    const live = await startLiveListener(t.app, { port: 0, hostname: "127.0.0.1", publicPort: 8443, mainPort: 8000 });
    try {
      assert.equal(livePort(), 8443, "pages open their socket on the proxy's port");
      const page = await t.call("GET", "/login");
      assert.match(page.headers.get("content-security-policy") ?? "", /wss:\/\/\*:8443/);
      // Bound to 127.0.0.1 only: another local address is refused.
      const here = await fetch(`http://127.0.0.1:${live.port}/`);
      assert.equal(here.status, 404);
      await here.body?.cancel();
      await assert.rejects(
        Deno.connect({ hostname: "127.0.0.2", port: live.port }).then((c) => c.close()),
        "not bound to every address",
      );
    } finally {
      await live.close();
      t.close();
    }
    assert.equal(livePort(), null);
  },
});
