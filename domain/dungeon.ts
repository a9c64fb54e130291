/**
 * Bad Boy Dungeon's rules: which report reasons are small enough for a time-out, how long a stay
 * lasts (24 h, then 3 days, then 7 days within 90 days), when the jury's agreement is strong enough
 * to decide without an admin (each juror weighted by how often they agreed with final verdicts),
 * the rules quiz that shortens a stay once, and the reported lines with other members' names
 * removed. The store side is kv/games/dungeon.ts.
 */

import { catalogue } from "./i18n.ts";
import { EN_DUNGEON, type EnDungeon } from "./locales/en/dungeon.ts";
import { DUNGEON_ES } from "./locales/es/dungeon.ts";
import { DUNGEON_PT_BR } from "./locales/ptBR/dungeon.ts";
import { DUNGEON_FR } from "./locales/fr/dungeon.ts";
import { DUNGEON_AR } from "./locales/ar/dungeon.ts";
import { formatUntil } from "./moderation.ts";

export type { EnDungeon };

export const DUNGEON_TEXTS = catalogue("DUNGEON_TEXTS", EN_DUNGEON, {
  es: DUNGEON_ES,
  "pt-BR": DUNGEON_PT_BR,
  fr: DUNGEON_FR,
  ar: DUNGEON_AR,
});

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * Report reasons of small misconduct (rudeness, spam-like behaviour, a misleading profile,
 * harassment in Map Chat): these alone may end in a time-out. Every other reason (threats, minors,
 * violence, illegal activity, pictures that break the rules, something else) goes to the admins.
 */
export const MINOR_REASONS = ["rude", "spam", "fake", "mapchat"] as const;
export type MinorReason = typeof MINOR_REASONS[number];

/** Is a report of this reason small enough for the dungeon? */
export function isMinorReason(reason: string): reason is MinorReason {
  return (MINOR_REASONS as readonly string[]).includes(reason);
}

/** A stay's length by its step: the first, the second and the third within `STAY_WINDOW_MS`. */
export const STAY_MS = [DAY_MS, 3 * DAY_MS, 7 * DAY_MS] as const;
/** Stays that began within this window count toward the next one's step. */
export const STAY_WINDOW_MS = 90 * DAY_MS;
/** No report waits longer than this for a decision: then the admins are told. */
export const ESCALATE_AFTER_MS = 48 * HOUR_MS;
/** A jury decides alone with at least this many votes ... */
export const JURY_MIN_VOTES = 5;
/** ... and at least this weighted share saying 'Violation'. */
export const JURY_MIN_SHARE = 0.8;

// What a stay takes away is part of the answers' contract, where it is written once.
export { RESTRICTED_ACTIONS, type RestrictedAction } from "./contractDungeon.ts";
import type { RestrictedAction } from "./contractDungeon.ts";

/** The step of a new stay, from how many stays began within the window before it (1 to 3). */
export function stayStep(recentStays: number): 1 | 2 | 3 {
  return Math.min(3, recentStays + 1) as 1 | 2 | 3;
}

/** How long a stay of this step lasts. */
export function stayLength(step: 1 | 2 | 3): number {
  return STAY_MS[step - 1];
}

/** A juror's record against final verdicts. */
export interface JurorRecord {
  agreed: number;
  total: number;
}

/**
 * A juror's weight: the share of final verdicts they agreed with, smoothed so that a new juror
 * counts one half and a long record counts as it is ((agreed + 1) / (total + 2)).
 */
export function jurorWeight(r: JurorRecord | null): number {
  return ((r?.agreed ?? 0) + 1) / ((r?.total ?? 0) + 2);
}

/** One vote with its juror's weight. */
export interface WeightedVote {
  violation: boolean;
  weight: number;
}

/** The weighted share of 'Violation' votes (0 with no votes). */
export function violationShare(votes: readonly WeightedVote[]): number {
  const all = votes.reduce((s, v) => s + v.weight, 0);
  if (all <= 0) return 0;
  return votes.reduce((s, v) => s + (v.violation ? v.weight : 0), 0) / all;
}

/** Does the jury agree strongly enough to decide without an admin? */
export function strongAgreement(votes: readonly WeightedVote[]): boolean {
  return votes.length >= JURY_MIN_VOTES && violationShare(votes) >= JURY_MIN_SHARE - 1e-9;
}

/** The end of a stay the quiz shortened: a third of its whole length taken off. */
export function shortenedUntil(tsStart: number, until: number): number {
  return until - Math.round((until - tsStart) / 3);
}

/** The quiz's right answers, by question (the texts are DUNGEON_TEXTS.questions). */
export const QUIZ_ANSWERS = [1, 1, 0, 1] as const;

/** Which answers are wrong (indices of the questions); none: the quiz is passed. */
export function wrongAnswers(answers: readonly number[]): number[] {
  return QUIZ_ANSWERS.flatMap((a, i) => answers[i] === a ? [] : [i]);
}

/** The longest reported text a reform card shows, and its most lines. */
export const MAX_LINES = 12;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The reported lines as the member in the dungeon reads them: every other member's name (the
 * reporter's name, each word of it of 2 letters or more, and any @mention) replaced by "…", so the
 * card shows what was said and never who said they were hurt by it.
 */
export function scrubbedLines(text: string, otherNames: readonly string[]): string[] {
  const words = [...new Set(otherNames.flatMap((n) => [n.trim(), ...n.split(/\s+/)]).filter((w) => w.length >= 2))]
    .sort((a, b) => b.length - a.length);
  let out = text.replace(/@[\p{L}\p{N}_.-]+/gu, "…");
  for (const w of words) {
    out = out.replace(new RegExp(`(?<![\\p{L}\\p{N}])${escape(w)}(?![\\p{L}\\p{N}])`, "giu"), "…");
  }
  return out.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).slice(0, MAX_LINES);
}

/**
 * A catalogue's list as a plain array: read item by item, so the pseudo-locale's proxy (which
 * wraps every value it hands out, methods too) never has to call a list method.
 */
export function itemsOf<T>(list: readonly T[]): T[] {
  return Array.from({ length: list.length }, (_, i) => list[i]);
}

/** The refusal of a restricted action, naming the end of the stay (in the language in use). */
export function restrictionMessage(action: RestrictedAction, until: number): string {
  return DUNGEON_TEXTS.refused[action](formatUntil(until));
}
