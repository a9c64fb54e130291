/**
 * Languages. Every member-facing text lives in a catalogue (TEXTS, DISCOVERY_TEXTS, GAME_TEXTS,
 * MODERATION_TEXTS, NOTIFICATION_TEXTS, SCREEN_TEXTS, UI_TEXTS), written in English (the spec's
 * words, exactly) in domain/locales/en/ and translated in domain/locales/; the catalogue's own
 * module (domain/texts.ts, ...) puts the languages together. A catalogue is `localized`: reading `TEXTS.like` gives the text
 * of the language in use, so the components that read the catalogues need no change.
 *
 * The language in use: in the browser, the page's `<html lang>` (the server chose it); on the
 * server, the request's (routes/middleware.ts keeps it per request), so the server's HTML and the
 * hydrating render always agree. It comes from the member's setting, else the browser's
 * Accept-Language, else English.
 */

import { memoize, strategies } from "@formatjs/fast-memoize";
import { setNewest } from "./newest.ts";

export const LOCALES = ["en", "es", "pt-BR", "fr", "ar"] as const;
export type Locale = typeof LOCALES[number];
/** What each language is called, in itself (the settings' choice). */
export const LOCALE_NAMES: Record<Locale, string> = {
  en: "English",
  es: "Español",
  "pt-BR": "Português (Brasil)",
  fr: "Français",
  ar: "العربية",
};
/** The languages written right to left. */
const RTL: ReadonlySet<Locale> = new Set(["ar"]);

/**
 * The development pseudo-locale: English with every catalogue text accented, bracketed and 40%
 * longer, so a text that did not come from a catalogue, or a box too small for a longer language,
 * shows. Never offered to members: the server uses it only when PSEUDO_LOCALE is set (tests,
 * development) and the `lang` cookie asks for it. Its dates and numbers are English.
 */
export const PSEUDO_LOCALE = "en-XA";
/** The language of a page: one of the app's, or the pseudo-locale. */
export type PageLang = Locale | typeof PSEUDO_LOCALE;

let serverLocale: PageLang = "en";
/** The server's per-request language (routes/middleware.ts keeps it in an AsyncLocalStorage). */
let requestLocale: () => PageLang | undefined = () => undefined;

/** Tells the catalogues where the server keeps the language of the request being served. */
export function setRequestLocaleSource(source: () => PageLang | undefined): void {
  requestLocale = source;
}

/** Is `x` one of the app's languages? */
function isLocale(x: unknown): x is Locale {
  return typeof x === "string" && (LOCALES as readonly string[]).includes(x);
}

/** The page's language (see the module comment): the pseudo-locale included. */
export function pageLang(): PageLang {
  if (typeof document !== "undefined") {
    const lang = document.documentElement.lang;
    return isLocale(lang) || lang === PSEUDO_LOCALE ? lang : "en";
  }
  return requestLocale() ?? serverLocale;
}

/** The language in use: its texts, formats and plurals (the pseudo-locale's are English). */
export function locale(): Locale {
  const l = pageLang();
  return l === PSEUDO_LOCALE ? "en" : l;
}

/** The writing direction of the page's language. */
export function dir(l: PageLang = pageLang()): "ltr" | "rtl" {
  return l !== PSEUDO_LOCALE && RTL.has(l) ? "rtl" : "ltr";
}

/** Runs a synchronous render in a language (the server's page renders). */
export function withLocale<T>(l: PageLang, render: () => T): T {
  const before = serverLocale;
  serverLocale = l;
  try {
    return render();
  } finally {
    serverLocale = before;
  }
}

/** The best of the app's languages for an Accept-Language header (quality order), else English. */
export function negotiate(acceptLanguage: string | null | undefined): Locale {
  const wanted = (acceptLanguage ?? "").split(",").map((part, i) => {
    const [tag, ...params] = part.trim().split(";");
    const q = Number(params.find((p) => p.trim().startsWith("q="))?.trim().slice(2) ?? 1);
    return { tag: tag.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0, i };
  }).filter((w) => w.tag && w.q > 0).sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of wanted) {
    if (tag === "*") return "en";
    const base = tag.split("-")[0];
    if (base === "en") return "en";
    if (base === "es") return "es";
    // Portuguese of any region reads the Brazilian catalogue (the only one).
    if (base === "pt") return "pt-BR";
    if (base === "fr") return "fr";
    if (base === "ar") return "ar";
  }
  return "en";
}

/** A translated value: the same shape, any text (functions keep their parameters). */
type Widen<T> = T extends string ? string
  : T extends (...args: infer A) => string ? (...args: A) => string
  : T extends readonly unknown[] ? { [K in keyof T]: Widen<T[K]> }
  : T extends object ? { [K in keyof T]: Widen<T[K]> }
  : T;
/** A catalogue's translation: every key of the English one. */
export type Translation<T> = { [K in keyof T]: Widen<T[K]> };

/** A catalogue that answers in the language in use (English where a translation lacks a key). */
function localized<T extends object>(en: T, translations: Record<Exclude<Locale, "en">, Translation<T>>): T {
  return new Proxy(en, {
    get(target, key, receiver) {
      const l = pageLang();
      if (l === PSEUDO_LOCALE) return pseudo(Reflect.get(target, key, receiver));
      if (l !== "en") {
        const tr = translations[l] as Record<PropertyKey, unknown> | undefined;
        if (tr && key in tr) return tr[key];
      }
      return Reflect.get(target, key, receiver);
    },
  });
}

/** The translations of a catalogue, for the test that no language lacks a key. */
export const CATALOGUES: { name: string; en: object; translations: Record<string, object> }[] = [];

/** Registers a catalogue for that test, and returns it localized. */
export function catalogue<T extends object>(
  name: string,
  en: T,
  translations: Record<Exclude<Locale, "en">, Translation<T>>,
): T {
  CATALOGUES.push({ name, en, translations });
  return localized(en, translations);
}

/** Accented stand-ins of the ASCII letters (the pseudo-locale). */
const ACCENTED: Record<string, string> = Object.fromEntries(
  [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"].map((c, i) => [
    c,
    [..."àƀçđéƒĝĥîĵķĺɱñöþǫŕšţûṽŵẋýžÀßÇĐÉƑĜĤÎĴĶĹḾÑÖÞǪŔŠŢÛṼŴẊÝŽ"][i],
  ]),
);
/** Words that make a pseudo text 40% longer (breakable, as a real language's words are). */
const FILLER = ["ŏñé", "ţŵŏ", "ţĥŕéé", "ƒŏûŕ", "ƒîṽé", "šîẋ", "šéṽéñ", "éîĝĥţ", "ñîñé", "ţéñ"];

/** A text in the pseudo-locale: accented, bracketed, 40% longer. */
export function pseudoText(s: string): string {
  if (!s.trim()) return s;
  // A `{name}` mark (domain/phrases.ts) stays as it is: a value goes there.
  const accented = s.replace(/\{\w+\}|[A-Za-z]/g, (c) => c.length > 1 ? c : ACCENTED[c]);
  const extra: string[] = [];
  for (let i = 0, more = Math.ceil(s.length * 0.4); more > 0; i++) {
    const w = FILLER[i % FILLER.length];
    extra.push(w);
    more -= w.length + 1;
  }
  return `⟦${accented} ${extra.join(" ")}⟧`;
}

/** A catalogue value in the pseudo-locale: texts, the texts functions return, nested values alike. */
function pseudo(value: unknown): unknown {
  if (typeof value === "string") return pseudoText(value);
  if (typeof value === "function") return (...args: unknown[]) => pseudo(value(...args));
  if (value && typeof value === "object") {
    return new Proxy(value, { get: (target, key, receiver) => pseudo(Reflect.get(target, key, receiver)) });
  }
  return value;
}

/**
 * The Intl locale of a language. Arabic's digits are named (Western digits, CLDR's current default
 * for "ar"), so the server and a browser whose ICU is older write the same numbers.
 */
export function intlLocale(l: Locale = locale()): string {
  return l === "ar" ? "ar-u-nu-latn" : l;
}

/**
 * The most formatters of one kind kept, the oldest made forgotten past it. The app's own locales
 * and options make a few dozen; a time zone is the member's to name (any spelling Intl accepts,
 * checked by making its clock), so without a bound names sent by the thousand would each keep one.
 */
export const KEPT_FORMATTERS = 500;
/** A memoizer's cache that keeps the newest KEPT_FORMATTERS entries. */
const newest = {
  create<V>() {
    const kept = new Map<string, V>();
    return {
      get: (key: string) => kept.get(key),
      set: (key: string, v: V) => setNewest(kept, key, v, KEPT_FORMATTERS),
    };
  },
};

/**
 * Intl's formatters, each made once per locale and options and kept: making one costs tens of
 * microseconds (a distance on every tile, a time on every message), using one about one.
 */
export const numberFormat: (locale: string, options?: Intl.NumberFormatOptions) => Intl.NumberFormat = memoize(
  (locale: string, options?: Intl.NumberFormatOptions) => new Intl.NumberFormat(locale, options),
  { strategy: strategies.variadic, cache: newest },
);
/** See `numberFormat`. */
export const dateTimeFormat: (locale: string, options?: Intl.DateTimeFormatOptions) => Intl.DateTimeFormat = memoize(
  (locale: string, options?: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat(locale, options),
  { strategy: strategies.variadic, cache: newest },
);
/** See `numberFormat`. */
export const relativeTimeFormat: (locale: string, options?: Intl.RelativeTimeFormatOptions) => Intl.RelativeTimeFormat =
  memoize(
    (locale: string, options?: Intl.RelativeTimeFormatOptions) => new Intl.RelativeTimeFormat(locale, options),
    { strategy: strategies.variadic, cache: newest },
  );
const pluralRules: (locale: string) => Intl.PluralRules = memoize((locale: string) => new Intl.PluralRules(locale), {
  strategy: strategies.monadic,
  cache: newest,
});

/** A count in the language in use (its digits and grouping). */
export function num(n: number): string {
  return numberFormat(intlLocale()).format(n);
}

/** The forms of a counted text, by plural category (Arabic uses all six); `#` is the count. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** The form of a counted text for `n` in the language in use (Intl.PluralRules), the count written in. */
export function plural(n: number, forms: PluralForms): string {
  const form = forms[pluralRules(intlLocale()).select(n)] ?? forms.other;
  return form.replaceAll("#", num(n));
}
