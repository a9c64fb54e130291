/** English texts of Hot or Not (GAME_TEXTS.hotOrNot): the keys the translations follow. */

import { formatDay } from "../../volunteer.ts";
import { HOT_DAYS, HOT_MAX_PICS, HOT_MIN_PICS, HOT_TARGET_VOTES } from "../../hotOrNot.ts";

export const EN_HOT_OR_NOT = {
  intro:
    "Which of your pictures works best? Test them privately, and help others by choosing between two of their pictures.",
  testTitle: "Test your pictures",
  testHelp:
    `Pick ${HOT_MIN_PICS} to ${HOT_MAX_PICS} of your public pictures. Members vote on them in pairs without seeing your name or profile. The test runs until each picture has ${HOT_TARGET_VOTES} counted votes, or ${HOT_DAYS} days. Only you see the result.`,
  needPictures: "You need at least 2 public pictures to start a test.",
  addPictures: "Add pictures",
  pick: (n: number) => `Picture ${n}`,
  picked: (n: number) => `${n} picked`,
  start: "Start the test",
  started: "Your test is running.",
  running: (ts: number) =>
    `Running until each picture has ${HOT_TARGET_VOTES} counted votes, or ${formatDay(ts)} at the latest.`,
  votes: (n: number) => `${n} of ${HOT_TARGET_VOTES} votes`,
  stop: "Stop the test",
  resultTitle: "Your result",
  resultPrivate: "Only you see this. No score is ever shown on your profile, in discovery or to admins.",
  share: (pct: number, low: number, high: number) => `Chosen ${pct}% of the time (likely ${low}–${high}%)`,
  noVotes: "No counted votes yet",
  ended: (ts: number) => `Ended on ${formatDay(ts)}.`,
  stopped: (ts: number) => `Stopped on ${formatDay(ts)}.`,
  bestLabel: "Best",
  careless: (n: number) => `${n} careless ${n === 1 ? "vote was" : "votes were"} not counted.`,
  bestFirst: "Put the best first",
  bestFirstDone: "Done: your best picture is now first.",
  earlier: "Earlier tests",
  voteTitle: "Vote",
  voteHelp:
    "Two pictures of one member: which would make the better first picture? Tap it, or skip. Take a moment: quick votes, or always the same side, are not counted. A counted vote earns a credit.",
  leftPicture: "Left picture",
  rightPicture: "Right picture",
  choose: "This one",
  skip: "Skip",
  voteEmpty: "No pictures to compare right now. Come back later.",
  counted: "Counted. Thank you!",
  notCountedFast: "Not counted: take a moment to look at both pictures.",
  notCountedSide: "Not counted: you keep choosing the same side.",
  skipped: "Skipped.",
  queued: "Saved on this device: it is sent when you are back online.",
  testEnded: "That test has just ended.",
  keepTitle: "Keep my best picture first",
  keepHelp:
    "The app counts the likes and profile opens each of your public pictures earns, and keeps the best one first, trying the others now and then. You can switch it off and undo its changes.",
  keepOn: "On",
  keepOff: "Off",
  moved: (ts: number) => `The app put this picture first on ${formatDay(ts)}.`,
  undo: "Undo: put my order back",
  undone: "Your order is back, and the setting is off.",
  failed: "That did not work. Please try again.",
} as const;

export type EnHotOrNot = typeof EN_HOT_OR_NOT;
