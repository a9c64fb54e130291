/**
 * The sweep that reveals health notices when their random delay is over (kv/healthNotices.ts):
 * every SWEEP_MAX_MS at most, sooner when the longest delay is short (tests). Any number of
 * instances may sweep: each notice is revealed once, by an atomic checked against it.
 */

import { revealDueNotices } from "../kv/healthNotices.ts";
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
