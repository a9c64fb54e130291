/** Texts of the discovery screens: the spec's word for word, and ours where the spec is silent. */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es.ts";
import * as ptBR from "./locales/ptBR.ts";
import { EN_DISCOVERY } from "./locales/en/discovery.ts";

export const DISCOVERY_TEXTS = catalogue("DISCOVERY_TEXTS", EN_DISCOVERY, {
  es: es.DISCOVERY_TEXTS,
  "pt-BR": ptBR.DISCOVERY_TEXTS,
});

/** The swipes of the spec's cards: right is Nice (LIKE), left Meh (DISLIKE), down Skip (UNDETERMINED); up is disabled. */
export type SwipeDirection = "left" | "right" | "down";
