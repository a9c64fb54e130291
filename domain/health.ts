/**
 * The Health Incident Report and its notices ("You got Cooties"): the conditions a member can tell
 * their contacts about, each condition's usual look-back period, the limits, and the English texts
 * (a part of GAME_TEXTS, translated in domain/locales/<lang>/health.ts).
 */

/** The conditions a member can tell about (OTHER: anything else their clinic advised telling). */
export const HEALTH_CONDITIONS = [
  "SYPHILIS",
  "GONORRHOEA",
  "CHLAMYDIA",
  "HIV",
  "HEPATITIS_A",
  "HEPATITIS_B",
  "HEPATITIS_C",
  "MPOX",
  "OTHER",
] as const;
export type HealthCondition = typeof HEALTH_CONDITIONS[number];

/**
 * The usual period to go back for each condition, in days (the partner-notification look-backs
 * public-health services use as a default; a clinic may advise another, so the member can choose).
 */
export const HEALTH_WINDOW_DAYS: Record<HealthCondition, number> = {
  SYPHILIS: 90,
  GONORRHOEA: 60,
  CHLAMYDIA: 60,
  HIV: 90,
  HEPATITIS_A: 60,
  HEPATITIS_B: 180,
  HEPATITIS_C: 180,
  MPOX: 21,
  OTHER: 90,
};

/** The periods a member can pick (every condition's default is one of them). */
export const HEALTH_PERIOD_CHOICES = [14, 21, 30, 60, 90, 180, 365] as const;

/** At most this many reports a calendar month (UTC) per member. */
export const HEALTH_REPORTS_PER_MONTH = 2;
/** Only accounts at least this many days old may report. */
export const HEALTH_MIN_ACCOUNT_DAYS = 7;
