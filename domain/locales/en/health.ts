/** English texts of the Health Incident Report (domain/health.ts): the catalogue's keys and the words the translations follow. */

import { formatDay } from "../../volunteer.ts";

/** The English texts of both pages (GAME_TEXTS.health). */
export const EN_HEALTH = {
  conditions: {
    SYPHILIS: "Syphilis",
    GONORRHOEA: "Gonorrhoea",
    CHLAMYDIA: "Chlamydia",
    HIV: "HIV",
    HEPATITIS_A: "Hepatitis A",
    HEPATITIS_B: "Hepatitis B",
    HEPATITIS_C: "Hepatitis C",
    MPOX: "Mpox",
    OTHER: "Another infection",
  },
  advice: {
    SYPHILIS:
      "Get a blood test for syphilis, even without symptoms such as a painless sore or a rash. Treatment is simple, usually one injection of penicillin. A test soon after contact can still be negative: test again if your clinic advises.",
    GONORRHOEA:
      "Get tested: a urine test and swabs of the throat and rectum, depending on the sex you had. It often causes no symptoms. It is treated with antibiotics, usually one injection.",
    CHLAMYDIA:
      "Get tested: a urine test and swabs of the throat and rectum, depending on the sex you had. It often causes no symptoms. It is treated with antibiotics.",
    HIV:
      "Get an HIV test. If the contact may have been within the last 72 hours, go to a sexual health clinic or an emergency department now and ask for PEP (post-exposure prophylaxis). Test again after the window period your clinic gives you.",
    HEPATITIS_A:
      "Ask a clinic or your doctor about the hepatitis A vaccine: given within two weeks of contact it can prevent the illness. Watch for fever, tiredness, dark urine, or yellow skin or eyes.",
    HEPATITIS_B:
      "Get a blood test for hepatitis B. If you are not vaccinated, ask at once about the vaccine and immunoglobulin: given within days of contact they can prevent infection.",
    HEPATITIS_C:
      "Get a blood test for hepatitis C (antibodies, and a viral test if your clinic advises). Today's treatments cure nearly everyone.",
    MPOX:
      "Watch for fever, swollen glands, a rash or sores for 21 days after contact. Ask a clinic about the mpox vaccine: within four days of contact it can prevent the illness. If symptoms appear, avoid close contact and get tested.",
    OTHER:
      "Visit a sexual health clinic or your doctor for a check-up and say that you were told of a possible exposure.",
  },
  reportIntro:
    "Diagnosed with an infection? Tell the members you exchanged messages with, without your name: each gets a health notice within a day, and nobody, not even the admins, can see who sent it.",
  conditionLabel: "What were you diagnosed with?",
  chooseCondition: "Choose…",
  periodLabel: "How far back?",
  periodOption: (days: number) => `The last ${days} days`,
  usualPeriod: (days: number) => `Usual for this infection: ${days} days.`,
  contactsTitle: "Whom to tell",
  contactsHelp:
    "Members you exchanged messages with (both ways) in that period. Untick anyone you do not want to tell.",
  noContacts: "No members you exchanged messages with in that period.",
  send: "Send the notices",
  sending: "Sending…",
  sent: (n: number) =>
    `Done. ${n} ${
      n === 1 ? "member" : "members"
    } will be told within 24 hours, without your name. Nothing about this report is kept on your side. Thank you for looking after the community.`,
  remaining: (n: number) => `You can send ${n} more ${n === 1 ? "report" : "reports"} this month.`,
  limitReached: "You have sent 2 reports this month. You can send more next month.",
  tooNew: "Accounts younger than 7 days cannot send health notices yet.",
  notAContact: "You can only tell members you exchanged messages with in that period.",
  sendFailed: "The notices could not be sent. Please try again.",
  privacyNote:
    "The notice says what and when, never who. Your choice of members is not stored, and your data export will not show it.",
  cootiesIntro:
    "Someone you exchanged messages with told us they were diagnosed with an infection. They chose to let you know anonymously: we do not know who they are either.",
  noNotices: "No health notices for you. Nothing to do.",
  noticeTitle: (condition: string) => `Possible exposure: ${condition}`,
  noticeWindow: (since: number, until: number) => `Between ${formatDay(since)} and ${formatDay(until)}.`,
  whatToDo: "What to do",
  generalAdvice:
    "Testing is confidential and you do not need to say how you heard. Until you know, use condoms and tell your clinic about this notice.",
  reportAbuse: "Report this notice as abuse",
  abuseReported: "Thank you. The notice was removed and counted as abuse.",
  adminTitle: "Health notices (admins: counts only)",
  adminCounts: (reports: number, notices: number, pending: number, abuse: number) =>
    `Reports: ${reports}. Notices shown: ${notices}. Waiting: ${pending}. Reported as abuse: ${abuse}.`,
} as const;
export type EnHealth = typeof EN_HEALTH;
