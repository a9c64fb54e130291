/** Texts of the discovery screens: the spec's word for word, and ours where the spec is silent. */

import { catalogue, dir } from "./i18n.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";
import { EN_DISCOVERY } from "./locales/en/discovery.ts";

export const DISCOVERY_TEXTS = catalogue("DISCOVERY_TEXTS", EN_DISCOVERY, {
  es: es.DISCOVERY_TEXTS,
  "pt-BR": ptBR.DISCOVERY_TEXTS,
  fr: fr.DISCOVERY_TEXTS,
  ar: ar.DISCOVERY_TEXTS,
});

/** The swipes of the spec's cards: right is Nice (LIKE), left Meh (DISLIKE), down Skip (UNDETERMINED); up is disabled. */
export type SwipeDirection = "left" | "right" | "down";

/** The word a swipe stamps on its card: Nice, Meh or Skip. */
export function swipeStamp(direction: SwipeDirection): string {
  return direction === "right"
    ? DISCOVERY_TEXTS.nice
    : direction === "left"
    ? DISCOVERY_TEXTS.meh
    : DISCOVERY_TEXTS.skip;
}

/** The arrow key that makes a swipe on this page: the left and right arrows change places right to left. */
export function keyOfSwipe(key: string): string {
  if (dir() !== "rtl") return key;
  return key === "ArrowRight" ? "ArrowLeft" : key === "ArrowLeft" ? "ArrowRight" : key;
}
