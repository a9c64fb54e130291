/**
 * Texts of the Billing page below the spec's two membership texts: what Pro unlocks, how to get
 * it, and the free way to the same (the volunteer role). The standard limits themselves stay
 * unnamed, as the spec wants.
 */

import { formatDay, VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "./games.ts";
import { phrase } from "./phrases.ts";

export const MEMBERSHIP_TEXTS = {
  get yoursTitle() {
    return phrase("Your membership");
  },
  get youArePro() {
    return phrase("You are a Pro member: no daily limits. Thank you for carrying the community!");
  },
  youAreVolunteerUntil: (ts: number) =>
    phrase("You are a volunteer until {date}: no daily limits. Thank you!", { date: formatDay(ts) }),
  get youAreVolunteer() {
    return phrase("You are a volunteer: no daily limits. Thank you!");
  },
  get youAreStandard() {
    return phrase("You are a standard member.");
  },
  get unlocksTitle() {
    return phrase("What Pro unlocks");
  },
  get unlocks() {
    return phrase(
      "Pro and volunteer members have no standard limits: likes and new conversations are unlimited, every day. Standard members have daily limits; when one is reached, the app says so and it resets the next day.",
    );
  },
  get howTitle() {
    return phrase("How to get Pro");
  },
  get how() {
    return phrase(
      "Write to us through the contact form and say whether you want to pay monthly or yearly. We answer with the payment details (a peer-to-peer bank transfer service or a credit card) and turn Pro on for your account as soon as your dues arrive.",
    );
  },
  get contactLink() {
    return phrase("Open the contact form");
  },
  get volunteerTitle() {
    return phrase("Or volunteer, for free");
  },
  get volunteer() {
    return phrase(
      "Play the community games: a real judgement earns a volunteer credit (Nice or Meh in The Rating Game, a vote in GPT Buster or Community Arbitration, a crop its owner used in Help my Photos). {credits} credits within {days} days make you a volunteer for {roleDays} days, with the same unlimited use as Pro.",
      { credits: VOLUNTEER_CREDITS, days: VOLUNTEER_WINDOW_DAYS, roleDays: VOLUNTEER_ROLE_DAYS },
    );
  },
  get gamesLink() {
    return phrase("Go to the community games");
  },
};
