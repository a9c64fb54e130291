/** The one clock of the server. Tests shift it to check expiry without waiting, or hold it still. */

let offsetMs = 0;
/** While held (`holdClock`), the time the clock stands at. */
let heldAt: number | null = null;

/** Milliseconds since the epoch, shifted by `shiftClock`. */
export function now(): number {
  return heldAt ?? Date.now() + offsetMs;
}

/** Moves the clock forward (or back) by `ms` for tests; `resetClock` undoes it. */
export function shiftClock(ms: number): void {
  if (heldAt !== null) heldAt += ms;
  else offsetMs += ms;
}

/**
 * Stops the clock where it stands for tests (it moves only by `shiftClock`), so that calls a test
 * makes are at one server time however long each takes; `resetClock` lets it run again.
 */
export function holdClock(): void {
  heldAt = now();
}

/** Undoes every `shiftClock` and `holdClock`. */
export function resetClock(): void {
  offsetMs = 0;
  heldAt = null;
}
