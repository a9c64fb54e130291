import assert from "node:assert/strict";
import { LIKES_TABS, swipeLikeType, tabOfPath, toggled } from "./likes.ts";
import { TEXTS } from "../../domain/texts.ts";

Deno.test("likes client - swipes map to like types; an unknown swipe is ERROR", () => {
  assert.equal(swipeLikeType("right"), "LIKE");
  assert.equal(swipeLikeType("left"), "DISLIKE");
  assert.equal(swipeLikeType("down"), "UNDETERMINED");
  assert.equal(swipeLikeType("up"), "ERROR");
  assert.equal(swipeLikeType("sideways"), "ERROR");
});

Deno.test("likes client - the Like button toggles between LIKE and back", () => {
  assert.equal(toggled("UNDETERMINED"), "LIKE");
  assert.equal(toggled("DISLIKE"), "LIKE");
  assert.equal(toggled("LIKE"), "UNDETERMINED");
});

Deno.test("likes client - four tabs with the spec's labels and first-tab texts", () => {
  assert.deepEqual(LIKES_TABS.map((t) => t.label), ["Liked You", "Your Pics", "You Liked", "Their Pics"]);
  assert.equal(LIKES_TABS[0].empty, "Some day your prince will come...");
  assert.equal(LIKES_TABS[0].end, "That's all folks...");
  for (const t of LIKES_TABS) {
    assert.ok(t.empty && t.end, `${t.id} has an empty and an end text`);
    assert.equal(tabOfPath(`/likes/${t.id}`), t);
  }
  assert.equal(tabOfPath("/likes/other"), undefined);
  assert.equal(TEXTS.blockedRedirecting, "Blocked and Redirecting...");
});
