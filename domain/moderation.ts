/**
 * Moderation's pure rules: the actions an admin picks, the texts a member sees, the address
 * spelling that stops a suspended member registering again, and the signs of spam in a first
 * message. The store side is kv/moderation.ts and kv/spam.ts.
 */

import { catalogue, dateTimeFormat, intlLocale, locale } from "./i18n.ts";
import * as es from "./locales/es/mod.ts";
import * as ptBR from "./locales/ptBR/mod.ts";
import * as fr from "./locales/fr/mod.ts";
import * as ar from "./locales/ar/mod.ts";
import { EN_MODERATION } from "./locales/en/moderation.ts";
import { phrase } from "./phrases.ts";

/** A suspension lasts one of these many days. */
export const SUSPENSION_DAYS = [1, 7, 30] as const;
/** Reports from this many different members within `REVIEW_WINDOW_MS` hide a profile until an admin looks. */
export const REVIEW_REPORTERS = 3;
export const REVIEW_WINDOW_MS = 24 * 3_600_000;
/** Reasons are shown to the member: short, and never who reported. */
export const MAX_REASON = 500;

export const MODERATION_TEXTS = catalogue("MODERATION_TEXTS", EN_MODERATION, {
  es: es.MODERATION_TEXTS,
  "pt-BR": ptBR.MODERATION_TEXTS,
  fr: fr.MODERATION_TEXTS,
  ar: ar.MODERATION_TEXTS,
});

/** The login refusal of a suspended or banned member: the reason and the end date, never who reported. */
export function sanctionMessage(kind: "SUSPENSION" | "BAN", reason: string, until: number | null): string {
  const why = reason ? " " + phrase("Reason: {reason}", { reason }) : "";
  if (kind === "BAN" || until === null) return phrase("Your account is banned.") + why;
  return phrase("Your account is suspended until {until}.", { until: formatUntil(until) }) + why;
}

/** A moment as members read it in a moderation text: "2 December 2026, 15:10 UTC". */
export function formatUntil(ts: number): string {
  const d = new Date(ts);
  const l = locale();
  const date = dateTimeFormat(l === "en" ? "en-GB" : intlLocale(l), {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(d);
  return `${date}, ${d.toISOString().slice(11, 16)} UTC`;
}

/** Providers that ignore dots in the local part (Gmail). */
const DOTLESS = new Set(["gmail.com", "googlemail.com"]);
/** Providers' tag separators: the part after it reaches the same mailbox. */
const TAG_SEPARATOR: Record<string, string> = {
  "gmail.com": "+",
  "googlemail.com": "+",
  "outlook.com": "+",
  "hotmail.com": "+",
  "live.com": "+",
  "icloud.com": "+",
  "me.com": "+",
  "proton.me": "+",
  "protonmail.com": "+",
  "fastmail.com": "+",
  "yahoo.com": "-",
};
const SAME_MAILBOX: Record<string, string> = { "googlemail.com": "gmail.com", "me.com": "icloud.com" };

/**
 * The one spelling of a mailbox for ban evasion: lower case; the big providers' tags (+tag, and
 * Yahoo's -tag) dropped; Gmail's dots dropped; googlemail.com as gmail.com.
 */
export function mailboxOf(email: string): string {
  const e = email.trim().toLowerCase();
  const at = e.lastIndexOf("@");
  if (at < 1) return e;
  let local = e.slice(0, at);
  const domain = e.slice(at + 1);
  const sep = TAG_SEPARATOR[domain];
  if (sep && local.includes(sep)) local = local.slice(0, local.indexOf(sep));
  if (DOTLESS.has(domain)) local = local.replaceAll(".", "");
  return `${local}@${SAME_MAILBOX[domain] ?? domain}`;
}

// --- spam in first messages

/** A first message is one of the first `EARLY_MESSAGES` a member sends before the other replies. */
export const EARLY_MESSAGES = 3;
/** The same first message to this many members within `SPAM_WINDOW_MS` is held as spam. */
export const SAME_TEXT_RECIPIENTS = 3;
/** Ten identical first messages within the window pause sending until an admin looks. */
export const SAME_TEXT_PAUSE = 10;
export const SPAM_WINDOW_MS = 3_600_000;

/** Why a message looks like spam. */
export type SpamSign = "link" | "phone" | "payment" | "repeated";

const LINK =
  /\b(?:https?:\/\/|www\.)\S+|\b[a-z0-9-]{2,}\.(?:com|net|org|io|me|ly|co|xyz|link|site|club|app|info|biz|ru|tk|top|cc|gg|to)(?:\/\S*)?\b/i;
const PAYMENT =
  /(?:^|\s)\$[a-z][a-z0-9_]{1,20}\b|\b(?:cash\s?app|venmo|paypal|zelle|western\s?union|moneygram|gift\s?cards?|bitcoin|btc|usdt|crypto\s?wallet|wire\s+transfer|revolut|wise\.com)\b/i;
/** Seven or more digits, with the spaces, dots, dashes and brackets phone numbers are written with. */
const PHONE = /(?:\+|\b)\d(?:[\s.\-()]*\d){6,}/;

/** The signs of spam in a message's text (none for a plain message). */
export function spamSigns(text: string): SpamSign[] {
  const out: SpamSign[] = [];
  if (LINK.test(text)) out.push("link");
  if (PHONE.test(text)) out.push("phone");
  if (PAYMENT.test(text)) out.push("payment");
  return out;
}

/** A message's text reduced so small changes (case, spacing, punctuation, emoji) still match. */
export function spamFingerprintText(text: string): string {
  return text.toLowerCase().normalize("NFKC").replace(/[^\p{L}\p{N}]+/gu, "");
}
