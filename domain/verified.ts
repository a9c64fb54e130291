/**
 * The Verified badge's texts, the discovery filter and the message setting that rest on it: the
 * small part of 3 2 1 Identify (domain/identify.ts) that discovery, chat and settings show, kept
 * apart so those pages do not carry the game's poses and screens.
 */

import { catalogue } from "./i18n.ts";
import { EN_VERIFIED, type EnVerified } from "./locales/en/verified.ts";
import { VERIFIED_ES } from "./locales/es/mod.ts";
import { VERIFIED_PT_BR } from "./locales/ptBR/mod.ts";
import { VERIFIED_FR } from "./locales/fr/mod.ts";
import { VERIFIED_AR } from "./locales/ar/mod.ts";

export type { EnVerified };

export const VERIFIED_TEXTS = catalogue("VERIFIED_TEXTS", EN_VERIFIED, {
  es: VERIFIED_ES,
  "pt-BR": VERIFIED_PT_BR,
  fr: VERIFIED_FR,
  ar: VERIFIED_AR,
});
