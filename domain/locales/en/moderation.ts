/** English texts of moderation (domain/moderation.ts): the catalogue's keys and the words the translations follow. */

import type { ActionKind } from "../../shapes/moderation.ts";

export const EN_MODERATION = {
  warningTitle: "A warning from the moderators",
  warningOk: "I understand",
  reviewTitle: "Your profile is under review",
  review:
    "Several members reported your profile. Until a moderator has looked at it, other members do not see it. You can still use the app.",
  sendingPaused: "Sending is paused until a moderator has looked at your account.",
  spamHeld: "This message may be spam: show it?",
  spamShow: "Show it",
  spamSecret:
    "Secret chats are not checked for spam this way: their texts are encrypted on the devices. Sending limits and reports still apply to them.",
  registerBlocked: "This address cannot be used to register: an account with it is suspended or banned.",
  kinds: { WARNING: "Warning", SUSPENSION: "Suspension", BAN: "Ban" } as Record<ActionKind, string>,
} as const;

export type EnModeration = typeof EN_MODERATION;
