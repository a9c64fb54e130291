/**
 * Sessions kept in the instance (kv/sessions.ts on kv/kept.ts, `startKeptReads`) across instances: two
 * instances on one KV file (a local file's watch sees only its own process, so the other learns
 * through its poll of the change log). A session ended through one stops working on the other
 * within 1 s, though the other had just used it.
 */

import assert from "node:assert/strict";
import { type Instance, startInstance } from "./instance.ts";

async function withTwoInstances(fn: (w: { one: Instance; two: Instance }) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  const one = await startInstance({ KV_PATH: `${dir}/app.kv` });
  const two = await startInstance({ KV_PATH: `${dir}/app.kv`, WORKERS: "0" });
  try {
    await fn({ one, two });
  } finally {
    await one.stop();
    await two.stop();
    await Deno.remove(dir, { recursive: true });
  }
}

async function status(origin: string, cookie: string): Promise<number> {
  const res = await fetch(`${origin}/api/settings`, { headers: { cookie } });
  await res.body?.cancel();
  return res.status;
}

/** Uses `cookie` on `two` (so it keeps the session), runs `end` on the other instance, then asks `two` until it refuses. */
async function endedWithin(two: Instance, cookie: string, end: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 5; i++) assert.equal(await status(two.origin, cookie), 200);
  const t = performance.now();
  await end();
  while (await status(two.origin, cookie) === 200) {
    assert.ok(performance.now() - t < 3000, "the session still works after 3 s");
    await new Promise((r) => setTimeout(r, 20));
  }
  const ms = performance.now() - t;
  console.log(`  ended on the other instance after ${ms.toFixed(0)} ms`);
  // Refused for good, not once.
  for (let i = 0; i < 3; i++) assert.equal(await status(two.origin, cookie), 401);
  return ms;
}

Deno.test({
  name: "sessions - a logout through one instance ends the session on another that just used it, within 1 s",
  sanitizeResources: false,
  async fn() {
    await withTwoInstances(async ({ one, two }) => {
      const a = await one.member("logout-a@example.com");
      const ms = await endedWithin(two, a, async () => {
        const res = await fetch(`${one.origin}/api/auth/logout`, {
          method: "POST",
          headers: { cookie: a, origin: one.origin },
        });
        assert.equal(res.status, 200);
        await res.body?.cancel();
      });
      assert.ok(ms < 1000, `ended after ${ms.toFixed(0)} ms`);
      assert.equal(await status(one.origin, a), 401);
    });
  },
});

Deno.test({
  name: "sessions - a new password set through one instance ends the other sessions on another within 1 s",
  sanitizeResources: false,
  async fn() {
    await withTwoInstances(async ({ one, two }) => {
      const email = "password-a@example.com";
      const a = await one.member(email);
      const put = (password: string) =>
        fetch(`${one.origin}/api/settings`, {
          method: "PUT",
          headers: { cookie: a, origin: one.origin, "content-type": "application/json" },
          body: JSON.stringify({ name: "A", email, password, currentPassword: "first password" }),
        });
      // A fresh login-link session sets the first password without the current one.
      const first = await put("first password");
      assert.equal(first.status, 200, await first.text());

      // A second session, by password, on the other instance.
      const form = new FormData();
      form.set("username", email);
      form.set("password", "first password");
      const login = await fetch(`${two.origin}/api/auth`, { method: "POST", body: form });
      assert.equal(login.status, 200, await login.text());
      const x = login.headers.getSetCookie().find((c) => /sid=/.test(c))!.split(";")[0];

      const ms = await endedWithin(two, x, async () => {
        const res = await put("second password");
        assert.equal(res.status, 200, await res.text());
      });
      assert.ok(ms < 1000, `ended after ${ms.toFixed(0)} ms`);
      // The session that changed the password stays, on both.
      assert.equal(await status(one.origin, a), 200);
      assert.equal(await status(two.origin, a), 200);
    });
  },
});
