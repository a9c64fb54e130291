/** Brazilian Portuguese texts of moderation (domain/moderation.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnModeration } from "../en/moderation.ts";

export const MODERATION_PT_BR: Translation<EnModeration> = {
  warningTitle: "Um aviso dos moderadores",
  warningOk: "Entendi",
  reviewTitle: "Seu perfil está em análise",
  review:
    "Vários membros denunciaram seu perfil. Até um moderador analisá-lo, os outros membros não o veem. Você pode continuar usando o app.",
  sendingPaused: "O envio está pausado até um moderador analisar sua conta.",
  spamHeld: "Esta mensagem pode ser spam: mostrar?",
  spamShow: "Mostrar",
  spamSecret:
    "Os chats secretos não são verificados assim contra spam: os textos são criptografados nos dispositivos. Os limites de envio e as denúncias continuam valendo.",
  registerBlocked: "Este endereço não pode ser usado para cadastro: uma conta com ele está suspensa ou banida.",
  kinds: { WARNING: "Aviso", SUSPENSION: "Suspensão", BAN: "Banimento" },
};
