/** French texts of the discovery screens (domain/discovery.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnDiscovery } from "../en/discovery.ts";

export const DISCOVERY_FR: Translation<EnDiscovery> = {
  nearYou: "près de toi",
  meh: "Bof",
  skip: "Passer",
  nice: "Sympa",
  viewProfileChat: "Voir le profil / Discuter",
  endOfDeck: "Tu as tout vu !",
  loadMore: "Charger plus",
  loading: "On cherche des gens près de toi...",
  loadingMore: "Chargement...",
  nobodyNear: "Personne ne correspond près de toi pour l'instant. Essaie un autre filtre ou reviens plus tard.",
  endOfList: "C'est tout pour le moment.",
  loadFailed: "Impossible de charger les profils à proximité.",
  retry: "Réessayer",
  swipeFailed: "Impossible d'enregistrer ton dernier balayage.",
  chat: "Discuter",
  swipeHint:
    "Balaie vers la droite pour Sympa, vers la gauche pour Bof, vers le bas pour Passer. Les flèches marchent aussi.",
};
