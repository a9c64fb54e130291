/**
 * Two machines behind one nginx on one remote KV (scripts/twoMachines/): two network namespaces
 * with an app instance each, a KV Connect server 5 ms away, nginx in front hashing each member's
 * session to one machine. Through nginx, with real members and live sockets: messages, typing,
 * read receipts, presence, positions, an ended session, a suspension and the feed caps hold
 * across the two, and killing one loses no acknowledged write while its members' sockets
 * reconnect to the other. Skipped, saying why, when not root or without `ip netns` or nginx.
 */

import { CHECK_ENV, CHECKS, closeRun, newRun } from "../scripts/twoMachines/checks.ts";
import { startTwoMachines, unavailable } from "../scripts/twoMachines/machines.ts";

const why = await unavailable();
if (why) console.log(`two_machines_test: skipped, ${why}`);

Deno.test({
  name: "two machines - one remote KV, two instances in their own network namespaces behind nginx",
  ignore: why !== null,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn(t) {
    const h = await startTwoMachines({ rttMs: 5, env: CHECK_ENV });
    const run = newRun(h, 2);
    let failed = false;
    try {
      for (const c of CHECKS) {
        // Each check builds on the members and sockets of those before it.
        failed = !(await t.step(c.name, async () => console.log(`  ${await c.run(run)}`)));
        if (failed) break;
      }
    } finally {
      await closeRun(run);
      if (failed) {
        for (const m of h.machines) console.log(`--- instance ${m.name}, last output ---\n${m.output.slice(-3000)}`);
        console.log(`--- nginx error log ---\n${(await h.nginxLog()).slice(-3000)}`);
      }
      await h.stop();
    }
  },
});
