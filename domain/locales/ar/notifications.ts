/** Arabic texts of notifications (domain/notifications.ts). */

import { plural, type Translation } from "../../i18n.ts";
import type { EnNotifications } from "../en/notifications.ts";

export const NOTIFICATIONS_AR: Translation<EnNotifications> = {
  messages: (n: number) =>
    plural(n, {
      zero: "لديك رسالة جديدة.",
      one: "لديك رسالة جديدة.",
      two: "لديك رسالتان جديدتان.",
      few: "لديك # رسائل جديدة.",
      many: "لديك # رسالة جديدة.",
      other: "لديك # رسالة جديدة.",
    }),
  profileLiked: "أُعجب أحدهم بملفك الشخصي.",
  picLiked: "أُعجب أحدهم بصورتك.",
  cropSuggested: "اقترح أحدهم قصًّا لصورتك.",
  healthNotice: "إشعار صحي لك.",
  neutral: "لديك ملاحظة جديدة.",
  secretMessage: "رسالة سرية جديدة",
  dungeonThirdStay: "بدأ عضو استراحة إجبارية ثالثة خلال 90 يومًا.",
  reportWaited: "انتظر بلاغ 48 ساعة دون قرار.",
  dungeonStay1:
    "أنت في استراحة إجبارية لمدة 24 ساعة: لا رسائل أولى ولا إعجابات ولا نشر في دردشة الخريطة. تخبرك الزنزانة بالسبب وبكيفية تقصيرها.",
  dungeonStay2:
    "أنت في استراحة إجبارية لمدة 3 أيام: لا رسائل أولى ولا إعجابات ولا نشر في دردشة الخريطة. تخبرك الزنزانة بالسبب وبكيفية تقصيرها.",
  dungeonStay3:
    "أنت في استراحة إجبارية لمدة 7 أيام: لا رسائل أولى ولا إعجابات ولا نشر في دردشة الخريطة. تخبرك الزنزانة بالسبب وبكيفية تقصيرها.",
};
