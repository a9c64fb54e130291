import assert from "node:assert/strict";
import { agoText, seenAgoText } from "./Time.tsx";

Deno.test("time - a short age: now, minutes, hours, days, then the date", () => {
  const at = Date.UTC(2026, 10, 21, 12, 0, 0);
  assert.equal(agoText(at - 5_000, at), "now");
  assert.equal(agoText(at + 5_000, at), "now", "a clock a little ahead is now");
  assert.equal(agoText(at - 5 * 60_000, at), "5m");
  assert.equal(agoText(at - 3 * 3_600_000, at), "3h");
  assert.equal(agoText(at - 2 * 86_400_000, at), "2d");
  assert.match(agoText(at - 30 * 86_400_000, at), /Oct/);
  assert.match(agoText(Date.UTC(2024, 0, 5), at), /2024/);
});

Deno.test("time - last seen in words, in the steps the server tells it: five minutes, then hours, then days", () => {
  const at = Date.UTC(2026, 10, 21, 12, 0, 0);
  assert.equal(seenAgoText(at - 2 * 60_000, at), "5 minutes ago", "never fewer than five minutes");
  assert.equal(seenAgoText(at - 7 * 60_000, at), "5 minutes ago");
  assert.equal(seenAgoText(at - 14 * 60_000, at), "10 minutes ago");
  assert.equal(seenAgoText(at - 59 * 60_000, at), "55 minutes ago");
  assert.equal(seenAgoText(at - 3 * 3_600_000 - 59 * 60_000, at), "3 hours ago");
  assert.equal(seenAgoText(at - 30 * 3_600_000, at), "yesterday");
  assert.equal(seenAgoText(at - 12 * 86_400_000, at), "12 days ago");
});
