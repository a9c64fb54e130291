/** French texts of the games (domain/games.ts). */

import { plural, type Translation } from "../../i18n.ts";
import type { EnGames } from "../en/games.ts";
import { HEALTH_FR } from "./health.ts";
import { HOT_OR_NOT_FR } from "./hotOrNot.ts";
import { formatDay, VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "../../volunteer.ts";

export const GAMES_FR: Translation<EnGames> = {
  credits: (n: number) => `Crédits de bénévole : ${n}`,
  creditsNote:
    "Un vrai jugement rapporte un crédit : Sympa ou Bof, un vote, ou un recadrage que son propriétaire a utilisé. Passer ne rapporte rien. Au plus 20 par jour.",
  volunteerUntil: (ts: number) => `Bénévole jusqu'au ${formatDay(ts)}. Merci de ton aide !`,
  volunteerStanding: "Tu es bénévole. Merci de ton aide !",
  volunteerProgress: (recent: number, toGo: number) =>
    `${
      plural(recent, { one: "# crédit", other: "# crédits" })
    } ces ${VOLUNTEER_WINDOW_DAYS} derniers jours : encore ${toGo} pour devenir bénévole.`,
  get volunteerHow() {
    return `Gagne ${VOLUNTEER_CREDITS} crédits en ${VOLUNTEER_WINDOW_DAYS} jours et tu deviens bénévole pour ${VOLUNTEER_ROLE_DAYS} jours : comme les membres Pro, les bénévoles n'ont pas de limites quotidiennes. Chaque crédit tant que tu restes à ${VOLUNTEER_CREDITS} ou plus le prolonge.`;
  },
  volunteerProgressLabel: "Crédits pour devenir bénévole",
  membershipLink: "Adhésion : Pro et bénévoles",
  human: "Humain",
  machine: "Machine ou faux",
  communitySays: "La communauté jusqu'ici :",
  nextProfile: "Profil suivant",
  gptIntro: "Ce texte de profil a-t-il été écrit par une vraie personne, ou par une machine ou un faux profil ?",
  gptEmpty: "Plus de textes de profil à juger près de toi pour l'instant. Reviens plus tard.",
  ratingIntro:
    "Note des photos de membres proches : Sympa, Bof ou Passer. Sympa et Bof rapportent un crédit ; Passer ne rapporte rien.",
  ratingEmpty: "Plus de photos à noter près de toi pour l'instant. Reviens plus tard.",
  arbIntro:
    "Un membre a signalé ce profil. Lis le signalement et le profil, puis dis s'il enfreint les règles. Un administrateur décide au final.",
  arbEmpty: "Aucun signalement ouvert à juger pour toi en ce moment. Merci de ton aide !",
  violation: "Infraction",
  noViolation: "Pas d'infraction",
  reportReason: "Motif",
  reportText: "Ce qu'a écrit l'auteur du signalement",
  reportedProfile: "Le profil signalé",
  noText: "(pas de texte)",
  nextReport: "Signalement suivant",
  cropIntro:
    "Propose un meilleur cadrage portrait pour la photo d'un membre. Son propriétaire décide s'il l'utilise ; tu gagnes un crédit quand il le fait.",
  cropHelp: "Aide un membre",
  cropForYou: "Recadrages proposés pour tes photos",
  cropYourPicture: "Ta photo avec le recadrage proposé",
  cropAccept: "Utiliser ce recadrage",
  cropDismiss: "Écarter",
  cropAccepted: "C'est fait : ta photo utilise maintenant ce recadrage.",
  cropDismissed: "Écarté.",
  cropSize: "Taille",
  cropLeftRight: "Gauche / droite",
  cropUpDown: "Haut / bas",
  cropSuggest: "Proposer ce recadrage",
  cropSkip: "Passer",
  cropSent: "Merci ! Ta proposition a été envoyée. Tu gagnes un crédit si le propriétaire l'utilise.",
  cropEmpty: "Aucune photo près de toi n'a besoin d'aide pour l'instant. Reviens plus tard.",
  adminReports: "Signalements (administrateurs)",
  adminNoReports: "Aucun signalement.",
  adminConfirm: "Confirmer l'infraction",
  adminDismiss: "Écarter",
  adminFlagged: "Profils signalés (administrateurs)",
  adminNoFlagged: "Aucun profil signalé.",
  saveFailed: "Impossible d'enregistrer ton vote. Réessaie.",
  loadFailed: "Impossible de charger la suite. Réessaie.",
  backToGames: "Retour aux jeux",
  health: HEALTH_FR,
  hotOrNot: HOT_OR_NOT_FR,
};
