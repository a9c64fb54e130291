/**
 * Texts of the spec, word for word, used by the server and the islands alike: the English in
 * domain/locales/en/texts.ts, the translations beside it, assembled here (domain/i18n.ts: reading
 * a text gives the language in use).
 */

import { catalogue } from "./i18n.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";
import { EN_TEXTS } from "./locales/en/texts.ts";
import { phrase } from "./phrases.ts";
import { dateTimeFormat, intlLocale } from "./i18n.ts";

export const TEXTS = catalogue("TEXTS", EN_TEXTS, {
  es: es.TEXTS,
  "pt-BR": ptBR.TEXTS,
  fr: fr.TEXTS,
  ar: ar.TEXTS,
});

/** A route title or menu label in the language in use (the English words where none is translated). */
export function titleText(english: string): string {
  return TEXTS.titles[english] ?? english;
}

/** The three acknowledgements of registration (spec §5): technology, age and law. */
export const ACKNOWLEDGEMENTS = [
  {
    id: "technology",
    text:
      "Technology: I accept the use of cookies, the sharing of my geolocation, and the logging of identifiers such as my email and IP address.",
  },
  {
    id: "age",
    text:
      "Age: I am an adult, it is legal for me to enter a site with adult content where I am, and I release the site of liability.",
  },
  {
    id: "law",
    text: "Law: I will follow the community guidelines.",
  },
] as const;

/** Maximum length of messages, notes, narratives and contact messages. */
export const MAX_TEXT = 4000;

/** The reasons a member may give when reporting a violation (Report Violation). */
export const REPORT_REASONS = [
  { id: "underage", label: "Appears to be under 18" },
  { id: "harassment", label: "Harassment or threats" },
  { id: "spam", label: "Spam, scam or advertising" },
  { id: "fake", label: "Fake profile or impersonation" },
  { id: "illegal", label: "Illegal activity" },
  { id: "pictures", label: "Pictures that break the rules" },
  // Small misconduct: a jury may decide these alone (Bad Boy Dungeon, domain/dungeon.ts).
  { id: "rude", label: "Rude or disrespectful" },
  { id: "mapchat", label: "Harassment in Map Chat" },
  { id: "other", label: "Something else" },
] as const;

/** A report reason id. */
export type ReportReason = typeof REPORT_REASONS[number]["id"];

/** A report reason's label in the language in use (its id when it is not a known reason). */
export function reportReasonLabel(id: string): string {
  const r = REPORT_REASONS.find((x) => x.id === id);
  return r ? phrase(r.label) : id;
}

/**
 * The mail to an account's old address after its email changed. Discreet, as on a lock screen:
 * no app name or content, just the change and where to get help.
 */
export function emailChangedMail(helpUrl: string, when: Date): { subject: string; text: string } {
  const at = dateTimeFormat(intlLocale(), { dateStyle: "long", timeStyle: "short", timeZone: "UTC" })
    .format(when) + " UTC";
  return {
    subject: phrase("Your account email was changed"),
    text: [
      phrase("Hello,"),
      "",
      phrase("The email address of your account was changed on {when}.", { when: at }),
      phrase("This address no longer receives mail or login links for it."),
      "",
      phrase("If you made this change, there is nothing to do."),
      phrase("If you did not, someone else may be using your account: tell us at {url} and give this address.", {
        url: helpUrl,
      }),
    ].join("\n"),
  };
}
