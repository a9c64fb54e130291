/**
 * The Verified badge's texts, the discovery filter and the message setting that rest on it: the
 * small part of 3 2 1 Identify (domain/identify.ts) that discovery, chat and settings show, kept
 * apart so those pages do not carry the game's poses and screens.
 */

import { catalogue } from "./i18n.ts";
import { VERIFIED_ES } from "./locales/es.ts";
import { VERIFIED_PT_BR } from "./locales/ptBR.ts";
import { VERIFIED_FR } from "./locales/fr.ts";
import { VERIFIED_AR } from "./locales/ar.ts";

const EN_VERIFIED = {
  verified: "Verified",
  verifiedNote: "Verified: the community compared a live selfie with this member's pictures.",
  verifiedOnly: "Verified only",
  onlyVerifiedMessage: "Only verified members can message me",
  onlyVerifiedMessageHelp:
    "Others see why they cannot write to you; what they wrote stays in their outbox until they are verified.",
  recipientVerifiedOnly:
    "This member accepts messages only from verified members. Verify yourself in 3 2 1 Identify; your message stays in your outbox to send again.",
} as const;

export type EnVerified = typeof EN_VERIFIED;

export const VERIFIED_TEXTS = catalogue("VERIFIED_TEXTS", EN_VERIFIED, {
  es: VERIFIED_ES,
  "pt-BR": VERIFIED_PT_BR,
  fr: VERIFIED_FR,
  ar: VERIFIED_AR,
});
