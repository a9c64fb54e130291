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

const SWEEP_MAX_MS = 60_000;

/** How often to sweep: a tenth of the longest delay, between 200 ms and a minute. */
function sweepEveryMs(maxDelayMs = config.healthNoticeMaxDelayMs): number {
  return Math.min(SWEEP_MAX_MS, Math.max(200, Math.floor(maxDelayMs / 10)));
}

/** Starts the sweep; `stop()` ends it and waits for a sweep under way. */
export function startHealthSweep(): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = (async () => {
      try {
        while (!stopped && (await revealDueNotices()) === 100);
      } catch (e) {
        console.error("health notices sweep:", e instanceof Error ? e.message : e);
      }
      if (!stopped) timer = setTimeout(tick, sweepEveryMs());
    })();
  };
  let timer = setTimeout(tick, sweepEveryMs());
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * Writes the health reports' pending spends (kv/healthSpends.ts) at the clock's multiples of
 * HEALTH_SPEND_FLUSH_MS (the top of each hour by default), every sender of the period in one
 * commit; `stop()` ends the timer and flushes what is left (a server that stops). Each web process
 * runs one: the spends are kept by the process that took the report.
 */
export function startHealthSpendFlush(periodMs = config.healthSpendFlushMs): { stop(): Promise<void> } {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    try {
      await flushHealthSpends();
    } catch (e) {
      console.error("health spends flush:", e instanceof Error ? e.message : e);
    }
  };
  // The next multiple of the period by the server's clock (tests shift it: kv/clock.ts).
  const untilNext = () => periodMs - (now() % periodMs);
  const tick = () => {
    if (stopped) return;
    running = flush().then(() => {
      if (!stopped) timer = setTimeout(tick, untilNext());
    });
  };
  let timer = setTimeout(tick, untilNext());
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      await flush();
    },
  };
}
