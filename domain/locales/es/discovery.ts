/** Spanish texts of the discovery screens (domain/discovery.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnDiscovery } from "../en/discovery.ts";

export const DISCOVERY_ES: Translation<EnDiscovery> = {
  nearYou: "cerca de ti",
  meh: "Meh",
  skip: "Saltar",
  nice: "Guay",
  viewProfileChat: "Ver perfil / Chat",
  endOfDeck: "¡Llegaste al final!",
  loadMore: "Cargar más",
  loading: "Buscando gente cerca de ti...",
  loadingMore: "Cargando...",
  nobodyNear: "Todavía no hay nadie cerca que encaje. Prueba otro filtro o vuelve más tarde.",
  endOfList: "Eso es todo por ahora.",
  loadFailed: "No se pudieron cargar los perfiles cercanos.",
  retry: "Reintentar",
  swipeFailed: "No se pudo guardar tu último deslizamiento.",
  chat: "Chat",
  swipeHint:
    "Desliza a la derecha para Guay, a la izquierda para Meh, hacia abajo para Saltar. Las flechas también funcionan.",
};
