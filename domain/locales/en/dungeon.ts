/** Bad Boy Dungeon's texts in English (domain/dungeon.ts puts the languages together). */

/** The community rules a reform card names, by report reason (domain/texts.ts REPORT_REASONS). */
const EN_DUNGEON_RULES = {
  rude: "Be kind: no insults, mockery or rudeness.",
  spam: "No spam: no copy-paste messages, ads, links to sell or money requests.",
  fake: "Be yourself: your profile and pictures show you, honestly.",
  mapchat: "Map Chat is for everyone nearby: no harassing or singling out members there.",
  other: "Keep the community kind and safe.",
};

/** What a stay restricts. */
const EN_DUNGEON_RESTRICTED = {
  first_message: "First messages (to a member you have no conversation with)",
  like: "Likes of profiles and pictures",
  map_chat: "Map Chat posts",
};

export const EN_DUNGEON = {
  rules: EN_DUNGEON_RULES,
  restricted: EN_DUNGEON_RESTRICTED,
  intro:
    "A time-out, not banishment. When the community agrees that a member broke a small rule (rudeness, spam, a misleading profile, harassment in Map Chat), that member cannot send first messages, like, or post in Map Chat for a while: 24 hours the first time, 3 days the second time within 90 days, 7 days the third time (and the admins are told). Conversations already under way go on.",
  howTitle: "How the dungeon works",
  how: [
    "A member reports a profile; jurors in Community Arbitration say whether it breaks the rules.",
    "When at least 5 jurors vote and 80% or more of the weighted votes say 'Violation', a small violation sends the member here at once. Otherwise an admin decides, within 48 hours.",
    "Threats, minors, violence and non-consensual pictures never come here: the admins handle them.",
    "The member sees the reported lines, the rule, and the end of the stay. A short quiz on the rules shortens the stay once by a third; one appeal goes to the admins, whose word is final.",
    "Nobody else sees who is in the dungeon: no badge, no list.",
  ],
  serving: (n: number) =>
    n === 1 ? "1 member is serving a time-out right now." : `${n} members are serving a time-out right now.`,
  cardTitle: "Your time-out",
  cardLead:
    "The community agreed that this broke a rule. Here is what was reported, with other members' names removed.",
  linesTitle: "What was reported",
  noLines: "(The report had no text: it was about your profile.)",
  ruleTitle: "The rule",
  restrictedTitle: "What you cannot do until then",
  untilTitle: "Until",
  stepOf: (step: number) =>
    step === 1
      ? "This is your first time-out."
      : step === 2
      ? "This is your second time-out within 90 days."
      : "This is your third time-out within 90 days: the admins were told.",
  stillYouCan: "You can still reply in your conversations, browse, and play the community games.",
  quizTitle: "The rules quiz",
  quizLead: "Answer every question right and your stay is shortened by a third, once.",
  quizSend: "Check my answers",
  quizPassed: "All right: your stay was shortened by a third.",
  quizWrong: (n: number) =>
    n === 1
      ? "One answer is not right yet. Read the rule again and try once more."
      : `${n} answers are not right yet. Read the rules again and try once more.`,
  quizUsed: "You used the quiz for this stay: it was shortened by a third.",
  appealTitle: "Appeal",
  appealLead:
    "If you think the community got it wrong, tell the admins why. You can appeal once; the admins' word is final.",
  appealLabel: "Why this was not a violation",
  appealSend: "Send my appeal",
  appealPending: "Your appeal is with the admins.",
  appealRejected: "The admins read your appeal and kept the time-out.",
  appealUpheld: "The admins upheld your appeal: the time-out was ended.",
  refused: {
    first_message: (until: string) =>
      `You are in a time-out until ${until}: no first messages until then. Your conversations go on. See Bad Boy Dungeon in Community.`,
    like: (until: string) =>
      `You are in a time-out until ${until}: no likes until then. See Bad Boy Dungeon in Community.`,
    map_chat: (until: string) =>
      `You are in a time-out until ${until}: no Map Chat posts until then. See Bad Boy Dungeon in Community.`,
  },
  /** An admin's action (end a stay, answer an appeal) found no connection. */
  offline: "You are offline: nothing was sent. Try again when you are back online.",
  sendFailed: "Could not send, please try again.",
  /** A quiz kept in the device outbox while offline. */
  quizQueued: "Saved on this device: your answers are sent when you are back online.",
  /** An appeal kept in the device outbox while offline. */
  appealQueued: "Saved on this device: your appeal is sent when you are back online.",
  ended: "Your time-out is over. Thank you for keeping the community kind.",
  adminTitle: "Bad Boy Dungeon",
  adminNone: "Nobody is in the dungeon, and no appeal waits.",
  adminEnd: "End the stay",
  adminUphold: "Uphold the appeal (end and annul)",
  adminReject: "Reject the appeal",
  adminAppeal: "Appeal",
  adminThird: "Third time-out within 90 days",
  adminOverdue: "Undecided for 48 hours",
  adminLink: "Time-outs and appeals (Bad Boy Dungeon)",
  questions: [
    {
      q: "A member does not answer your message. What do you do?",
      options: [
        "Send the same message again every hour",
        "Leave it: no answer is an answer",
        "Tell them off in Map Chat",
      ],
    },
    {
      q: "What may you put in your profile?",
      options: [
        "Pictures of someone better looking",
        "Pictures of you, and an honest text",
        "Any age that gets more likes",
      ],
    },
    {
      q: "Someone is rude to you. What is the right step?",
      options: ["Report or block them", "Insult them back", "Post their name in Map Chat"],
    },
    {
      q: "Who sees that you are in the dungeon?",
      options: ["Everyone nearby", "Only you (and the admins)", "Members you message"],
    },
  ],
};

export type EnDungeon = typeof EN_DUNGEON;
