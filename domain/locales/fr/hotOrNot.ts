/** Hot or Not's texts in French (GAME_TEXTS.hotOrNot), apart so other languages do not load them. */

import type { Translation } from "../../i18n.ts";
import type { EnHotOrNot } from "../en/hotOrNot.ts";
import { formatDay } from "../../volunteer.ts";
import { HOT_DAYS, HOT_MAX_PICS, HOT_MIN_PICS, HOT_TARGET_VOTES } from "../../hotOrNot.ts";

export const HOT_OR_NOT_FR: Translation<EnHotOrNot> = {
  intro:
    "Laquelle de vos photos marche le mieux ? Testez-les en privé, et aidez les autres en choisissant entre deux de leurs photos.",
  testTitle: "Testez vos photos",
  testHelp:
    `Choisissez ${HOT_MIN_PICS} à ${HOT_MAX_PICS} de vos photos publiques. Les membres votent par paires sans voir votre nom ni votre profil. Le test dure jusqu’à ce que chaque photo ait ${HOT_TARGET_VOTES} votes comptés, ou ${HOT_DAYS} jours. Vous seul voyez le résultat.`,
  needPictures: "Il vous faut au moins 2 photos publiques pour lancer un test.",
  addPictures: "Ajouter des photos",
  pick: (n: number) => `Photo ${n}`,
  picked: (n: number) => `${n} choisies`,
  start: "Lancer le test",
  started: "Votre test est en cours.",
  running: (ts: number) =>
    `En cours jusqu’à ce que chaque photo ait ${HOT_TARGET_VOTES} votes comptés, ou le ${formatDay(ts)} au plus tard.`,
  votes: (n: number) => `${n} sur ${HOT_TARGET_VOTES} votes`,
  stop: "Arrêter le test",
  resultTitle: "Votre résultat",
  resultPrivate:
    "Vous seul voyez ceci. Aucune note n’apparaît jamais sur votre profil, dans la recherche ni pour les admins.",
  share: (pct: number, low: number, high: number) => `Choisie ${pct} % du temps (sans doute ${low}–${high} %)`,
  noVotes: "Pas encore de vote compté",
  ended: (ts: number) => `Terminé le ${formatDay(ts)}.`,
  stopped: (ts: number) => `Arrêté le ${formatDay(ts)}.`,
  bestLabel: "La meilleure",
  careless: (n: number) => n <= 1 ? `${n} vote bâclé n’a pas été compté.` : `${n} votes bâclés n’ont pas été comptés.`,
  bestFirst: "Mettre la meilleure en premier",
  bestFirstDone: "C’est fait : votre meilleure photo est maintenant la première.",
  earlier: "Tests précédents",
  voteTitle: "Voter",
  voteHelp:
    "Deux photos d’un même membre : laquelle ferait la meilleure première photo ? Touchez-la, ou passez. Prenez un instant : les votes trop rapides, ou toujours du même côté, ne comptent pas. Un vote compté rapporte un crédit.",
  leftPicture: "Photo de gauche",
  rightPicture: "Photo de droite",
  choose: "Celle-ci",
  skip: "Passer",
  voteEmpty: "Aucune photo à comparer pour l’instant. Revenez plus tard.",
  counted: "Compté. Merci !",
  notCountedFast: "Pas compté : prenez le temps de regarder les deux photos.",
  notCountedSide: "Pas compté : vous choisissez toujours le même côté.",
  skipped: "Passée.",
  queued: "Gardé sur cet appareil : il partira dès que vous serez de nouveau en ligne.",
  testEnded: "Ce test vient de se terminer.",
  keepTitle: "Garder ma meilleure photo en premier",
  keepHelp:
    "L’appli compte les j’aime et les ouvertures de profil que gagne chacune de vos photos publiques, et garde la meilleure en premier, en essayant les autres de temps en temps. Vous pouvez le désactiver et annuler ses changements.",
  keepOn: "Activé",
  keepOff: "Désactivé",
  moved: (ts: number) => `L’appli a mis cette photo en premier le ${formatDay(ts)}.`,
  undo: "Annuler : remettre mon ordre",
  undone: "Votre ordre est rétabli, et le réglage est désactivé.",
  failed: "Cela n’a pas marché. Veuillez réessayer.",
};
