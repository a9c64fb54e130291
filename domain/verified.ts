/**
 * The Verified badge's texts, the discovery filter and the message setting that rest on it: the
 * small part of 3 2 1 Identify (domain/identify.ts) that discovery, chat and settings show, kept
 * apart so those pages do not carry the game's poses and screens.
 */

import { catalogue } from "./i18n.ts";
import { EN_VERIFIED, type EnVerified } from "./locales/en/verified.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";

export type { EnVerified };

export const VERIFIED_TEXTS = catalogue("VERIFIED_TEXTS", EN_VERIFIED, {
  es: es.VERIFIED_TEXTS,
  "pt-BR": ptBR.VERIFIED_TEXTS,
  fr: fr.VERIFIED_TEXTS,
  ar: ar.VERIFIED_TEXTS,
});
