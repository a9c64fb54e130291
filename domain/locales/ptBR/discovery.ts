/** Brazilian Portuguese texts of the discovery screens (domain/discovery.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnDiscovery } from "../en/discovery.ts";

export const DISCOVERY_PT_BR: Translation<EnDiscovery> = {
  nearYou: "perto de você",
  meh: "Meh",
  skip: "Pular",
  nice: "Legal",
  viewProfileChat: "Ver perfil / Conversar",
  endOfDeck: "Você chegou ao fim!",
  loadMore: "Carregar mais",
  loading: "Procurando pessoas perto de você...",
  loadingMore: "Carregando...",
  nobodyNear: "Ainda não há ninguém por perto que combine. Tente outro filtro ou volte mais tarde.",
  endOfList: "Por enquanto, é só.",
  loadFailed: "Não foi possível carregar os perfis por perto.",
  retry: "Tentar de novo",
  swipeFailed: "Não foi possível salvar seu último deslize.",
  chat: "Conversar",
  swipeHint:
    "Deslize para a direita para Legal, para a esquerda para Meh, para baixo para Pular. As setas também funcionam.",
};
