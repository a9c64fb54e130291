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
