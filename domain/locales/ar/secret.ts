/** Arabic texts of secret chats (domain/secretChats.ts). */
import type { Translation } from "../../i18n.ts";
import type { EnSecret } from "../en/secretChats.ts";

export const SECRET_TEXTS: Translation<EnSecret> = {
  verifiedReportPrefix: "[رسالة سرية موثقة]",
  suggest: "حيث أنت، تُبقي المحادثة السرية ما تكتبه هنا بين أجهزتك وأجهزته فقط.",
  startSecretChat: "ابدأ محادثة سرية",
  starting: "جارٍ بدء المحادثة السرية…",
  secretChat: "محادثة سرية",
  secretNotice: "مشفّرة من طرف إلى طرف: لا يقرأ هذه الرسائل إلا أجهزتك وأجهزته.",
  safetyCode: "رمز الأمان",
  safetyCodeHint: "قارن هذا الرمز برمزه وجهًا لوجه: إن تطابقا فلا أحد بينكما.",
  peerCannot:
    "لا يمكنه المشاركة في محادثة سرية بعد: يجب أن يفتح كل جهاز من أجهزته Lambda مرة واحدة مع المحادثات السرية.",
  loseHistory: "تُحفظ الرسائل السرية على أجهزتك فقط: فقدان كل أجهزتك يعني فقدان هذا السجل.",
  placeholder: "رسالة سرية",
  send: "إرسال",
  report: "إبلاغ",
  reported: "تم الإبلاغ",
  cannotOpen: "لا يمكن قراءة هذه الرسالة على هذا الجهاز.",
  queued: "دون اتصال: تُحفظ على هذا الجهاز وتُرسل عند عودة الاتصال.",
  notSent: "لم تُرسل",
  devicesChanged: "تغيّرت أجهزته: قارن رمز الأمان مرة أخرى.",
  otherDevice: "هذه المحادثة السرية تخص جهازًا آخر من أجهزتك؛ لا يستطيع هذا الجهاز قراءتها.",
  askToJoin: "اطلب من جهازك الآخر إضافة هذا الجهاز",
  waitingApproval: "بانتظار أن يضيف جهازك الآخر هذا الجهاز…",
  newDeviceAsks: "جهاز آخر من أجهزتك يطلب الانضمام إلى هذه المحادثة السرية.",
  addNewDevice: "أضِفه",
  unsupported: "لا يستطيع هذا المتصفح حفظ مفاتيح محادثة سرية.",
  notVerified: "النص المُبلَّغ عنه لا يطابق الرسالة: لم يُسجَّل البلاغ.",
};
