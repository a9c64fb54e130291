/** Arabic texts of the games (domain/games.ts). */

import { plural, type Translation } from "../../i18n.ts";
import type { EnGames } from "../en/games.ts";
import { HEALTH_AR } from "./health.ts";
import { HOT_OR_NOT_AR } from "./hotOrNot.ts";
import { formatDay, VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "../../volunteer.ts";

/** "n days" in Arabic (أيام / يومًا by count). */
const days = (n: number) =>
  plural(n, { zero: "# يوم", one: "يوم واحد", two: "يومان", few: "# أيام", many: "# يومًا", other: "# يوم" });

/** "n credits" in Arabic. */
const credits = (n: number) =>
  plural(n, {
    zero: "# رصيد",
    one: "رصيد واحد",
    two: "رصيدان",
    few: "# أرصدة",
    many: "# رصيدًا",
    other: "# رصيد",
  });

export const GAMES_AR: Translation<EnGames> = {
  credits: (n: number) => `أرصدة التطوع: ${n}`,
  creditsNote:
    "كل حكم حقيقي يمنحك رصيدًا: «رائع» أو «عادي»، أو تصويت، أو قصّ استخدمه صاحب الصورة. التخطي لا يمنح شيئًا. 20 رصيدًا في اليوم على الأكثر.",
  volunteerUntil: (ts: number) => `متطوع حتى ${formatDay(ts)}. شكرًا لمساعدتك!`,
  volunteerStanding: "أنت متطوع. شكرًا لمساعدتك!",
  volunteerProgress: (recent: number, toGo: number) =>
    `${credits(recent)} في آخر ${days(VOLUNTEER_WINDOW_DAYS)}: بقي ${credits(toGo)} لتصبح متطوعًا.`,
  get volunteerHow() {
    return `اجمع ${credits(VOLUNTEER_CREDITS)} خلال ${days(VOLUNTEER_WINDOW_DAYS)} لتصبح متطوعًا مدة ${
      days(VOLUNTEER_ROLE_DAYS)
    }: مثل أعضاء Pro، لا حدود يومية للمتطوعين. كل رصيد تكسبه ما دمت عند ${VOLUNTEER_CREDITS} أو أكثر يمدّد الدور.`;
  },
  volunteerProgressLabel: "الأرصدة نحو دور المتطوع",
  membershipLink: "العضوية: Pro والمتطوعون",
  human: "إنسان",
  machine: "آلة أو مزيّف",
  communitySays: "رأي المجتمع حتى الآن:",
  nextProfile: "الملف التالي",
  gptIntro: "هل كتب نص هذا الملف شخص حقيقي، أم آلة أو ملف مزيّف؟",
  gptEmpty: "لا نصوص ملفات متبقية للحكم عليها بالقرب منك الآن. عُد لاحقًا.",
  ratingIntro: "قيّم صور الأعضاء القريبين: «رائع» أو «عادي» أو «تخطٍّ». «رائع» و«عادي» يمنحان رصيدًا؛ التخطي لا يمنح شيئًا.",
  ratingEmpty: "لا صور متبقية للتقييم بالقرب منك الآن. عُد لاحقًا.",
  arbIntro: "أبلغ عضو عن هذا الملف. اقرأ البلاغ والملف، ثم قل إن كان يخالف القواعد. يقرّر أحد المشرفين في النهاية.",
  arbEmpty: "لا بلاغات مفتوحة لتحكم عليها الآن. شكرًا لمساعدتك!",
  violation: "مخالفة",
  noViolation: "لا مخالفة",
  reportReason: "السبب",
  reportText: "ما كتبه المُبلِّغ",
  reportedProfile: "الملف المُبلَّغ عنه",
  noText: "(بلا نص)",
  nextReport: "البلاغ التالي",
  cropIntro: "اقترح قصًّا أفضل للصورة الشخصية لعضو. صاحب الصورة يقرّر استخدامه؛ تكسب رصيدًا حين يفعل.",
  cropHelp: "ساعد عضوًا",
  cropForYou: "قصّات مقترحة لصورك",
  cropYourPicture: "صورتك بالقص المقترح",
  cropAccept: "استخدام هذا القص",
  cropDismiss: "رفض",
  cropAccepted: "تم: صورتك تستخدم هذا القص الآن.",
  cropDismissed: "رُفض.",
  cropSize: "الحجم",
  cropLeftRight: "يسار / يمين",
  cropUpDown: "أعلى / أسفل",
  cropSuggest: "اقتراح هذا القص",
  cropSkip: "تخطٍّ",
  cropSent: "شكرًا! أُرسل اقتراحك. تكسب رصيدًا إن استخدمه صاحب الصورة.",
  cropEmpty: "لا صور بالقرب منك تحتاج إلى مساعدة الآن. عُد لاحقًا.",
  adminReports: "البلاغات (للمشرفين)",
  adminNoReports: "لا بلاغات.",
  adminConfirm: "تأكيد المخالفة",
  adminDismiss: "رفض",
  adminFlagged: "الملفات المُعلَّمة (للمشرفين)",
  adminNoFlagged: "لا ملفات مُعلَّمة.",
  saveFailed: "تعذّر حفظ تصويتك. حاول مرة أخرى.",
  loadFailed: "تعذّر تحميل التالي. حاول مرة أخرى.",
  backToGames: "العودة إلى الألعاب",
  health: HEALTH_AR,
  hotOrNot: HOT_OR_NOT_AR,
};
