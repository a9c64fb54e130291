/**
 * The phrases catalogue: English words written where they are used (domain/locales/en/phrases.ts),
 * translated by those words. phrase() gives one in the language in use.
 */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";
import { EN_PHRASES, type Phrase } from "./locales/en/phrases.ts";

export type { Phrase };

export const PHRASES = catalogue("PHRASES", { phrases: EN_PHRASES }, {
  es: es.PHRASES,
  "pt-BR": ptBR.PHRASES,
  fr: fr.PHRASES,
  ar: ar.PHRASES,
});

/** A phrase in the language in use, its `{name}` marks filled from `values`. */
export function phrase(english: Phrase, values: Record<string, string | number> = {}): string {
  const text = PHRASES.phrases[english] ?? english;
  return text.replace(/\{(\w+)\}/g, (m, name: string) => name in values ? String(values[name]) : m);
}
