/**
 * The sweep that reveals health notices when their random delay is over (kv/healthNotices.ts):
 * every SWEEP_MAX_MS at most, sooner when the longest delay is short (tests). Any number of
 * instances may sweep: each notice is revealed once, by an atomic checked against it. And the
 * flush of each web process's pending health spends, at fixed clock times (kv/healthSpends.ts).
 */

import { revealDueNotices } from "../kv/healthNotices.ts";
import { flushHealthSpends } from "../kv/healthSpends.ts";
import { now } from "../kv/clock.ts";
import { config } from "../config/config.ts";
import { runLogged, startSweep, type Sweep } from "./sweep.ts";

const SWEEP_MAX_MS = 60_000;

/** How often to sweep: a tenth of the longest delay, between 200 ms and a minute. */
function sweepEveryMs(maxDelayMs = config.healthNoticeMaxDelayMs): number {
  return Math.min(SWEEP_MAX_MS, Math.max(200, Math.floor(maxDelayMs / 10)));
}

/** Starts the sweep; `stop()` ends it and waits for a sweep under way. */
export function startHealthSweep(): Sweep {
  return startSweep("health notices sweep", async (stopped) => {
    while (!stopped() && (await revealDueNotices()) === 100);
  }, () => sweepEveryMs());
}

/**
 * Writes the health reports' pending spends (kv/healthSpends.ts) at the clock's multiples of
 * HEALTH_SPEND_FLUSH_MS (the top of each hour by default), every sender of the period in one
 * commit; `stop()` ends the timer and flushes what is left (a server that stops). Each web process
 * runs one: the spends are kept by the process that took the report.
 */
export function startHealthSpendFlush(periodMs = config.healthSpendFlushMs): Sweep {
  // The next multiple of the period by the server's clock (tests shift it: kv/clock.ts).
  const name = "health spends flush";
  const sweep = startSweep(name, () => flushHealthSpends(), () => periodMs - (now() % periodMs));
  return {
    async stop() {
      await sweep.stop();
      await runLogged(name, flushHealthSpends);
    },
  };
}
