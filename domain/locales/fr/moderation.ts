/** French texts of moderation (domain/moderation.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnModeration } from "../en/moderation.ts";

export const MODERATION_FR: Translation<EnModeration> = {
  warningTitle: "Un avertissement des modérateurs",
  warningOk: "J'ai compris",
  reviewTitle: "Ton profil est en cours d'examen",
  review:
    "Plusieurs membres ont signalé ton profil. Tant qu'un modérateur ne l'a pas examiné, les autres membres ne le voient pas. Tu peux continuer à utiliser l'application.",
  sendingPaused: "L'envoi est suspendu jusqu'à ce qu'un modérateur examine ton compte.",
  spamHeld: "Ce message pourrait être du spam : l'afficher ?",
  spamShow: "L'afficher",
  spamSecret:
    "Les discussions secrètes ne sont pas vérifiées ainsi contre le spam : leurs textes sont chiffrés sur les appareils. Les limites d'envoi et les signalements s'y appliquent toujours.",
  registerBlocked: "Cette adresse ne peut pas servir à s'inscrire : un compte qui l'utilise est suspendu ou banni.",
  kinds: { WARNING: "Avertissement", SUSPENSION: "Suspension", BAN: "Bannissement" },
};
