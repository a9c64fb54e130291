/** French texts of notifications (domain/notifications.ts). */

import { plural, type Translation } from "../../i18n.ts";
import type { EnNotifications } from "../en/notifications.ts";

export const NOTIFICATIONS_FR: Translation<EnNotifications> = {
  messages: (n: number) => plural(n, { one: "Tu as un nouveau message.", other: "Tu as # nouveaux messages." }),
  profileLiked: "Quelqu'un a aimé ton profil.",
  picLiked: "Quelqu'un a aimé ta photo.",
  cropSuggested: "Quelqu'un a proposé un recadrage pour ta photo.",
  healthNotice: "Un avis de santé pour toi.",
  neutral: "Vous avez une nouvelle note.",
  secretMessage: "Nouveau message secret",
  dungeonThirdStay: "Un membre a commencé une troisième pause en 90 jours.",
  reportWaited: "Un signalement attend une décision depuis 48 heures.",
  dungeonStay1:
    "Tu es en pause pour 24 heures : pas de premiers messages, de j'aime ni de messages dans le Chat de la carte. Le Donjon te dit pourquoi, et comment l'écourter.",
  dungeonStay2:
    "Tu es en pause pour 3 jours : pas de premiers messages, de j'aime ni de messages dans le Chat de la carte. Le Donjon te dit pourquoi, et comment l'écourter.",
  dungeonStay3:
    "Tu es en pause pour 7 jours : pas de premiers messages, de j'aime ni de messages dans le Chat de la carte. Le Donjon te dit pourquoi, et comment l'écourter.",
};
