import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { sharedBuild } from "../../tests/islands_build.ts";
import { reloadManifest } from "../assets.ts";
import { TEXTS } from "../../domain/texts.ts";

// The islands as built for these sources, shared with the other test files (and runs).
await sharedBuild();
reloadManifest();

Deno.test("likes pages - each tab renders its title, the tabs and its first page on the server", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "LIKE" },
    });
    const likedYou = await t.call("GET", "/likes/profilelikedyou", { cookie: b.cookie });
    assert.equal(likedYou.status, 200);
    assert.match(likedYou.text, /<title>Liked You · /);
    assert.match(likedYou.text, new RegExp(`href="/profile/${a.profileId}"`));
    assert.match(likedYou.text, new RegExp(TEXTS.thatsAllFolks.replace(/[.]/g, "\\.").replace("'", "(&#x27;|')")));
    for (const label of ["Your Pics", "You Liked", "Their Pics"]) assert.match(likedYou.text, new RegExp(`>${label}<`));
    const empty = await t.call("GET", "/likes/profilelikedyou", { cookie: a.cookie });
    assert.match(empty.text, new RegExp(TEXTS.likedYouEmpty.replace(/[.]/g, "\\.")));
    const youLiked = await t.call("GET", "/likes/youlikedprofile", { cookie: a.cookie });
    assert.match(youLiked.text, /<title>You Liked · /);
    assert.match(youLiked.text, new RegExp(`href="/profile/${b.profileId}"`));
    assert.equal((await t.call("GET", "/likes/profilelikedyou")).status, 302, "logged out: to /login");
  } finally {
    t.close();
  }
});

Deno.test("rate-swipe page - nothing to rate for a missing, unknown or own profile", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    for (const q of ["", "?profileId=nobody", `?profileId=${a.profileId}`]) {
      const r = await t.call("GET", `/profilePicRateSwipe${q}`, { cookie: a.cookie });
      assert.equal(r.status, 200);
      assert.match(r.text, /There are no pictures to rate here\./);
    }
  } finally {
    t.close();
  }
});
