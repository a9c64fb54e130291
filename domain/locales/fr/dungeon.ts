/** French: the texts of Bad Boy Dungeon (domain/dungeon.ts). "Tu", as the app's other texts. */

import type { Translation } from "../../i18n.ts";
import type { EnDungeon } from "../en/dungeon.ts";

export const DUNGEON_FR: Translation<EnDungeon> = {
  rules: {
    rude: "Sois bienveillant : pas d'insultes, de moqueries ni de grossièretés.",
    spam: "Pas de spam : ni messages copiés-collés, ni pubs, ni liens pour vendre, ni demandes d'argent.",
    fake: "Sois toi-même : ton profil et tes photos te montrent, honnêtement.",
    mapchat: "Le Chat de la carte est à tous ceux qui sont près : n'y harcèle ni n'y pointe personne.",
    other: "Garde la communauté bienveillante et sûre.",
  },
  restricted: {
    first_message: "Premiers messages (à quelqu'un avec qui tu n'as pas de conversation)",
    like: "J'aime sur les profils et les photos",
    map_chat: "Messages dans le Chat de la carte",
  },
  intro:
    "Une pause, pas un bannissement. Quand la communauté s'accorde à dire qu'un membre a enfreint une petite règle (grossièreté, spam, profil trompeur, harcèlement dans le Chat de la carte), ce membre ne peut plus envoyer de premiers messages, aimer ni écrire dans le Chat de la carte pendant un temps : 24 heures la première fois, 3 jours la deuxième en 90 jours, 7 jours la troisième (et les admins sont prévenus). Les conversations en cours continuent.",
  howTitle: "Comment marche le donjon",
  how: [
    "Un membre signale un profil ; les jurés de l'Arbitrage communautaire disent s'il enfreint les règles.",
    "Quand au moins 5 jurés votent et que 80 % ou plus des votes pondérés disent « Infraction », une petite infraction envoie le membre ici tout de suite. Sinon, un admin décide, en 48 heures au plus.",
    "Les menaces, les mineurs, la violence et les photos non consenties ne viennent jamais ici : les admins s'en occupent.",
    "Le membre voit les lignes signalées, la règle et la fin de la pause. Un court quiz sur les règles raccourcit la pause une fois d'un tiers ; un recours va aux admins, dont la parole est définitive.",
    "Personne d'autre ne voit qui est au donjon : ni badge, ni liste.",
  ],
  serving: (n: number) =>
    n <= 1 ? `${n} membre fait une pause en ce moment.` : `${n} membres font une pause en ce moment.`,
  cardTitle: "Ta pause",
  cardLead:
    "La communauté a jugé que ceci enfreignait une règle. Voici ce qui a été signalé, sans les noms des autres membres.",
  linesTitle: "Ce qui a été signalé",
  noLines: "(Le signalement n'avait pas de texte : il portait sur ton profil.)",
  ruleTitle: "La règle",
  restrictedTitle: "Ce que tu ne peux pas faire d'ici là",
  untilTitle: "Jusqu'au",
  stepOf: (step: number) =>
    step === 1
      ? "C'est ta première pause."
      : step === 2
      ? "C'est ta deuxième pause en 90 jours."
      : "C'est ta troisième pause en 90 jours : les admins ont été prévenus.",
  stillYouCan: "Tu peux toujours répondre dans tes conversations, parcourir et jouer aux jeux de la communauté.",
  quizTitle: "Le quiz des règles",
  quizLead: "Réponds juste à toutes les questions et ta pause est raccourcie d'un tiers, une fois.",
  quizSend: "Vérifier mes réponses",
  quizPassed: "Tout est juste : ta pause a été raccourcie d'un tiers.",
  quizWrong: (n: number) =>
    n === 1
      ? "Une réponse n'est pas encore juste. Relis la règle et réessaie."
      : `${n} réponses ne sont pas encore justes. Relis les règles et réessaie.`,
  quizUsed: "Tu as utilisé le quiz pour cette pause : elle a été raccourcie d'un tiers.",
  appealTitle: "Recours",
  appealLead:
    "Si tu penses que la communauté s'est trompée, dis aux admins pourquoi. Tu peux faire recours une fois ; leur parole est définitive.",
  appealLabel: "Pourquoi ce n'était pas une infraction",
  appealSend: "Envoyer mon recours",
  appealPending: "Ton recours est chez les admins.",
  appealRejected: "Les admins ont lu ton recours et ont maintenu la pause.",
  appealUpheld: "Les admins ont accepté ton recours : la pause est terminée.",
  refused: {
    first_message: (until: string) =>
      `Tu es en pause jusqu'au ${until} : pas de premiers messages d'ici là. Tes conversations continuent. Vois le Donjon dans Communauté.`,
    like: (until: string) =>
      `Tu es en pause jusqu'au ${until} : pas de J'aime d'ici là. Vois le Donjon dans Communauté.`,
    map_chat: (until: string) =>
      `Tu es en pause jusqu'au ${until} : pas de messages dans le Chat de la carte d'ici là. Vois le Donjon dans Communauté.`,
  },
  /** An admin's action (end a stay, answer an appeal) found no connection. */
  offline: "Tu es hors ligne : rien n'a été envoyé. Réessaie une fois de retour en ligne.",
  sendFailed: "Envoi impossible, réessaie.",
  /** A quiz kept in the device outbox while offline. */
  quizQueued: "Enregistré sur cet appareil : tes réponses partent dès que tu es de retour en ligne.",
  /** An appeal kept in the device outbox while offline. */
  appealQueued: "Enregistré sur cet appareil : ton recours part dès que tu es de retour en ligne.",
  ended: "Ta pause est terminée. Merci de garder la communauté bienveillante.",
  adminTitle: "Le donjon",
  adminNone: "Personne n'est au donjon et aucun recours n'attend.",
  adminEnd: "Mettre fin à la pause",
  adminUphold: "Accepter le recours (terminer et annuler)",
  adminReject: "Rejeter le recours",
  adminAppeal: "Recours",
  adminThird: "Troisième pause en 90 jours",
  adminOverdue: "Sans décision depuis 48 heures",
  adminLink: "Pauses et recours (le donjon)",
  questions: [
    {
      q: "Quelqu'un ne répond pas à ton message. Que fais-tu ?",
      options: [
        "Renvoyer le même message toutes les heures",
        "Laisser : pas de réponse, c'est une réponse",
        "Le reprendre dans le Chat de la carte",
      ],
    },
    {
      q: "Que peux-tu mettre dans ton profil ?",
      options: [
        "Des photos de quelqu'un de plus beau",
        "Des photos de toi et un texte honnête",
        "L'âge qui rapporte le plus de J'aime",
      ],
    },
    {
      q: "Quelqu'un est grossier avec toi. Quelle est la bonne étape ?",
      options: ["Le signaler ou le bloquer", "L'insulter en retour", "Publier son nom dans le Chat de la carte"],
    },
    {
      q: "Qui voit que tu es au donjon ?",
      options: ["Tout le monde autour", "Toi seul (et les admins)", "Les membres à qui tu écris"],
    },
  ],
};
