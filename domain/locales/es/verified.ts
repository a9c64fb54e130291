/** Spanish texts of the Verified badge, filter and message setting (domain/verified.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnVerified } from "../en/verified.ts";

/** The Verified badge, filter and message setting (domain/verified.ts). */
export const VERIFIED_ES: Translation<EnVerified> = {
  verified: "Verificado",
  verifiedNote: "Verificado: la comunidad comparó un selfie en vivo con las fotos de este miembro.",
  verifiedOnly: "Solo verificados",
  onlyVerifiedMessage: "Solo los miembros verificados pueden escribirme",
  onlyVerifiedMessageHelp:
    "Los demás ven por qué no pueden escribirte; lo que escribieron queda en su bandeja de salida hasta que se verifiquen.",
  recipientVerifiedOnly:
    "Este miembro solo acepta mensajes de miembros verificados. Verifícate en 3 2 1 Identifica; tu mensaje queda en tu bandeja de salida para enviarlo de nuevo.",
};
