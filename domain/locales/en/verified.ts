/** The Verified badge's, filter's and message setting's texts in English (domain/verified.ts). */

export const EN_VERIFIED = {
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
