/** Arabic texts of the discovery screens (domain/discovery.ts). */

import type { Translation } from "../../i18n.ts";
import type { EnDiscovery } from "../en/discovery.ts";

export const DISCOVERY_AR: Translation<EnDiscovery> = {
  nearYou: "بالقرب منك",
  meh: "عادي",
  skip: "تخطٍّ",
  nice: "رائع",
  viewProfileChat: "عرض الملف / محادثة",
  endOfDeck: "وصلت إلى النهاية!",
  loadMore: "تحميل المزيد",
  loading: "نبحث عن أشخاص بالقرب منك...",
  loadingMore: "جارٍ التحميل...",
  nobodyNear: "لا أحد يطابق بالقرب منك حاليًا. جرّب عامل تصفية آخر أو عُد لاحقًا.",
  endOfList: "هذا كل شيء حاليًا.",
  loadFailed: "تعذّر تحميل الملفات القريبة.",
  retry: "إعادة المحاولة",
  swipeFailed: "تعذّر حفظ آخر سحبة.",
  chat: "محادثة",
  swipeHint: "اسحب إلى اليسار لـ«رائع»، وإلى اليمين لـ«عادي»، وإلى الأسفل لـ«تخطٍّ». الأسهم تعمل أيضًا.",
};
