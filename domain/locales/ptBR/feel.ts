/** The app-feel texts (domain/feelTexts.ts) in Brazilian Portuguese. */

import type { Translation } from "../../i18n.ts";
import type { EnFeelTexts } from "../en/feel.ts";

export const FEEL_PT_BR: Translation<EnFeelTexts> = {
  filter: "Filtrar",
  filters: "Filtros",
  age: "Idade",
  ageFrom: "De",
  ageTo: "Até",
  distance: "Distância",
  anyDistance: "Qualquer distância",
  within: (d: string) => `Até ${d}`,
  onlineNow: "Online agora",
  withPictures: "Com fotos",
  tags: "Tags",
  showResults: "Ver resultados",
  whoIsAround: "Quem está por perto",
  seeEveryone: "Ver todos",
  nobodyAroundYet: "Ainda não há ninguém por perto. Defina seu lugar no mapa para conhecer gente próxima.",
  openMap: "Abrir o mapa",
  dismiss: "Dispensar",
  back: "Voltar",
  today: "Hoje",
  yesterday: "Ontem",
  retry: "Tentar de novo",
  confirmBlock: (name: string) => `Bloquear ${name}? Essa pessoa não verá você, e você não a verá.`,
  yesBlock: "Bloquear",
  settingsSections: "Configurações",
  sectionAccount: "Conta",
  sectionPrivacy: "Privacidade e segurança",
  sectionNotifications: "Notificações",
  sectionDevices: "Dispositivos e chaves de acesso",
  sectionData: "Meus dados",
  noChatsYet: "Nenhuma conversa ainda. Diga oi para alguém por perto.",
  findPeople: "Encontrar gente por perto",
  nextProfile: "Próximo perfil",
  previousProfile: "Perfil anterior",
  blockingHides: (name: string) =>
    `Ao bloquear, você e ${name} deixam de se ver em todo lugar: mapa, listas, chat e curtidas.`,
  /** "Show me to everyone" in discreet mode: the same choice, without saying what the app is for. */
  showToEveryoneDiscreet: "Mostrar-me a todos por perto, mesmo onde isso é perigoso",
  removeTag: (tag: string) => `Remover a etiqueta ${tag}`,
  removePasskey: (name: string) => `Remover a chave de acesso ${name}`,
  dragPicture: (n: number) => `Arraste a foto ${n} para movê-la`,
};
