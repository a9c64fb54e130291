/**
 * Waiting in tests for a condition, not for a time: `until` asks again and again until the answer
 * comes, and fails naming what it waited for once a deadline has passed. A test that checks that
 * something did NOT happen first waits for a later thing that went the same way (the sign that
 * the first would have happened by then), then checks.
 */

/** How long `until` waits unless told. */
export const UNTIL_MS = 10_000;

/**
 * Calls `probe` every `everyMs` until it returns a truthy value, which is returned; past
 * `timeoutMs` it throws an error naming `what`.
 */
export async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  { timeoutMs = UNTIL_MS, everyMs = 20 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<NonNullable<T>> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v as NonNullable<T>;
    if (performance.now() > deadline) throw new Error(`waited ${timeoutMs / 1000} s for ${what}`);
    await pause(everyMs);
  }
}

/** The next turn after `ms`: between two looks of `until`, or for a test whose subject is time itself. */
export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** `value` once `ms` have passed: the deadline side of a race with an event (`Promise.race([event, after(ms, null)])`). */
export function after<T>(ms: number, value: T): Promise<T> {
  return new Promise((r) => setTimeout(r, ms, value));
}

/**
 * For a test that times something on a machine it expects quiet: in `deno task test` the runner
 * starts such a file beside the last other test processes and writes the file SUITE_QUIET_FILE
 * names once they have all ended (scripts/run_tests.ts `QUIET`), so the file's setup runs beside
 * them and only its timed part alone. This waits for that file, then (at most `loadWaitMs`) for the
 * load average over a minute, which still counts the processes just ended, to come down to
 * `busyLoad`: a test that excuses what it measured on a busy machine then does not excuse it when
 * the machine was quiet (a load from elsewhere is still there after the wait: the test goes on as
 * it would have). Fifteen seconds by default: with this test alone on the machine the minute's
 * average falls from 7 to below the budgets' 6 in that time, and from 9 by the end of their third
 * round (a page over its budget is measured three times); a wait longer than that only spends the
 * wall time of a machine that others keep busy. Resolves to what was waited, as a line to print, or null when not in the suite
 * (no `file`): the caller measures at once.
 */
export async function othersEnded(
  { busyLoad, file = Deno.env.get("SUITE_QUIET_FILE"), loadWaitMs = 15_000 }: {
    busyLoad: number;
    file?: string;
    loadWaitMs?: number;
  },
): Promise<string | null> {
  if (!file) return null;
  const t = performance.now();
  while (!(await Deno.stat(file).then(() => true, () => false))) await pause(100);
  const ended = performance.now();
  while (Deno.loadavg()[0] > busyLoad && performance.now() - ended < loadWaitMs) await pause(100);
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  return `${s(ended - t)} waited for the other test processes to end, then ${s(performance.now() - ended)} ` +
    `for the load average (${Deno.loadavg()[0].toFixed(2)}, busy above ${busyLoad})`;
}
