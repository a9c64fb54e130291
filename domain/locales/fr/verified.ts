/** French texts of the Verified badge, filter and message setting (domain/verified.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnVerified } from "../en/verified.ts";

/** The Verified badge, filter and message setting (domain/verified.ts). */
export const VERIFIED_FR: Translation<EnVerified> = {
  verified: "Vérifié",
  verifiedNote: "Vérifié : la communauté a comparé un selfie en direct avec les photos de ce membre.",
  verifiedOnly: "Vérifiés seulement",
  onlyVerifiedMessage: "Seuls les membres vérifiés peuvent m'écrire",
  onlyVerifiedMessageHelp:
    "Les autres voient pourquoi ils ne peuvent pas t'écrire ; ce qu'ils ont écrit reste dans leur boîte d'envoi jusqu'à ce qu'ils soient vérifiés.",
  recipientVerifiedOnly:
    "Ce membre n'accepte les messages que des membres vérifiés. Fais-toi vérifier dans 3 2 1 Identifie ; ton message reste dans ta boîte d'envoi pour le renvoyer.",
};
