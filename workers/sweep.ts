/**
 * A sweep: work a worker process repeats on a timer (not a job: nothing enqueues it, and any
 * number of processes may run it, each run safe beside another's).
 */

/** A running sweep; `stop()` ends it and waits for a run under way. */
export interface Sweep {
  stop(): Promise<void>;
}

/** Runs `run` once; a failure is logged under `name` rather than thrown. */
export async function runLogged(name: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (e) {
    console.error(`${name}:`, e instanceof Error ? e.message : e);
  }
}

/**
 * Runs `run` `firstMs` after the start, then `everyMs()` after each run ends (one run at a time);
 * `run` is told whether the sweep was stopped, to end a long run early. A failed run is logged
 * under `name` and the sweep goes on.
 */
export function startSweep(
  name: string,
  run: (stopped: () => boolean) => Promise<unknown>,
  everyMs: () => number,
  firstMs = everyMs(),
): Sweep {
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    if (stopped) return;
    running = runLogged(name, () => run(() => stopped)).then(() => {
      if (!stopped) timer = setTimeout(tick, everyMs());
    });
  };
  let timer = setTimeout(tick, firstMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
