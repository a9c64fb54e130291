/** French texts of the screens' titles and headings (domain/screenTexts.ts). */

import { plural, type Translation } from "../../i18n.ts";
import type { EnScreenTexts } from "../en/screenTexts.ts";

export const SCREEN_TEXTS_FR: Translation<EnScreenTexts> = {
  pictureOf: (i: number, n: number) => `Photo ${i} sur ${n}`,
  previousPicture: "Photo précédente",
  nextPicture: "Photo suivante",
  addPicture: "Ajouter une photo",
  profileActions: "Actions sur le profil",
  chat: "Discuter",
  notes: "Notes",
  actions: "Actions",
  away: (d: string) => `à ${d}`,
  backToProfile: "Retour au profil",
  viewProfile: "Profil",
  attachPictures: "Joindre des photos",
  unread: (n: number) => plural(n, { one: "# message non lu", other: "# messages non lus" }),
  picture: "Photo",
  you: "Toi :",
  secretChatMarker: "Discussion secrète",
  now: "maintenant",
  minutes: (n: number) => `${n} min`,
  yesterday: "Hier",
  welcomeTitle: "Bienvenue",
  stepOf: (i: number, n: number) => `Étape ${i} sur ${n}`,
  nameStep: "Qui es-tu ?",
  nameHint:
    "Ton nom apparaît sur ton profil. Les autres voient ton âge, jamais ta date de naissance. Il faut avoir 18 ans ou plus.",
  birthdateRequired: "Indique ta date de naissance.",
  pictureStep: "Ajoute une première photo",
  pictureWhy:
    "Les membres avec une photo reçoivent bien plus de j'aime et de réponses : c'est la première chose que les autres voient sur la grille. Tu pourras la recadrer, en ajouter d'autres ou en rendre certaines privées plus tard.",
  choosePicture: "Choisir une photo",
  characteristicsStep: "Qu'est-ce qui te plaît ?",
  characteristicsHint:
    "Coche ce qui te décrit : les autres peuvent le rechercher. Chaque case est enregistrée dès que tu la coches.",
  locationStep: "Où es-tu ?",
  locationHint:
    "La grille et la carte montrent qui est à proximité. Les autres te voient en un point fixe à un kilomètre de là où tu es, jamais à ton emplacement exact.",
  modeRandom: "Un point au hasard près de Phoenix",
  modeRandomWhy: "Là où tu commences tant que tu n'as pas choisi une des autres options.",
  modeWalk: "Promenade : place-toi toi-même",
  modeGps: "GPS : la position de cet appareil",
  modeGpsWhy:
    "Pour que les gens que tu vois soient vraiment près de toi. Ton navigateur demandera l'autorisation ; ta position exacte ne quitte jamais notre serveur.",
  useGps: "Utiliser ma position",
  useWalk: "Je me placerai sur la carte",
  locationNow: (mode: string) => `Maintenant : ${mode}`,
  next: "Continuer",
  skip: "Passer pour l'instant",
  back: "Retour",
  finish: "Voir qui est à proximité",
  finishing: "Enregistrement de ta position…",
  finishFailed:
    "Impossible d'enregistrer ta position : personne à proximité ne te verrait encore. Vérifie ta connexion et réessaie.",
  finishRetry: "Réessayer",
};
