import assert from "node:assert/strict";
import fc from "fast-check";
import { roughlySeen } from "./presence.ts";

const MIN = 60_000, HOUR = 60 * MIN, DAY = 24 * HOUR;
const T = Date.UTC(2026, 11, 1, 10, 57, 42, 123);

Deno.test("presence - last seen is told to five minutes within the hour, to the hour within the day, then to the day", () => {
  assert.equal(roughlySeen(T, T + 2 * MIN), Date.UTC(2026, 11, 1, 10, 55));
  assert.equal(roughlySeen(T, T + 3 * HOUR), Date.UTC(2026, 11, 1, 10));
  assert.equal(roughlySeen(T, T + 3 * DAY), Date.UTC(2026, 11, 1));
});

Deno.test("presence - two times within the same five minutes are told alike at every moment after", () => {
  const bucket = 5 * MIN, start = Math.floor(T / bucket) * bucket;
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: bucket - 1 }),
      fc.integer({ min: 0, max: bucket - 1 }),
      // Near where the told step changes (an hour, a day), and anywhere in the 30 days kept.
      fc.oneof(
        fc.integer({ min: HOUR - 2 * bucket, max: HOUR + bucket }),
        fc.integer({ min: DAY - 2 * HOUR, max: DAY + HOUR }),
        fc.integer({ min: 0, max: 40 * DAY }),
      ),
      (a, b, later) => {
        const at = start + bucket + later;
        const told = roughlySeen(start + a, at);
        assert.equal(told, roughlySeen(start + b, at));
        assert.ok(told <= start + a && start + a - told < DAY, "never later than seen, never a day earlier");
      },
    ),
  );
});
