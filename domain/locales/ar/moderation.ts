/** Arabic texts of moderation (domain/moderation.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnModeration } from "../en/moderation.ts";

export const MODERATION_AR: Translation<EnModeration> = {
  warningTitle: "تحذير من المشرفين",
  warningOk: "فهمت",
  reviewTitle: "ملفك الشخصي قيد المراجعة",
  review:
    "أبلغ عدة أعضاء عن ملفك الشخصي. إلى أن يراجعه أحد المشرفين، لن يراه الأعضاء الآخرون. يمكنك متابعة استخدام التطبيق.",
  sendingPaused: "الإرسال متوقف حتى يراجع أحد المشرفين حسابك.",
  spamHeld: "قد تكون هذه الرسالة مزعجة: هل تعرضها؟",
  spamShow: "اعرضها",
  spamSecret:
    "لا تُفحص المحادثات السرية بحثًا عن الرسائل المزعجة بهذه الطريقة: نصوصها مشفّرة على الأجهزة. لكن حدود الإرسال والبلاغات تبقى سارية عليها.",
  registerBlocked: "لا يمكن التسجيل بهذا العنوان: حساب يستخدمه موقوف أو محظور.",
  kinds: { WARNING: "تحذير", SUSPENSION: "إيقاف", BAN: "حظر" },
};
