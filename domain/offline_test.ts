import assert from "node:assert/strict";
import { CONFIRMATION_SKEW_MS, OFFLINE_CONFIRMED_MS, offlineCopiesUsable, parseConfirmedAt } from "./offline.ts";

const NOW = Date.UTC(2026, 10, 28, 18, 0);
const HOUR = 3_600_000;

Deno.test("offline copies - shown only while the session was confirmed within 24 h", () => {
  assert.equal(OFFLINE_CONFIRMED_MS, 24 * HOUR);
  assert.equal(offlineCopiesUsable(NOW, NOW), true, "confirmed just now");
  assert.equal(offlineCopiesUsable(NOW - 23 * HOUR, NOW), true, "23 h ago");
  assert.equal(offlineCopiesUsable(NOW - 24 * HOUR, NOW), true, "24 h ago, to the millisecond");
  assert.equal(offlineCopiesUsable(NOW - 24 * HOUR - 1, NOW), false, "just past 24 h");
  assert.equal(offlineCopiesUsable(NOW - 30 * 24 * HOUR, NOW), false, "a month ago");
  assert.equal(offlineCopiesUsable(null, NOW), false, "never confirmed on this device");
  assert.equal(offlineCopiesUsable(Number.NaN, NOW), false);
  assert.equal(offlineCopiesUsable(NOW - 2 * HOUR, NOW, HOUR), false, "a shorter limit");
});

Deno.test("offline copies - a clock set back a little is believed, far back is not", () => {
  assert.equal(offlineCopiesUsable(NOW + CONFIRMATION_SKEW_MS, NOW), true);
  assert.equal(offlineCopiesUsable(NOW + CONFIRMATION_SKEW_MS + 1, NOW), false);
  assert.equal(offlineCopiesUsable(NOW + 48 * HOUR, NOW), false, "confirmed 'in two days': the clock was set back");
});

Deno.test("offline copies - a stored confirmation is read back, anything else is none", () => {
  assert.equal(parseConfirmedAt(String(NOW)), NOW);
  assert.equal(parseConfirmedAt(` ${NOW}\n`), NOW);
  for (const bad of [null, undefined, "", "soon", "-5", "1e12", "12.5", "99999999999999999"]) {
    assert.equal(parseConfirmedAt(bad), null, String(bad));
  }
});
