/**
 * Birthdates and ages (spec §3, §5): a birthdate is a YYYY-MM-DD string, the age is derived from
 * it, and members are adults. Pure: every function takes the time it judges at.
 */

/** The youngest a member may be. */
export const MIN_AGE = 18;

/** Today's date in UTC as YYYY-MM-DD. */
function todayUtc(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** The latest birthdate of someone who is `MIN_AGE` today (UTC), YYYY-MM-DD. */
export function latestAdultBirthdate(at: number): string {
  const t = new Date(at);
  const y = t.getUTCFullYear() - MIN_AGE;
  const m = t.getUTCMonth(), d = t.getUTCDate();
  // 29 February of a leap year: the 18th birthday is 1 March in a common year.
  const day = new Date(Date.UTC(y, m, d));
  if (day.getUTCMonth() !== m) day.setUTCDate(0);
  return day.toISOString().slice(0, 10);
}

/** What a birthdate input becomes: the date to store, or why it is refused. */
export type BirthdateResult =
  | { ok: true; birthdate: string }
  | { ok: false; reason: "invalid" | "under_age" };

/**
 * Spec §5: a value not made of three dash-separated parts becomes today (and then shows no age).
 * A value of three parts must be a real date from 1900 on, of someone at least `MIN_AGE` years old.
 */
export function normalizeBirthdate(input: string, at: number): BirthdateResult {
  const s = input.trim();
  if (s.split("-").length !== 3) return { ok: true, birthdate: todayUtc(at) };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return { ok: false, reason: "invalid" };
  const d = new Date(`${s}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== s) return { ok: false, reason: "invalid" };
  if (s > todayUtc(at) || s < "1900-01-01") return { ok: false, reason: "invalid" };
  if (s > latestAdultBirthdate(at)) return { ok: false, reason: "under_age" };
  return { ok: true, birthdate: s };
}

/**
 * Whole years from `birthdate` to `at` (UTC), or null when there is no age to show: no birthdate,
 * or one under `MIN_AGE` (only the spec's "garbage becomes today" case, or a record from before
 * the rule, can hold one).
 */
export function ageOf(birthdate: string, at: number): number | null {
  const n = ageDayOf(at);
  if (n !== agesDay) {
    ages.clear();
    agesDay = n;
    const t = new Date(n * DAY_MS);
    today = { y: t.getUTCFullYear(), md: (t.getUTCMonth() + 1) * 100 + t.getUTCDate() };
  }
  let age = ages.get(birthdate);
  if (age === undefined) {
    age = yearsTo(birthdate, today);
    if (ages.size < MAX_KEPT_AGES) ages.set(birthdate, age);
  }
  return age;
}

/**
 * The UTC day of `at` as a number: `ageOf` gives the same age for a birthdate all through one, so
 * a day and a birthdate stand for an age (a page's signature holds the day, kv/briefs.ts).
 */
export function ageDayOf(at: number): number {
  return Math.floor(at / DAY_MS);
}

/** When the UTC day of `at` ends (the next `ageDayOf` begins), ms since the epoch. */
export function ageDayEnd(at: number): number {
  return (ageDayOf(at) + 1) * DAY_MS;
}

function yearsTo(birthdate: string, day: { y: number; md: number }): number | null {
  if (!BIRTHDATE.test(birthdate)) return null;
  const y = Number(birthdate.slice(0, 4)), md = Number(birthdate.slice(5, 7)) * 100 + Number(birthdate.slice(8, 10));
  const age = day.y - y - (day.md < md ? 1 : 0);
  return age >= MIN_AGE ? age : null;
}

const BIRTHDATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;
/**
 * The ages of the UTC day asked last, by birthdate: a page of briefs asks up to 800 of them, mostly
 * the same again and again (a year holds 365 birthdates). At most this many are kept.
 */
const MAX_KEPT_AGES = 50_000;
let agesDay = NaN;
let today = { y: 0, md: 0 };
const ages = new Map<string, number | null>();
