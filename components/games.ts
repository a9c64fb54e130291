/** Texts of the community games (the spec shows none; design.md describes the games). */

export const GAME_TEXTS = {
  credits: (n: number) => `Volunteer credits: ${n}`,
  creditsNote: "Each game action earns one credit, at most 20 a day.",
  human: "Human",
  machine: "Machine or fake",
  communitySays: "The community so far:",
  nextProfile: "Next profile",
  gptIntro: "Was this profile text written by a real person, or by a machine or a fake?",
  gptEmpty: "No profile texts left to judge near you right now. Come back later.",
  ratingIntro: "Rate pictures of members nearby: Nice, Meh or Skip.",
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
  saveFailed: "Your vote could not be saved. Please try again.",
  loadFailed: "Could not load the next one. Please try again.",
  backToGames: "Back to the games",
} as const;
