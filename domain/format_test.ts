import assert from "node:assert/strict";
import { formatDistance, METERS_PER_FOOT, METERS_PER_MILE, profilePicUrl, shortName } from "./format.ts";

Deno.test("formatDistance - feet under one mile, rounded to whole feet", () => {
  assert.equal(formatDistance(0), "0 ft");
  assert.equal(formatDistance(100 * METERS_PER_FOOT), "100 ft");
  assert.equal(formatDistance(1000), "3281 ft");
  assert.equal(formatDistance(METERS_PER_MILE - 1), "5277 ft");
});

Deno.test("formatDistance - miles with two decimals from one mile on", () => {
  assert.equal(formatDistance(METERS_PER_MILE), "1.00 mi");
  assert.equal(formatDistance(1.255 * METERS_PER_MILE), "1.25 mi");
  assert.equal(formatDistance(2000), "1.24 mi");
  assert.equal(formatDistance(111_000), "68.97 mi");
});

Deno.test("formatDistance - a distance that rounds to 5280 ft shows as a mile", () => {
  assert.equal(formatDistance(METERS_PER_MILE - 0.1), "1.00 mi");
});

Deno.test("formatDistance - missing, negative or non-finite distances show nothing", () => {
  assert.equal(formatDistance(undefined), "");
  assert.equal(formatDistance(null), "");
  assert.equal(formatDistance(-1), "");
  assert.equal(formatDistance(Number.NaN), "");
  assert.equal(formatDistance(Number.POSITIVE_INFINITY), "");
});

Deno.test("shortName - keeps the first 12 characters", () => {
  assert.equal(shortName("Alex"), "Alex");
  assert.equal(shortName("123456789012"), "123456789012");
  assert.equal(shortName("Maximilian the Great"), "Maximilian t");
  assert.equal(shortName(""), "");
});

Deno.test("shortName - counts an emoji as one character and never splits it", () => {
  assert.equal(shortName("😀".repeat(13)), "😀".repeat(12));
  assert.equal(shortName("abcdefghijk😀z"), "abcdefghijk😀");
});

Deno.test("profilePicUrl - plain and NSFW routes with the width", () => {
  assert.equal(profilePicUrl("p1", 256), "/api/profile-pic/p1?scale_x=256");
  assert.equal(profilePicUrl("p1", 512, true), "/api/profile-pic/nsfw/p1?scale_x=512");
  assert.equal(profilePicUrl("a/b", 1024), "/api/profile-pic/a%2Fb?scale_x=1024");
});
