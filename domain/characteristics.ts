/**
 * The characteristic categories of spec §3, the one list the profile editor, the profile view,
 * the API's validation and the map filters share. Values are stored lowercase; `label` is how
 * the spec spells them.
 */

import { type Phrase, phrase } from "./phrases.ts";

/** One characteristic: the stored lowercase value and its label. */
export interface Characteristic {
  value: string;
  label: string;
}

/** One category with its characteristics, in the spec's order. */
export interface CharacteristicCategory {
  name: string;
  items: Characteristic[];
}

/** A category: its name and labels in the language in use, its values the spec's words lowercased. */
const category = (name: Phrase, labels: Phrase[]): CharacteristicCategory => ({
  get name() {
    return phrase(name);
  },
  items: labels.map((label) => ({
    value: label.toLowerCase(),
    get label() {
      return phrase(label);
    },
  })),
});

/** The seven categories of spec §3. */
export const CHARACTERISTIC_CATEGORIES: readonly CharacteristicCategory[] = [
  category("Meet", ["Hosting", "Traveling", "Cruising", "Bar", "Coffee"]),
  category("Positions", ["Top", "Bottom", "Versatile", "Oral"]),
  category("Safety", ["SafeOnly", "Hiv+", "Hiv-", "Condoms", "PrEP", "Doxy", "DDF", "Tested", "Vax+"]),
  category("Body", ["Hairy", "Smooth", "Masculine", "Feminine", "Transgender"]),
  category("Community", ["Bear", "Leather", "Trans", "BDSM", "Poz", "Puppy"]),
  category("Interests", [
    "Travel",
    "Fitness",
    "Outdoors",
    "Culture",
    "Cooking",
    "Art",
    "Homemaking",
    "Animals",
    "Gardening",
    "Professional",
  ]),
  category("Kink", ["Fetish", "Taboo", "Kink", "FistTop", "FistBottom"]),
];

/** Every stored value, for validation. */
export const CHARACTERISTIC_VALUES: ReadonlySet<string> = new Set(
  CHARACTERISTIC_CATEGORIES.flatMap((c) => c.items.map((i) => i.value)),
);

const LABELS = new Map(CHARACTERISTIC_CATEGORIES.flatMap((c) => c.items.map((i) => [i.value, i] as const)));

/** The label of a stored value in the language in use ("prep" → "PrEP"); unknown values come back as given. */
export function characteristicLabel(value: string): string {
  return LABELS.get(value)?.label ?? value;
}

/** What an empty characteristics list displays (spec §3). */
export const NO_CHARACTERISTICS = "i'm so boring";

/**
 * Spec §5 map filter: true when `have` holds every one of `wanted` (an empty filter matches all).
 */
export function hasAllCharacteristics(have: readonly string[], wanted: readonly string[]): boolean {
  if (wanted.length === 0) return true;
  const set = new Set(have);
  return wanted.every((w) => set.has(w));
}

/**
 * Lowercases, trims and de-duplicates a list, keeping the order of first appearance; returns the
 * clean list and the values that are in no category.
 */
export function cleanCharacteristics(input: readonly string[]): { values: string[]; unknown: string[] } {
  const values: string[] = [];
  const unknown: string[] = [];
  for (const raw of input) {
    const v = raw.trim().toLowerCase();
    if (!CHARACTERISTIC_VALUES.has(v)) unknown.push(raw);
    else if (!values.includes(v)) values.push(v);
  }
  return { values, unknown };
}
