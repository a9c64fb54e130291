/** The app-feel texts (domain/feelTexts.ts) in Arabic. */

import type { Translation } from "../../i18n.ts";
import type { EnFeelTexts } from "../en/feel.ts";

export const FEEL_AR: Translation<EnFeelTexts> = {
  filter: "تصفية",
  filters: "عوامل التصفية",
  age: "العمر",
  ageFrom: "من",
  ageTo: "إلى",
  distance: "المسافة",
  anyDistance: "أي مسافة",
  within: (d: string) => `ضمن ${d}`,
  onlineNow: "متصل الآن",
  withPictures: "مع صور",
  tags: "الوسوم",
  showResults: "عرض النتائج",
  whoIsAround: "من حولك",
  seeEveryone: "عرض الجميع",
  nobodyAroundYet: "لا أحد حولك بعد. حدّد مكانك على الخريطة لتتعرّف على أشخاص قريبين.",
  openMap: "افتح الخريطة",
  dismiss: "إخفاء",
  back: "رجوع",
  today: "اليوم",
  yesterday: "أمس",
  retry: "حاول مرة أخرى",
  confirmBlock: (name: string) => `حظر ${name}؟ لن يراك ولن تراه.`,
  yesBlock: "حظر",
  settingsSections: "الإعدادات",
  sectionAccount: "الحساب",
  sectionPrivacy: "الخصوصية والأمان",
  sectionNotifications: "الإشعارات",
  sectionDevices: "الأجهزة ومفاتيح المرور",
  sectionData: "بياناتي",
  noChatsYet: "لا محادثات بعد. ألقِ التحية على شخص قريب.",
  findPeople: "ابحث عن أشخاص قريبين",
  nextProfile: "الملف التالي",
  previousProfile: "الملف السابق",
  blockingHides: (name: string) =>
    `الحظر يخفيك أنت و${name} عن بعضكما في كل مكان: الخريطة والقوائم والدردشة والإعجابات.`,
  /** "Show me to everyone" in discreet mode: the same choice, without saying what the app is for. */
  showToEveryoneDiscreet: "أظهرني لكل من هو قريب، حتى حيث يكون ذلك خطرًا",
  removeTag: (tag: string) => `إزالة الوسم ${tag}`,
  removePasskey: (name: string) => `إزالة مفتاح المرور ${name}`,
  dragPicture: (n: number) => `اسحب الصورة ${n} لنقلها`,
};
