/** The Health Incident Report's texts in French (GAME_TEXTS.health), apart so other languages do not load them. */

import { plural, type Translation } from "../../i18n.ts";
import type { EnHealth } from "../en/health.ts";
import { formatDay } from "../../volunteer.ts";

export const HEALTH_FR: Translation<EnHealth> = {
  conditions: {
    SYPHILIS: "Syphilis",
    GONORRHOEA: "Gonorrhée",
    CHLAMYDIA: "Chlamydia",
    HIV: "VIH",
    HEPATITIS_A: "Hépatite A",
    HEPATITIS_B: "Hépatite B",
    HEPATITIS_C: "Hépatite C",
    MPOX: "Mpox (variole du singe)",
    OTHER: "Autre infection",
  },
  advice: {
    SYPHILIS:
      "Fais une prise de sang pour la syphilis, même sans symptômes comme une plaie indolore ou une éruption. Le traitement est simple, en général une injection de pénicilline. Un test fait peu après le contact peut être négatif : refais-le si ta clinique le conseille.",
    GONORRHOEA:
      "Fais-toi dépister : un test urinaire et des prélèvements de gorge et d'anus, selon les rapports que tu as eus. Elle passe souvent sans symptômes. Elle se traite par antibiotiques, en général une injection.",
    CHLAMYDIA:
      "Fais-toi dépister : un test urinaire et des prélèvements de gorge et d'anus, selon les rapports que tu as eus. Elle passe souvent sans symptômes. Elle se traite par antibiotiques.",
    HIV:
      "Fais un test VIH. Si le contact a pu avoir lieu dans les 72 dernières heures, va tout de suite dans un centre de santé sexuelle ou aux urgences et demande le TPE (traitement post-exposition). Refais le test après la période fenêtre indiquée par ta clinique.",
    HEPATITIS_A:
      "Demande à une clinique ou à ton médecin le vaccin contre l'hépatite A : fait dans les deux semaines suivant le contact, il peut éviter la maladie. Surveille fièvre, fatigue, urines foncées ou peau et yeux jaunes.",
    HEPATITIS_B:
      "Fais une prise de sang pour l'hépatite B. Si tu n'es pas vacciné, demande vite le vaccin et les immunoglobulines : dans les jours suivant le contact, ils peuvent éviter l'infection.",
    HEPATITIS_C:
      "Fais une prise de sang pour l'hépatite C (anticorps, et un test viral si ta clinique le conseille). Les traitements actuels guérissent presque tout le monde.",
    MPOX:
      "Surveille fièvre, ganglions gonflés, éruption ou plaies pendant les 21 jours après le contact. Demande à une clinique le vaccin contre le mpox : dans les quatre jours suivant le contact, il peut éviter la maladie. En cas de symptômes, évite les contacts rapprochés et fais-toi dépister.",
    OTHER:
      "Va dans un centre de santé sexuelle ou chez ton médecin pour un bilan, et dis qu'on t'a prévenu d'une exposition possible.",
  },
  reportIntro:
    "On t'a diagnostiqué une infection ? Préviens les membres avec qui tu as échangé des messages, sans ton nom : chacun reçoit un avis de santé en moins d'un jour, et personne, pas même les administrateurs, ne peut voir qui l'a envoyé.",
  conditionLabel: "Quel diagnostic as-tu reçu ?",
  chooseCondition: "Choisis…",
  periodLabel: "Sur quelle période ?",
  periodOption: (days: number) => `Les ${days} derniers jours`,
  usualPeriod: (days: number) => `Habituel pour cette infection : ${days} jours.`,
  contactsTitle: "Qui prévenir",
  contactsHelp:
    "Les membres avec qui tu as échangé des messages (dans les deux sens) sur cette période. Décoche ceux que tu ne veux pas prévenir.",
  noContacts: "Aucun membre avec qui tu as échangé des messages sur cette période.",
  send: "Envoyer les avis",
  sending: "Envoi…",
  sent: (n: number) =>
    `C'est fait. ${
      plural(n, { one: "# membre recevra", other: "# membres recevront" })
    } l'avis dans les 24 heures, sans ton nom. Rien de cet avis n'est gardé de ton côté. Merci de prendre soin de la communauté.`,
  remaining: (n: number) => `Tu peux encore envoyer ${plural(n, { one: "# avis", other: "# avis" })} ce mois-ci.`,
  limitReached: "Tu as déjà envoyé 2 avis ce mois-ci. Tu pourras en envoyer d'autres le mois prochain.",
  tooNew: "Les comptes de moins de 7 jours ne peuvent pas encore envoyer d'avis de santé.",
  notAContact: "Tu ne peux prévenir que des membres avec qui tu as échangé des messages sur cette période.",
  sendFailed: "Impossible d'envoyer les avis. Réessaie.",
  privacyNote:
    "L'avis dit quoi et quand, jamais qui. Ton choix de membres n'est pas gardé, et ton export de données ne le montrera pas.",
  cootiesIntro:
    "Quelqu'un avec qui tu as échangé des messages nous a dit avoir reçu un diagnostic d'infection. Il a choisi de te prévenir anonymement : nous ne savons pas non plus qui c'est.",
  noNotices: "Aucun avis de santé pour toi. Rien à faire.",
  noticeTitle: (condition: string) => `Exposition possible : ${condition}`,
  noticeWindow: (since: number, until: number) => `Entre le ${formatDay(since)} et le ${formatDay(until)}.`,
  whatToDo: "Que faire",
  generalAdvice:
    "Le dépistage est confidentiel et tu n'as pas à dire comment tu l'as appris. D'ici là, utilise des préservatifs et parle de cet avis à ta clinique.",
  reportAbuse: "Signaler cet avis comme abusif",
  abuseReported: "Merci. L'avis a été retiré et compté comme abus.",
  adminTitle: "Avis de santé (administrateurs : comptes seulement)",
  adminCounts: (reports: number, notices: number, pending: number, abuse: number) =>
    `Signalements : ${reports}. Avis affichés : ${notices}. En attente : ${pending}. Signalés comme abus : ${abuse}.`,
};
