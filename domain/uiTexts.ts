/**
 * Texts of the islands' screens, in the three languages (domain/i18n.ts), kept here rather than
 * inline so every screen reads the language in use; the English in domain/locales/en/uiTexts.ts.
 */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";
import { EN_UI_TEXTS } from "./locales/en/uiTexts.ts";

export const UI_TEXTS = catalogue("UI_TEXTS", EN_UI_TEXTS, {
  es: es.UI_TEXTS,
  "pt-BR": ptBR.UI_TEXTS,
  fr: fr.UI_TEXTS,
  ar: ar.UI_TEXTS,
});
