/**
 * Times of a member's activity as other members are told them. The store keeps each exact (last
 * seen in kv/presence.ts, where online means seen in the last 90 s; a shown position's time);
 * others learn roughly how long ago, as the screens say it ("Last seen 3 hours ago"), never the
 * minute a member opened or closed the app.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The steps a last-seen time is told to, finest first, each until it is this old, and the unit the
 * screens say it in (components/Time.tsx `seenAgoText`).
 */
const STEPS: readonly SeenStep[] = [
  { step: 5 * MINUTE_MS, until: HOUR_MS, unit: "minute", unitMs: MINUTE_MS },
  { step: HOUR_MS, until: DAY_MS, unit: "hour", unitMs: HOUR_MS },
  { step: DAY_MS, until: Infinity, unit: "day", unitMs: DAY_MS },
];

/** One step of `STEPS`. */
export interface SeenStep {
  step: number;
  until: number;
  unit: "minute" | "hour" | "day";
  unitMs: number;
}

/** The step a last-seen time told `age` ms ago is in. */
export function seenStep(age: number): SeenStep {
  return STEPS.find((s) => age < s.until)!;
}

/**
 * When a member last seen at `last` is told to have been seen, at `at`: the start of its five
 * minutes within the hour, of its hour within the day, of its day (UTC) after that. Each step is
 * taken by the age of the step before's start, never by the exact time, so neither the value nor
 * the moment it changes tells more than the five minutes.
 */
export function roughlySeen(last: number, at: number): number {
  let told = last;
  for (const { step, until } of STEPS) {
    told = Math.floor(last / step) * step;
    if (at - told < until) break;
  }
  return told;
}

/**
 * A time of a member's activity told at a fixed step, the start of its hour: when their shown
 * position was last written (the briefs', their rows' and the aggregates' `tsUpdated`), when their
 * profile was last edited (a profile as others see it). Nothing on the screens shows either; the
 * exact moment stays the store's.
 */
export function toldHour(ts: number): number {
  return Math.floor(ts / HOUR_MS) * HOUR_MS;
}
