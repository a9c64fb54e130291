/** Brazilian Portuguese texts of the Verified badge, filter and message setting (domain/verified.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnVerified } from "../en/verified.ts";

/** The Verified badge, filter and message setting (domain/verified.ts). */
export const VERIFIED_PT_BR: Translation<EnVerified> = {
  verified: "Verificado",
  verifiedNote: "Verificado: a comunidade comparou uma selfie ao vivo com as fotos deste membro.",
  verifiedOnly: "Só verificados",
  onlyVerifiedMessage: "Só membros verificados podem me enviar mensagens",
  onlyVerifiedMessageHelp:
    "Os outros veem por que não podem escrever para você; o que escreveram fica na caixa de saída deles até se verificarem.",
  recipientVerifiedOnly:
    "Este membro só aceita mensagens de membros verificados. Verifique-se no 3 2 1 Identifique; a sua mensagem fica na sua caixa de saída para enviar de novo.",
};
