import assert from "node:assert/strict";
import { MARKER_MAX_PX, MARKER_MIN_PX, markerSize } from "./markers.ts";

Deno.test("map markers - size follows screen area per profile, within 16 and 128 px", () => {
  assert.equal(markerSize(390, 844, 8), 68, "a few members on a phone");
  assert.ok(markerSize(390, 844, 8) > markerSize(390, 844, 40), "more members, smaller markers");
  assert.equal(markerSize(1366, 900, 799), MARKER_MIN_PX);
  assert.equal(markerSize(2560, 1440, 1), MARKER_MAX_PX);
  assert.equal(markerSize(390, 844, 0), MARKER_MAX_PX);
});
