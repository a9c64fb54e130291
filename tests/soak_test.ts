/**
 * The live layer's soak, short: pairs of members converse over real sockets, and a pair in
 * Chromium tabs, with a core taken by a busy process; every message and every read receipt reaches
 * its socket and its tab (`deno task soak` is the long run, judged on its latencies too).
 */

import assert from "node:assert/strict";
import { soak } from "../bench/soak.ts";
import { sharedBuild } from "./islands_build.ts";

Deno.test({
  name: "soak - 10 pairs on sockets and a pair in Chromium tabs converse for 12 s beside a busy core: " +
    "no message or receipt lost; every message shows in the other tab, and its second check in the first",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    // One run for both kinds of pairs (one app, one busy core), its tabs served the suite's shared build.
    // The tabs' delivery is the subject, not the app's service worker: blocked, as in every browser test
    // not about it (decision 0298); `deno task soak` keeps it, as in a member's browser.
    const r = await soak({
      pairs: 10,
      seconds: 12,
      burn: 1,
      live: false,
      browsers: 1,
      buildDir: await sharedBuild(),
      serviceWorkers: "block",
    });
    console.log(JSON.stringify(r));
    assert.ok(r.messages >= 20, `conversations went on (${r.messages} messages)`);
    assert.equal(r.failedCalls, 0);
    assert.equal(r.lostMessages, 0);
    assert.equal(r.lostReceipts, 0);
    assert.equal(r.receipts, r.messages, "every message was read and its receipt asked for");
    if (Deno.build.os === "linux") {
      // The server's CPU is counted apart from the clients', by thread: its JavaScript thread worked.
      assert.ok(r.cpu.serverCpuMs > 0, `the server's CPU was counted (${r.cpu.serverCpuMs} ms)`);
      assert.ok((r.cpu.serverThreadsMs["deno"] ?? 0) > 0, JSON.stringify(r.cpu.serverThreadsMs));
      assert.ok(r.cpu.serverWaitMs >= 0 && r.cpu.clientCpuMs >= 0 && r.cpu.wallMs >= 10_000);
    }
    assert.ok(r.tabs && r.tabs.messages >= 3, `the tabs conversed (${r.tabs?.messages} messages)`);
    assert.equal(r.tabs.lost, 0, "every message showed in the other tab");
    assert.equal(r.tabs.lostReceipts, 0, "every message showed its second check in the sender's tab");
  },
});

Deno.test("soak - the same on the live listener's sockets", async () => {
  const r = await soak({ pairs: 5, seconds: 6, burn: 1, live: true });
  console.log(JSON.stringify(r));
  assert.ok(r.messages >= 10);
  assert.equal(r.failedCalls, 0);
  assert.equal(r.lostMessages, 0);
  assert.equal(r.lostReceipts, 0);
});
