/**
 * Many processes on one KV file (scripts/multiproc.ts, short): two web instances, the worker and a
 * seed run, with a burst of writes over HTTP. No member sees a 5xx, no acknowledged write or job
 * is lost, the seed run completes.
 */

import assert from "node:assert/strict";
import { describeRun, multiprocRun } from "../scripts/multiproc.ts";

Deno.test({
  name: "multiproc - web, worker and seed on one file: no 5xx, no acknowledged write or job lost",
  async fn() {
    const r = await multiprocRun({ writes: 200, seedMembers: 6, seed: 4242, log: console.log });
    const summary = describeRun(r);
    assert.deepEqual(r.serverErrors, [], summary);
    assert.equal(r.failedRequests, 0, summary);
    assert.equal(r.acked, r.writes, summary);
    assert.deepEqual(r.missing, [], summary);
    assert.deepEqual(r.inconsistent, [], summary);
    assert.equal(r.seedExit, 0, summary);
    assert.match(r.seedLine, /done in .*: 6 members/, summary);
    assert.deepEqual(r.jobsLeft, [], summary);
    assert.deepEqual(r.storeErrors, [], summary);
  },
});
