/**
 * The live feed caps hold across instances: two app instances on one KV file, a member's feeds
 * opened on both. The 11th of a member ends their oldest, on the other instance, as one instance
 * does it alone; an address at `MAX_FEEDS_PER_ADDRESS` over both is refused (429) on either, and
 * takes a feed again once one closes.
 */

import { type StreamText, streamText } from "./sse.ts";
import { until } from "./wait.ts";
import assert from "node:assert/strict";
import { type Instance, startInstance } from "./instance.ts";

async function openStream(app: Instance, cookie: string): Promise<StreamText> {
  const s = await streamText(await fetch(`${app.origin}/api/events`, { headers: { cookie } }));
  if (s.status === 200) assert.ok(await s.until("event: ready", 5_000), "the stream opened");
  return s;
}

Deno.test({
  name:
    "feed caps - counted over two instances on one store: a member's 11th ends the oldest elsewhere; a full address is refused on both",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const env = { KV_PATH: `${dir}/app.kv`, MAX_FEEDS_PER_ADDRESS: "15" };
    const a = await startInstance({ ...env, WORKERS: "1" });
    const b = await startInstance({ ...env, WORKERS: "0" });
    const streams: StreamText[] = [];
    try {
      const one = await a.member("feeds-one@example.com");
      const two = await a.member("feeds-two@example.com");
      // Five on each instance: ten, the member's cap.
      const onA: StreamText[] = [];
      const onB: StreamText[] = [];
      for (let i = 0; i < 5; i++) onA.push(await openStream(a, one));
      for (let i = 0; i < 5; i++) onB.push(await openStream(b, one));
      streams.push(...onA, ...onB);
      // The eleventh, on B, ends the oldest, on A, saying why.
      const eleventh = await openStream(b, one);
      streams.push(eleventh);
      assert.equal(eleventh.status, 200);
      assert.ok(
        await onA[0].until("event: end\ndata: replaced", 5_000),
        "the oldest feed, on the other instance, ended",
      );
      for (const s of [onA[1], onB[0]]) assert.ok(!(await s.until("event: end", 300)), "the others stay");

      // The address (every request here comes from 127.0.0.1) holds 10; five more of another member on A: 15.
      for (let i = 0; i < 5; i++) {
        const s = await openStream(a, two);
        assert.equal(s.status, 200, `feed ${11 + i} of the address`);
        streams.push(s);
      }
      const overB = await openStream(b, two);
      assert.equal(overB.status, 429, "the 16th of the address, on B, is refused");
      const overA = await openStream(a, two);
      assert.equal(overA.status, 429, "and on A");

      // One closes on B: the address takes one more, on A.
      await onB[4].close();
      let last: StreamText | undefined;
      const again = await until(
        async () => {
          last = await openStream(a, two);
          return last.status === 200 ? last : null;
        },
        "a place free again",
        { timeoutMs: 5_000, everyMs: 100 },
      ).catch(() => last);
      assert.equal(again?.status, 200, "a closed feed's place is free again");
      streams.push(again!);
    } finally {
      for (const s of streams) await s.close();
      await a.stop();
      await b.stop();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
