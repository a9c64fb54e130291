import assert from "node:assert/strict";
import { testApp } from "./api.ts";
import { offlineCacheId } from "../routes/middleware.ts";
import { CACHE_ID_HEADER } from "../islands/sw/caches.ts";

Deno.test("offline cache id - a hash of the session's public id, its own in discreet mode", async () => {
  const a = await offlineCacheId("session-1", false);
  assert.match(a, /^[0-9a-f]{24}$/);
  assert.equal(a, await offlineCacheId("session-1", false), "the same session names the same caches");
  assert.notEqual(a, await offlineCacheId("session-2", false));
  assert.notEqual(a, await offlineCacheId("session-1", true), "discreet mode's pages are kept apart");
  // The caches already on members' devices keep their names: the first 12 bytes of the name's SHA-256.
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode("offline-cache\0session-1"));
  assert.equal(a, [...new Uint8Array(digest).slice(0, 12)].map((b) => b.toString(16).padStart(2, "0")).join(""));
});

Deno.test("offline cache id - a member's answers name their session's caches, never with the session's token; nobody's name none", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const page = await t.call("GET", "/offline", { cookie: m.cookie });
    assert.equal(page.status, 200);
    const id = page.headers.get(CACHE_ID_HEADER);
    assert.match(id ?? "", /^[0-9a-f]{24}$/);
    const token = m.cookie.split("=")[1];
    assert.ok(!token.includes(id!) && !id!.includes(token), "not the session's token");
    const discreet = await t.call("GET", "/offline", { cookie: `${m.cookie}; discreet=1` });
    assert.notEqual(discreet.headers.get(CACHE_ID_HEADER), id, "discreet pages under other caches");
    const other = await t.member();
    assert.notEqual((await t.call("GET", "/offline", { cookie: other.cookie })).headers.get(CACHE_ID_HEADER), id);
    const nobody = await t.call("GET", "/aboutus");
    assert.equal(nobody.headers.get(CACHE_ID_HEADER), null);
  } finally {
    t.close();
  }
});
