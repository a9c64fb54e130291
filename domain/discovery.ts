/** Texts of the discovery screens: the spec's word for word, and ours where the spec is silent. */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es.ts";
import * as ptBR from "./locales/ptBR.ts";

const EN_DISCOVERY = {
  // spec §2, word for word
  nearYou: "near you",
  meh: "Meh",
  skip: "Skip",
  nice: "Nice",
  viewProfileChat: "View Profile / Chat",
  endOfDeck: "You've reached the end!",
  loadMore: "Load More",
  // ours
  loading: "Looking for people near you...",
  loadingMore: "Loading...",
  nobodyNear: "Nobody near you matches yet. Try another filter, or come back later.",
  endOfList: "That's everyone near you.",
  loadFailed: "Could not load the profiles near you.",
  retry: "Try again",
  swipeFailed: "Your last swipe could not be saved.",
  chat: "Chat",
  swipeHint: "Swipe right for Nice, left for Meh, down to Skip. Arrow keys work too.",
} as const;

export const DISCOVERY_TEXTS = catalogue("DISCOVERY_TEXTS", EN_DISCOVERY, {
  es: es.DISCOVERY_TEXTS,
  "pt-BR": ptBR.DISCOVERY_TEXTS,
});
export type EnDiscovery = typeof EN_DISCOVERY;

/** The swipes of the spec's cards: right is Nice (LIKE), left Meh (DISLIKE), down Skip (UNDETERMINED); up is disabled. */
export type SwipeDirection = "left" | "right" | "down";
