/** The one clock of the server. Tests shift it to check expiry without waiting. */

let offsetMs = 0;

/** Milliseconds since the epoch, shifted by `shiftClock`. */
export function now(): number {
  return Date.now() + offsetMs;
}

/** Moves the clock forward (or back) by `ms` for tests; `resetClock` undoes it. */
export function shiftClock(ms: number): void {
  offsetMs += ms;
}

/** Undoes every `shiftClock`. */
export function resetClock(): void {
  offsetMs = 0;
}
