/** Unit-test kit for kv/ modules: a test on a fresh `:memory:` KV, closed and the clock reset after. */

import { closeKv, openKv } from "../kv/db.ts";
import { resetClock } from "../kv/clock.ts";

/** `Deno.test` with its own `:memory:` KV. */
export function kvTest(name: string, fn: () => Promise<void>): void {
  Deno.test(name, async () => {
    await openKv(":memory:");
    try {
      await fn();
    } finally {
      resetClock();
      closeKv();
    }
  });
}
