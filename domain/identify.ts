/**
 * 3 2 1 Identify: the poses a member is asked to copy in a selfie, and the game's texts. A pose is
 * a short instruction and, where it helps, a drawing (an emoji of the gesture); poses without
 * hands are offered to a member who cannot make the others.
 */

import { catalogue } from "./i18n.ts";
import { IDENTIFY_ES } from "./locales/identifyEs.ts";
import { IDENTIFY_PT_BR } from "./locales/identifyPtBR.ts";
import { IDENTIFY_FR } from "./locales/identifyFr.ts";
import { IDENTIFY_AR } from "./locales/identifyAr.ts";

/** A pose: its id (the key of its text), whether it needs hands, and a drawing where one helps. */
export interface Pose {
  id: PoseId;
  hands: boolean;
  drawing?: string;
}

const EN_POSES = {
  leftEarRightHand: "Touch your left ear with your right hand.",
  rightEarLeftHand: "Touch your right ear with your left hand.",
  threeFingersChin: "Hold three fingers up beside your chin.",
  twoFingersChin: "Hold two fingers up beside your chin.",
  oneFingerNose: "Touch the tip of your nose with one finger.",
  thumbsUpCheek: "Thumbs up beside your cheek.",
  thumbsDownCheek: "Thumbs down beside your cheek.",
  okSignEye: "Make an OK sign in front of one eye.",
  peaceForehead: "Make a peace sign above your forehead.",
  palmOpenShoulder: "Show an open palm beside your shoulder.",
  fistChin: "Rest your chin on your fist.",
  handTopHead: "Put one hand flat on top of your head.",
  salute: "Salute with your right hand.",
  pinchEarlobe: "Pinch your earlobe.",
  fourFingersForehead: "Hold four fingers up beside your forehead.",
  phoneGesture: "Make a 'call me' gesture (thumb and little finger) beside your ear.",
  pointUp: "Point up with your index finger beside your face.",
  pointCamera: "Point at the camera.",
  handOverMouth: "Cover your mouth with your hand.",
  coverOneEye: "Cover one eye with your hand.",
  wave: "Wave at the camera with your hand open.",
  crossFingers: "Cross your fingers beside your face.",
  rockSign: "Make a rock sign (index and little finger) beside your face.",
  fingerOnLips: "Put a finger on your lips, as if saying 'shh'.",
  bothHandsCheeks: "Put both hands on your cheeks.",
  handsOnHead: "Put both hands on your head.",
  thinkerPose: "Touch your chin with your thumb and index finger, like a thinker.",
  heartHands: "Make a heart with both hands in front of your chest.",
  fiveFingersSpread: "Hold up five spread fingers beside your face.",
  scratchHead: "Scratch your head with one hand.",
  handBehindHead: "Put one hand behind your head.",
  touchEyebrow: "Touch one eyebrow with one finger.",
  handUnderChin: "Put your hand flat under your chin, palm up.",
  pinkyUp: "Hold up only your little finger beside your face.",
  tiltLookLeft: "Tilt your head to the left and look at the camera.",
  tiltLookRight: "Tilt your head to the right and look at the camera.",
  lookUp: "Look up, with your face still to the camera.",
  eyesClosed: "Close both eyes.",
  wink: "Wink with one eye.",
  openMouth: "Open your mouth wide, as if surprised.",
  bigSmile: "Give a big smile showing your teeth.",
  tongueOut: "Stick your tongue out.",
  puffCheeks: "Puff out your cheeks.",
  raiseEyebrows: "Raise both eyebrows.",
  turnLeft: "Turn your head a little to your left (we see more of your right cheek).",
  kissFace: "Pucker your lips as if sending a kiss.",
} as const;

export type PoseId = keyof typeof EN_POSES;

const DRAWINGS: Partial<Record<PoseId, string>> = {
  leftEarRightHand: "👂",
  rightEarLeftHand: "👂",
  threeFingersChin: "🤟",
  twoFingersChin: "✌️",
  oneFingerNose: "☝️",
  thumbsUpCheek: "👍",
  thumbsDownCheek: "👎",
  okSignEye: "👌",
  peaceForehead: "✌️",
  palmOpenShoulder: "✋",
  fistChin: "✊",
  salute: "🫡",
  phoneGesture: "🤙",
  pointUp: "☝️",
  pointCamera: "🫵",
  handOverMouth: "🤭",
  wave: "👋",
  crossFingers: "🤞",
  rockSign: "🤘",
  fingerOnLips: "🤫",
  thinkerPose: "🤔",
  heartHands: "🫶",
  fiveFingersSpread: "🖐️",
  pinkyUp: "👆",
  eyesClosed: "😌",
  wink: "😉",
  openMouth: "😮",
  bigSmile: "😁",
  tongueOut: "😛",
  puffCheeks: "🐡",
  raiseEyebrows: "🤨",
  kissFace: "😗",
};

const NO_HANDS: ReadonlySet<PoseId> = new Set<PoseId>([
  "tiltLookLeft",
  "tiltLookRight",
  "lookUp",
  "eyesClosed",
  "wink",
  "openMouth",
  "bigSmile",
  "tongueOut",
  "puffCheeks",
  "raiseEyebrows",
  "turnLeft",
  "kissFace",
]);

/** Every pose, in a fixed order. */
export const POSES: readonly Pose[] = (Object.keys(EN_POSES) as PoseId[]).map((id) => ({
  id,
  hands: !NO_HANDS.has(id),
  ...(DRAWINGS[id] ? { drawing: DRAWINGS[id] } : {}),
}));

/** Is `x` a pose id? */
export function isPoseId(x: unknown): x is PoseId {
  return typeof x === "string" && Object.hasOwn(EN_POSES, x);
}

/** The answers a judge (or an admin) gives about a selfie. */
export const ID_ANSWERS = ["SAME", "NOT_SAME", "WRONG_POSE"] as const;
export type IdAnswer = typeof ID_ANSWERS[number];

/** Two perceptual hashes (images/pipeline.ts `perceptualHash`) this close, in differing bits of 64, are the same picture. */
export const SAME_PICTURE_BITS = 10;

/** How many bits two 64-bit hashes differ in. */
export function hammingDistance(a: bigint, b: bigint): number {
  let x = a ^ b, n = 0;
  while (x) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

/** How long a challenge (a pose to copy) may be answered. */
export const CHALLENGE_MS = 2 * 60_000;
/** At most this many selfies a member may send a UTC day. */
export const ATTEMPTS_PER_DAY = 3;
/** This many agreeing answers decide; any disagreement among them goes to the admins. */
export const JUDGES_NEEDED = 3;

const EN_IDENTIFY = {
  poses: EN_POSES,
  intro:
    "Show the community that you are the person in your pictures: copy a random pose in a selfie taken now. Three members compare it with your public pictures; then your profile shows a Verified badge. Or judge others' selfies and earn credits.",
  verifyTitle: "Verify yourself",
  judgeTitle: "Judge a selfie",
  statusVerified: (day: string) => `You are verified since ${day}.`,
  statusLapsed:
    "Your first picture changed since the community compared you with your pictures: verify again to show the badge.",
  statusNone: "You are not verified yet.",
  statusPending: "Your selfie is being compared by the community. You will be told the outcome.",
  statusRejected: (day: string) => `Your last selfie (${day}) was not accepted. You can try again.`,
  needPicture: "Add a public picture of yourself first: the community compares your selfie with it.",
  start: "Get my pose",
  noHands: "I can't make this pose: give me one without hands",
  yourPose: "Your pose",
  cameraNote: "Your selfie is seen only by the judges and the admins while it is judged, then deleted.",
  takeIn: (n: number) => `Taking the selfie in ${n}...`,
  countdownLabel: "Countdown",
  takeSelfie: "3, 2, 1: take my selfie",
  cameraFailed: "The camera could not be opened. Allow the camera for this site and try again.",
  expiresIn: (s: number) => `${s} s left`,
  expired: "Time is up for this pose. Ask for a new one.",
  send: "Send this selfie",
  retake: "Take it again",
  sent: "Sent! The community will compare your selfie with your pictures.",
  withdraw: "Withdraw my selfie",
  withdrawn: "Withdrawn: your selfie was deleted.",
  attemptsLeft: (n: number) => `${n} ${n === 1 ? "attempt" : "attempts"} left today.`,
  judgeIntro:
    "Is the person in the selfie the one in these pictures, and do they copy the pose? You never learn who they are.",
  theSelfie: "The selfie",
  thePose: "The pose it should show",
  thePictures: "Their public pictures",
  same: "Same person, right pose",
  notSame: "Not the same person",
  wrongPose: "Wrong pose / can't tell",
  judgeEmpty: "No selfies to judge right now. Thank you for helping!",
  judgePaused: "Your recent answers often differed from the outcome, so you are not asked for now.",
  thanks: "Thank you! Your answer was saved.",
  next: "Next selfie",
  adminQueue: "Selfies to decide (admins)",
  adminEmpty: "No selfie waits for an admin.",
  adminAnswers: (same: number, notSame: number, wrong: number) =>
    `Judges: ${same} same, ${notSame} not the same, ${wrong} wrong pose.`,
  decided: "Decided.",
  failed: "That did not work. Please try again.",
  notifyVerified: "The community verified you: your profile shows the Verified badge.",
  notifyRejected: "Your selfie was not accepted. You can try again in 3 2 1 Identify.",
  verifyLink: "Verify yourself",
} as const;

export type EnIdentify = typeof EN_IDENTIFY;

export const IDENTIFY_TEXTS = catalogue("IDENTIFY_TEXTS", EN_IDENTIFY, {
  es: IDENTIFY_ES,
  "pt-BR": IDENTIFY_PT_BR,
  fr: IDENTIFY_FR,
  ar: IDENTIFY_AR,
});
