/** Brazilian Portuguese texts of notifications (domain/notifications.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnNotifications } from "../en/notifications.ts";

export const NOTIFICATIONS_PT_BR: Translation<EnNotifications> = {
  messages: (n: number) => n <= 1 ? "Você tem uma mensagem nova." : `Você tem ${n} mensagens novas.`,
  profileLiked: "Alguém curtiu seu perfil.",
  picLiked: "Alguém curtiu sua foto.",
  cropSuggested: "Alguém sugeriu um recorte para sua foto.",
  healthNotice: "Um aviso de saúde para você.",
  neutral: "Você tem uma nota nova.",
  secretMessage: "Nova mensagem secreta",
  dungeonThirdStay: "Um membro começou um terceiro tempo em 90 dias.",
  reportWaited: "Uma denúncia esperou 48 horas sem decisão.",
  dungeonStay1:
    "Você está num tempo de 24 horas: sem primeiras mensagens, curtidas ou posts no Chat do mapa. A Masmorra diz por quê e como encurtar.",
  dungeonStay2:
    "Você está num tempo de 3 dias: sem primeiras mensagens, curtidas ou posts no Chat do mapa. A Masmorra diz por quê e como encurtar.",
  dungeonStay3:
    "Você está num tempo de 7 dias: sem primeiras mensagens, curtidas ou posts no Chat do mapa. A Masmorra diz por quê e como encurtar.",
};
