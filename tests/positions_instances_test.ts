/**
 * Two web processes on one KV file: a member who finishes onboarding through one is, once the
 * write is `FRESH_MS` old (200 ms), in every nearest answer of either, both ways. A watch of a
 * local file sees only its own process's writes and the poll comes once a second, so a query
 * reads the position log itself when its last read began longer ago than that: an answer misses
 * no write older than it.
 */

import { pause } from "./wait.ts";
import assert from "node:assert/strict";
import { startInstance } from "./instance.ts";
import { FRESH_MS } from "../kv/positions/mod.ts";

Deno.test({
  name: "instances - a member who finishes onboarding on one process is in the other's nearest answers within 200 ms",
  sanitizeResources: false,
  async fn() {
    const dir = await Deno.makeTempDir();
    const env = { KV_PATH: `${dir}/app.kv`, GEO_SECRET: "instances-test" };
    const a = await startInstance(env);
    const b = await startInstance(env);
    try {
      const nearest = async (origin: string, cookie: string): Promise<string[]> => {
        const r = await fetch(`${origin}/api/profile-briefs/nearest?size=30`, { headers: { cookie } });
        assert.equal(r.status, 200, await r.clone().text());
        return ((await r.json()).items as { profileName: string }[]).map((x) => x.profileName);
      };
      const named = async (origin: string, cookie: string, profilename: string) => {
        const r = await fetch(`${origin}/api/profile`, {
          method: "PUT",
          headers: { cookie, origin, "content-type": "application/json" },
          body: JSON.stringify({ profilename, birthdate: "1990-01-01" }),
        });
        assert.equal(r.status, 200, await r.text());
      };

      // Robin is around already, through B.
      const robin = await b.member("robin-instances@example.com");
      await named(b.origin, robin, "Robin");
      const put = await fetch(`${b.origin}/welcome`, {
        method: "POST",
        headers: { cookie: robin, origin: b.origin },
        body: new URLSearchParams({ step: "done", lat: "33.45", lon: "-112.07" }),
      });
      assert.equal(put.status, 204, await put.text());

      // Sky finishes onboarding through A, keeping the random point near Phoenix.
      const sky = await a.member("sky-instances@example.com");
      await named(a.origin, sky, "Sky");
      const done = await fetch(`${a.origin}/welcome`, {
        method: "POST",
        headers: { cookie: sky, origin: a.origin },
        body: new URLSearchParams({ step: "done", lat: "33.4512", lon: "-112.0733", use: "OVERRIDE", hide: "false" }),
      });
      assert.equal(done.status, 204, await done.text());
      // sleep-ok: the promise tested is "in every answer once FRESH_MS old": B's poll may have read
      // the log just before the write, and its answers may use that read for FRESH_MS.
      await pause(FRESH_MS);
      assert.deepEqual(await nearest(b.origin, robin), ["Sky"], "Robin, on B, sees Sky within 200 ms");
      assert.deepEqual(await nearest(b.origin, sky), ["Robin"], "Sky, asking B, sees Robin within 200 ms");
      assert.deepEqual(await nearest(a.origin, robin), ["Sky"], "Robin, asking A, sees Sky");
    } finally {
      await a.stop();
      await b.stop();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  },
});
