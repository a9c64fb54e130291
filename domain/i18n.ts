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

export const LOCALES = ["en", "es", "pt-BR"] as const;
export type Locale = typeof LOCALES[number];
/** What each language is called, in itself (the settings' choice). */
export const LOCALE_NAMES: Record<Locale, string> = { en: "English", es: "Español", "pt-BR": "Português (Brasil)" };

let serverLocale: Locale = "en";
/** The server's per-request language (routes/middleware.ts keeps it in an AsyncLocalStorage). */
let requestLocale: () => Locale | undefined = () => undefined;

/** Tells the catalogues where the server keeps the language of the request being served. */
export function setRequestLocaleSource(source: () => Locale | undefined): void {
  requestLocale = source;
}

/** Is `x` one of the app's languages? */
function isLocale(x: unknown): x is Locale {
  return typeof x === "string" && (LOCALES as readonly string[]).includes(x);
}

/** The language in use (see the module comment). */
export function locale(): Locale {
  if (typeof document !== "undefined") {
    const lang = document.documentElement.lang;
    return isLocale(lang) ? lang : "en";
  }
  return requestLocale() ?? serverLocale;
}

/** Runs a synchronous render in a language (the server's page renders). */
export function withLocale<T>(l: Locale, render: () => T): T {
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
      const l = locale();
      if (l !== "en") {
        const tr = translations[l] as Record<PropertyKey, unknown>;
        if (key in tr) return tr[key];
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
