/** Hot or Not's texts in Arabic (GAME_TEXTS.hotOrNot), addressing the member as the rest of ar.ts does. */

import { plural, type Translation } from "../../i18n.ts";
import type { EnHotOrNot } from "../en/hotOrNot.ts";
import { formatDay } from "../../volunteer.ts";
import { HOT_DAYS, HOT_MAX_PICS, HOT_MIN_PICS, HOT_TARGET_VOTES } from "../../hotOrNot.ts";

export const HOT_OR_NOT_AR: Translation<EnHotOrNot> = {
  intro: "أيّ صورك هي الأفضل؟ اختبرها بخصوصية، وساعد الآخرين بالاختيار بين صورتين من صورهم.",
  testTitle: "اختبر صورك",
  testHelp:
    `اختر من ${HOT_MIN_PICS} إلى ${HOT_MAX_PICS} من صورك العامة. يصوّت الأعضاء عليها أزواجًا دون أن يروا اسمك أو ملفك. يستمر الاختبار حتى تنال كل صورة ${HOT_TARGET_VOTES} صوتًا محسوبًا، أو ${HOT_DAYS} أيام. أنت وحدك ترى النتيجة.`,
  needPictures: "تحتاج إلى صورتين عامتين على الأقل لبدء اختبار.",
  addPictures: "أضف صورًا",
  pick: (n: number) => `الصورة ${n}`,
  picked: (n: number) =>
    plural(n, {
      zero: "لم تختر شيئًا",
      one: "صورة واحدة مختارة",
      two: "صورتان مختارتان",
      few: "# صور مختارة",
      many: "# صورة مختارة",
      other: "# صورة مختارة",
    }),
  start: "ابدأ الاختبار",
  started: "اختبارك قيد التشغيل.",
  running: (ts: number) =>
    `قيد التشغيل حتى تنال كل صورة ${HOT_TARGET_VOTES} صوتًا محسوبًا، أو حتى ${formatDay(ts)} على الأكثر.`,
  votes: (n: number) => `${n} من ${HOT_TARGET_VOTES} صوتًا`,
  stop: "أوقف الاختبار",
  resultTitle: "نتيجتك",
  resultPrivate: "أنت وحدك ترى هذا. لا تظهر أي درجة أبدًا في ملفك ولا في البحث ولا للمشرفين.",
  share: (pct: number, low: number, high: number) => `اختيرت في ${pct}% من المرات (على الأرجح ${low}–${high}%)`,
  noVotes: "لا أصوات محسوبة بعد",
  ended: (ts: number) => `انتهى في ${formatDay(ts)}.`,
  stopped: (ts: number) => `أُوقف في ${formatDay(ts)}.`,
  bestLabel: "الأفضل",
  careless: (n: number) =>
    plural(n, {
      zero: "لم يُستبعد أي صوت متسرّع.",
      one: "صوت متسرّع واحد لم يُحسب.",
      two: "صوتان متسرّعان لم يُحسبا.",
      few: "# أصوات متسرّعة لم تُحسب.",
      many: "# صوتًا متسرّعًا لم تُحسب.",
      other: "# صوت متسرّع لم تُحسب.",
    }),
  bestFirst: "ضع الأفضل أولًا",
  bestFirstDone: "تم: أفضل صورة لك صارت الأولى.",
  earlier: "اختبارات سابقة",
  voteTitle: "صوّت",
  voteHelp:
    "صورتان لعضو واحد: أيهما أفضل لتكون الصورة الأولى؟ المسها، أو تخطَّ. تمهّل: الأصوات السريعة، أو التي تختار الجهة نفسها دائمًا، لا تُحسب. الصوت المحسوب يكسبك رصيدًا.",
  leftPicture: "الصورة اليسرى",
  rightPicture: "الصورة اليمنى",
  choose: "هذه",
  skip: "تخطَّ",
  voteEmpty: "لا صور للمقارنة الآن. عد لاحقًا.",
  counted: "حُسب. شكرًا لك!",
  notCountedFast: "لم يُحسب: خذ لحظة لتنظر إلى الصورتين.",
  notCountedSide: "لم يُحسب: ما زلت تختار الجهة نفسها.",
  skipped: "تم التخطي.",
  queued: "حُفظ على هذا الجهاز: سيُرسل حين تعود متصلًا.",
  testEnded: "انتهى ذلك الاختبار للتو.",
  keepTitle: "أبقِ أفضل صوري أولًا",
  keepHelp:
    "يحصي التطبيق الإعجابات وفتحات الملف التي تنالها كل صورة عامة لك، ويُبقي الأفضل أولًا، مجرّبًا الأخرى بين حين وآخر. يمكنك إيقافه والتراجع عن تغييراته.",
  keepOn: "مفعّل",
  keepOff: "متوقف",
  moved: (ts: number) => `وضع التطبيق هذه الصورة أولًا في ${formatDay(ts)}.`,
  undo: "تراجع: أعد ترتيبي",
  undone: "عاد ترتيبك، والإعداد متوقف.",
  failed: "لم ينجح ذلك. حاول مرة أخرى.",
};
