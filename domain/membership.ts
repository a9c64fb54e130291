/**
 * Texts of the Billing page below the spec's two membership texts: what Pro unlocks, how to get
 * it, and the free way to the same (the volunteer role). The standard limits themselves stay
 * unnamed, as the spec wants.
 */

import { formatDay, VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "./games.ts";

export const MEMBERSHIP_TEXTS = {
  yoursTitle: "Your membership",
  youArePro: "You are a Pro member: no daily limits. Thank you for carrying the community!",
  youAreVolunteerUntil: (ts: number) => `You are a volunteer until ${formatDay(ts)}: no daily limits. Thank you!`,
  youAreVolunteer: "You are a volunteer: no daily limits. Thank you!",
  youAreStandard: "You are a standard member.",
  unlocksTitle: "What Pro unlocks",
  unlocks:
    "Pro and volunteer members have no standard limits: likes and new conversations are unlimited, every day. Standard members have daily limits; when one is reached, the app says so and it resets the next day.",
  howTitle: "How to get Pro",
  how:
    "Write to us through the contact form and say whether you want to pay monthly or yearly. We answer with the payment details (a peer-to-peer bank transfer service or a credit card) and turn Pro on for your account as soon as your dues arrive.",
  contactLink: "Open the contact form",
  volunteerTitle: "Or volunteer, for free",
  volunteer:
    `Play the community games: a real judgement earns a volunteer credit (Nice or Meh in The Rating Game, a vote in GPT Buster or Community Arbitration, a crop its owner used in Help my Photos). ${VOLUNTEER_CREDITS} credits within ${VOLUNTEER_WINDOW_DAYS} days make you a volunteer for ${VOLUNTEER_ROLE_DAYS} days, with the same unlimited use as Pro.`,
  gamesLink: "Go to the community games",
} as const;
