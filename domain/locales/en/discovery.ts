/** English texts of the discovery screens (domain/discovery.ts): the catalogue's keys and the words the translations follow. */

export const EN_DISCOVERY = {
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
  endOfList: "That's everyone for now.",
  loadFailed: "Could not load the profiles near you.",
  retry: "Try again",
  swipeFailed: "Your last swipe could not be saved.",
  chat: "Chat",
  swipeHint: "Swipe right for Nice, left for Meh, down to Skip. Arrow keys work too.",
} as const;

export type EnDiscovery = typeof EN_DISCOVERY;
