/** English texts of the community games (domain/games.ts): the catalogue's keys and the words the translations follow. */

import { EN_HEALTH } from "./health.ts";
import { EN_HOT_OR_NOT } from "./hotOrNot.ts";
import { formatDay, VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "../../volunteer.ts";

export const EN_GAMES = {
  credits: (n: number) => `Volunteer credits: ${n}`,
  creditsNote:
    "A real judgement earns one credit: Nice or Meh, a vote, or a crop its owner used. Skips earn nothing. At most 20 a day.",
  volunteerUntil: (ts: number) => `Volunteer until ${formatDay(ts)}. Thank you for helping!`,
  volunteerStanding: "You are a volunteer. Thank you for helping!",
  volunteerProgress: (recent: number, toGo: number) =>
    `${recent} ${
      recent === 1 ? "credit" : "credits"
    } in the last ${VOLUNTEER_WINDOW_DAYS} days: ${toGo} to go to become a volunteer.`,
  volunteerHow:
    `Earn ${VOLUNTEER_CREDITS} credits within ${VOLUNTEER_WINDOW_DAYS} days and you are a volunteer for ${VOLUNTEER_ROLE_DAYS} days: like Pro members, volunteers have no daily limits. Each credit while you stay at ${VOLUNTEER_CREDITS} or more keeps it going.`,
  volunteerProgressLabel: "Credits toward the volunteer role",
  membershipLink: "Membership: Pro and volunteers",
  human: "Human",
  machine: "Machine or fake",
  communitySays: "The community so far:",
  nextProfile: "Next profile",
  gptIntro: "Was this profile text written by a real person, or by a machine or a fake?",
  gptEmpty: "No profile texts left to judge near you right now. Come back later.",
  ratingIntro: "Rate pictures of members nearby: Nice, Meh or Skip. Nice and Meh earn a credit; a Skip earns nothing.",
  ratingEmpty: "No pictures left to rate near you right now. Come back later.",
  arbIntro:
    "A member reported this profile. Read the report and the profile, then say whether it breaks the rules. An admin decides in the end.",
  arbEmpty: "No open reports for you to judge right now. Thank you for helping!",
  violation: "Violation",
  noViolation: "No violation",
  reportReason: "Reason",
  reportText: "What the reporter wrote",
  reportedProfile: "The reported profile",
  noText: "(no text)",
  nextReport: "Next report",
  cropIntro:
    "Suggest a better portrait crop for a member's picture. The owner decides whether to use it; you earn a credit when they do.",
  cropHelp: "Help a member",
  cropForYou: "Crops suggested for your pictures",
  cropYourPicture: "Your picture with the suggested crop",
  cropAccept: "Use this crop",
  cropDismiss: "Dismiss",
  cropAccepted: "Done: your picture now uses this crop.",
  cropDismissed: "Dismissed.",
  cropSize: "Size",
  cropLeftRight: "Left / right",
  cropUpDown: "Up / down",
  cropSuggest: "Suggest this crop",
  cropSkip: "Skip",
  cropSent: "Thank you! Your suggestion was sent. You earn a credit if the owner uses it.",
  cropEmpty: "No pictures near you need help right now. Come back later.",
  adminReports: "Reports (admins)",
  adminNoReports: "No reports.",
  adminConfirm: "Confirm violation",
  adminDismiss: "Dismiss",
  adminFlagged: "Flagged profiles (admins)",
  adminNoFlagged: "No profile is flagged.",
  saveFailed: "Your vote could not be saved. Please try again.",
  loadFailed: "Could not load the next one. Please try again.",
  backToGames: "Back to the games",
  /** The Health Incident Report and its notices (domain/health.ts). */
  health: EN_HEALTH,
  /** Hot or Not (domain/hotOrNot.ts). */
  hotOrNot: EN_HOT_OR_NOT,
} as const;

export type EnGames = typeof EN_GAMES;
