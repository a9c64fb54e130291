import assert from "node:assert/strict";
import { isCachedRead, isKeptPage, isPicture, isTile, PRIVATE_PREFIX, privateCacheNames } from "./caches.ts";

Deno.test("offline caches - only the grid's briefs, the map's view and a conversation's messages are kept of the API", () => {
  for (
    const kept of [
      "/api/profile-briefs/nearest",
      "/api/profile-briefs/by-bounds",
      "/api/profile-briefs/map",
      "/api/profile-briefs/by-sector/33:-112",
      "/api/messages/most-recent-with/p1",
      "/api/messages/between/p1/p2",
    ]
  ) assert.ok(isCachedRead(kept), kept);
  for (
    const never of [
      "/api/settings",
      "/api/auth",
      "/api/account/data",
      "/api/message",
      "/api/messages/by-sector/1:2",
      "/api/profile-briefs/nearest/extra",
      "/api/notifications",
      "/dev/outbox",
      "/metrics",
    ]
  ) assert.ok(!isCachedRead(never), never);
});

Deno.test("offline caches - pictures and tiles by address; sign-in, admin and development pages are never kept", () => {
  assert.ok(isPicture("/api/profile-pic/abc"));
  assert.ok(isPicture("/api/profile-pic/nsfw/abc"));
  assert.ok(!isPicture("/api/profile-pics/abc"));
  assert.ok(isTile("/tiles/12/654/1632"));
  assert.ok(isTile("/tiles/12/654/1632.png"));
  assert.ok(!isTile("/tiles/12/654"));
  for (const page of ["/", "/search/tile", "/chat/personal", "/profile/p1", "/offline"]) {
    assert.ok(isKeptPage(page), page);
  }
  for (const page of ["/login", "/logout", "/register", "/admin/moderation", "/dev/outbox", "/metrics", "/api/x"]) {
    assert.ok(!isKeptPage(page), page);
  }
});

Deno.test("offline caches - one session's caches are named apart, all under the prefix the logout wipes", () => {
  const a = privateCacheNames("0a1b2c"), b = privateCacheNames("ffee00");
  for (const name of [...Object.values(a), ...Object.values(b)]) assert.ok(name.startsWith(PRIVATE_PREFIX), name);
  assert.equal(new Set([...Object.values(a), ...Object.values(b)]).size, 6);
  assert.equal(privateCacheNames("../x").pages, `${PRIVATE_PREFIX}pages-`, "only hex digits reach a cache name");
});
