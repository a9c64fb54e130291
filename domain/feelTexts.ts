/**
 * Texts of the app's screens added to make it feel like an app (the filter sheet, home's people
 * nearby, dismissing the banner, chat times, confirming a block, settings' sections, empty states
 * and retries), in every language. Not the spec's texts: those stay in their catalogues.
 */

import { catalogue } from "./i18n.ts";
import { EN_FEEL, type EnFeelTexts } from "./locales/en/feel.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";

export const FEEL_TEXTS = catalogue("FEEL_TEXTS", EN_FEEL, {
  es: es.FEEL_TEXTS,
  "pt-BR": ptBR.FEEL_TEXTS,
  fr: fr.FEEL_TEXTS,
  ar: ar.FEEL_TEXTS,
});

export type { EnFeelTexts };
