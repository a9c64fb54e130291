/**
 * Reads kept in the instance (kv/kept.ts) across instances: two instances on one KV file (a local
 * file's watch sees only its own process, so the other learns through its poll of the change
 * log). A block, a profile change and a language change made through one instance show on the other
 * within 1 s, though the other had just served the old answers; a block shows at once on the
 * instance that wrote it.
 */

import { until } from "./wait.ts";
import assert from "node:assert/strict";
import { type Instance, withTwoInstances } from "./instance.ts";

async function call(origin: string, cookie: string, path: string, init: RequestInit = {}) {
  const res = await fetch(`${origin}${path}`, {
    ...init,
    // The member's page makes the call: its browser names the page's origin (on reads too, harmlessly).
    headers: { cookie, origin, "content-type": "application/json", ...init.headers },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function profileIdOf(origin: string, cookie: string): Promise<string> {
  const r = await call(origin, cookie, "/api/settings");
  assert.equal(r.status, 200);
  return r.body.defaultProfileId;
}

/** Asks `ask` every 20 ms until it holds; the milliseconds it took (fails after `limitMs`). */
async function within(ask: () => Promise<boolean>, what: string, limitMs = 3000): Promise<number> {
  const t = performance.now();
  await until(ask, `${what} (${limitMs} ms at most)`, { timeoutMs: limitMs });
  const ms = performance.now() - t;
  console.log(`  ${what}: after ${ms.toFixed(0)} ms`);
  return ms;
}

async function member(w: Instance, email: string, at: { lat: number; lon: number }) {
  const cookie = await w.member(email);
  const id = await profileIdOf(w.origin, cookie);
  const put = await call(w.origin, cookie, `/api/profile-position/${id}`, {
    method: "PUT",
    body: JSON.stringify({ use: "OVERRIDE", overrideLat: at.lat, overrideLon: at.lon }),
  });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  return { cookie, id };
}

Deno.test({
  name: "kept reads - a block through one instance hides the member on another that just showed them, within 1 s",
  sanitizeResources: false,
  async fn() {
    await withTwoInstances(async ({ one, two }) => {
      const a = await member(one, "kept-a@example.com", { lat: 40.7, lon: -74.0 });
      const b = await member(one, "kept-b@example.com", { lat: 40.71, lon: -74.01 });
      /** Does A see B: in the nearest list, on B's profile (both, neither, or "some" for one of them)? */
      const seesB = async (w: Instance) => {
        const [profile, nearest] = await Promise.all([
          call(w.origin, a.cookie, `/api/profile/${b.id}`),
          call(w.origin, a.cookie, "/api/profile-briefs/nearest"),
        ]);
        const listed = (nearest.body.items as { profileId: string }[]).some((it) => it.profileId === b.id);
        const shown = profile.status === 200;
        return listed && shown ? true : !listed && !shown ? false : "some";
      };
      // The other instance serves A's list and B's profile (and keeps what it read for them).
      // (Its position index learns B's report at its next tail of the position log: seconds.)
      await within(async () => (await seesB(two)) === true, "B shows on the other instance", 15_000);
      for (let i = 0; i < 5; i++) assert.equal(await seesB(two), true);

      const t = performance.now();
      const block = await call(one.origin, b.cookie, "/api/profile-like", {
        method: "PUT",
        body: JSON.stringify({ likerProfileId: b.id, likedProfileId: a.id, likeType: "DISLIKE", blocked: true }),
      });
      assert.equal(block.status, 200, JSON.stringify(block.body));
      // At once where the block was written.
      assert.equal(await seesB(one), false);
      const ms = await within(async () => (await seesB(two)) === false, "B hidden on the other instance");
      assert.ok(performance.now() - t < 1000, `hidden after ${ms.toFixed(0)} ms`);
      // Hidden for good, not once.
      for (let i = 0; i < 3; i++) assert.equal(await seesB(two), false);
    });
  },
});

Deno.test({
  name: "kept reads - a profile name and an account's language changed through one instance show on another within 1 s",
  sanitizeResources: false,
  async fn() {
    await withTwoInstances(async ({ one, two }) => {
      const a = await member(one, "kept-c@example.com", { lat: 51.5, lon: -0.12 });
      const b = await member(one, "kept-d@example.com", { lat: 51.51, lon: -0.13 });
      const nameOnTwo = async () => (await call(two.origin, a.cookie, `/api/profile/${b.id}`)).body?.profilename;
      // The page's language is the caller's account's, kept with their session.
      const langOnTwo = async () => {
        const html = await (await fetch(`${two.origin}/settings`, { headers: { cookie: b.cookie } })).text();
        return html.match(/<html lang="([^"]+)"/)?.[1];
      };
      for (let i = 0; i < 5; i++) {
        assert.equal(typeof await nameOnTwo(), "string");
        assert.equal(await langOnTwo(), "en");
      }

      let t = performance.now();
      const put = await call(one.origin, b.cookie, "/api/profile", {
        method: "PUT",
        body: JSON.stringify({ profilename: "Kept Renamed" }),
      });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      await within(async () => (await nameOnTwo()) === "Kept Renamed", "a new profile name on the other instance");
      assert.ok(performance.now() - t < 1000);

      t = performance.now();
      const language = await call(one.origin, b.cookie, "/api/settings/language", {
        method: "PUT",
        body: JSON.stringify({ language: "es" }),
      });
      assert.equal(language.status, 200, JSON.stringify(language.body));
      await within(async () => (await langOnTwo()) === "es", "the account's new language on the other instance");
      assert.ok(performance.now() - t < 1000);
    });
  },
});
