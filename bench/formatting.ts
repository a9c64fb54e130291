/**
 * What writing a distance or a time costs the app's shared formatting (domain/format.ts,
 * domain/screenTexts.ts, components/Time.tsx), which the server runs for each tile, brief and
 * message it renders, and a member's browser again as the page hydrates: a grid's distances, a
 * chat list's times and a timeline's ages, in English and Arabic, µs a text (the median of the
 * rounds), this checkout beside an earlier one's (`--before DIR`, its modules installed) in
 * alternating rounds, each writing the same texts (checked first).
 *
 * Run: `deno run -A bench/formatting.ts [--before DIR] [--texts 2000] [--rounds 5] [--record] [--name formatting]`.
 */

import { arg, loadAverageText, reportRowsBeside, type ResultRow } from "./kit.ts";

const root = new URL("..", import.meta.url).pathname;
const TEXTS = Math.max(100, Number(arg("texts", "2000")));
const ROUNDS = Math.max(1, Number(arg("rounds", "5")));
const BEFORE = arg("before", "");
const NAME = arg("name", "formatting");
const AT = Date.UTC(2026, 10, 28, 15, 0);

/** The writers a checkout has, each in a language. */
interface Writers {
  distance(meters: number): string;
  chatTime(ts: number, at: number, lang: "en" | "ar"): string;
  ago(ts: number, at: number): string;
  withLocale<T>(l: "en" | "ar", render: () => T): T;
}

async function writersOf(from: string): Promise<Writers> {
  const format = await import(`${from}/domain/format.ts`);
  const screen = await import(`${from}/domain/screenTexts.ts`);
  const time = await import(`${from}/components/Time.tsx`);
  const i18n = await import(`${from}/domain/i18n.ts`);
  return {
    distance: format.distanceText,
    chatTime: screen.chatTimeText,
    ago: time.agoText,
    withLocale: i18n.withLocale,
  };
}

/** The inputs: distances from a few metres to tens of miles, times from a minute to a year ago. */
const meters = Array.from({ length: TEXTS }, (_, i) => 5 + (i * 7919) % 60_000);
const times = Array.from({ length: TEXTS }, (_, i) => AT - 60_000 * (1 + (i * 104_729) % 600_000));

const KINDS: [string, (w: Writers, i: number, lang: "en" | "ar") => string][] = [
  ["a tile's distance", (w, i) => w.distance(meters[i])],
  ["a chat list's time", (w, i, lang) => w.chatTime(times[i], AT, lang)],
  ["a timeline's age", (w, i) => w.ago(times[i], AT)],
];

/** µs a text for one kind in one language. */
function time(w: Writers, kind: (w: Writers, i: number, lang: "en" | "ar") => string, lang: "en" | "ar"): number {
  return w.withLocale(lang, () => {
    let chars = 0;
    const t = performance.now();
    for (let i = 0; i < TEXTS; i++) chars += kind(w, i, lang).length;
    const us = (performance.now() - t) * 1000 / TEXTS;
    if (chars === 0) throw new Error("nothing written");
    return us;
  });
}

if (import.meta.main) {
  const checkouts: [string, Writers][] = [["this checkout", await writersOf(root)]];
  if (BEFORE) checkouts.push([`before (${BEFORE})`, await writersOf(BEFORE)]);
  for (const lang of ["en", "ar"] as const) {
    for (const [name, kind] of KINDS) {
      const texts = checkouts.map(([, w]) =>
        w.withLocale(lang, () => meters.map((_, i) => kind(w, i, lang)).join("|"))
      );
      if (texts.some((t) => t !== texts[0])) throw new Error(`the checkouts write ${name} in ${lang} apart`);
    }
  }
  const figures = new Map<string, Map<string, number[]>>();
  for (let r = 0; r < ROUNDS; r++) {
    for (const [label, w] of r % 2 ? checkouts.toReversed() : checkouts) {
      const mine = figures.get(label) ?? new Map<string, number[]>();
      for (const lang of ["en", "ar"] as const) {
        for (const [name, kind] of KINDS) {
          const key = `${name}, ${lang === "en" ? "English" : "Arabic"}`;
          mine.set(key, [...(mine.get(key) ?? []), time(w, kind, lang)]);
        }
      }
      figures.set(label, mine);
    }
  }
  const median = (xs: number[]) => xs.toSorted((a, b) => a - b)[xs.length >> 1];
  const rows = (label: string): ResultRow[] =>
    [...figures.get(label)!].map(([metric, xs]) => ({
      bench: "formatting",
      metric: `${metric}: µs a text, median of ${ROUNDS} rounds of ${TEXTS}`,
      unit: "µs",
      value: Math.round(median(xs) * 100) / 100,
      better: "lower" as const,
    }));
  for (const [label] of checkouts) {
    console.log(`${label}:`);
    for (const row of rows(label)) console.log(`  ${row.metric.split(":")[0]}: ${row.value} µs`);
  }
  console.log(`load ${loadAverageText()}`);
  const [l1, l5, l15] = Deno.loadavg();
  await reportRowsBeside(NAME, rows(checkouts[0][0]), BEFORE ? { dir: BEFORE, rows: rows(checkouts[1][0]) } : null, {
    note: `bench/formatting.ts, ${TEXTS} texts a kind, ${ROUNDS} rounds`,
    load: [l1, Math.max(l1, l5, l15)],
  });
}
