/** Arabic texts of the Verified badge, filter and message setting (domain/verified.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnVerified } from "../en/verified.ts";

/** The Verified badge, filter and message setting (domain/verified.ts). */
export const VERIFIED_AR: Translation<EnVerified> = {
  verified: "موثَّق",
  verifiedNote: "موثَّق: قارن المجتمع صورة سيلفي حيّة بصور هذا العضو.",
  verifiedOnly: "الموثَّقون فقط",
  onlyVerifiedMessage: "لا يراسلني إلا الأعضاء الموثَّقون",
  onlyVerifiedMessageHelp: "يرى الآخرون سبب عدم قدرتهم على مراسلتك، ويبقى ما كتبوه في صندوق الصادر لديهم حتى يُوثَّقوا.",
  recipientVerifiedOnly:
    "لا يقبل هذا العضو الرسائل إلا من الأعضاء الموثَّقين. وثِّق نفسك في 3 2 1 تعرّف؛ تبقى رسالتك في صندوق الصادر لإرسالها من جديد.",
};
