/** The app-feel texts (domain/feelTexts.ts) in French. */

import type { Translation } from "../../i18n.ts";
import type { EnFeelTexts } from "../en/feel.ts";

export const FEEL_FR: Translation<EnFeelTexts> = {
  filter: "Filtrer",
  filters: "Filtres",
  age: "Âge",
  ageFrom: "De",
  ageTo: "À",
  distance: "Distance",
  anyDistance: "Toute distance",
  within: (d: string) => `À moins de ${d}`,
  onlineNow: "En ligne",
  withPictures: "Avec photos",
  tags: "Étiquettes",
  showResults: "Voir les résultats",
  whoIsAround: "Qui est dans le coin",
  seeEveryone: "Voir tout le monde",
  nobodyAroundYet: "Personne dans le coin pour l’instant. Indique ton lieu sur la carte pour rencontrer du monde.",
  openMap: "Ouvrir la carte",
  dismiss: "Masquer",
  back: "Retour",
  today: "Aujourd’hui",
  yesterday: "Hier",
  retry: "Réessayer",
  confirmBlock: (name: string) => `Bloquer ${name} ? Vous ne vous verrez plus l’un l’autre.`,
  yesBlock: "Bloquer",
  settingsSections: "Paramètres",
  sectionAccount: "Compte",
  sectionPrivacy: "Confidentialité et sécurité",
  sectionNotifications: "Notifications",
  sectionDevices: "Appareils et clés d’accès",
  sectionData: "Mes données",
  noChatsYet: "Pas encore de conversation. Dis bonjour à quelqu’un près de toi.",
  findPeople: "Trouver du monde près de toi",
  nextProfile: "Profil suivant",
  previousProfile: "Profil précédent",
  blockingHides: (name: string) =>
    `En bloquant, toi et ${name} ne vous verrez plus nulle part : carte, listes, discussions et j’aime.`,
  /** "Show me to everyone" in discreet mode: the same choice, without saying what the app is for. */
  showToEveryoneDiscreet: "Me montrer à tous ceux qui sont à proximité, même là où c’est dangereux",
  removeTag: (tag: string) => `Retirer l’étiquette ${tag}`,
  removePasskey: (name: string) => `Supprimer la clé d’accès ${name}`,
  dragPicture: (n: number) => `Fais glisser la photo ${n} pour la déplacer`,
};
