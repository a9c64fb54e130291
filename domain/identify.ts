/**
 * 3 2 1 Identify: the poses a member is asked to copy in a selfie, and the game's texts. A pose is
 * a short instruction and, where it helps, a drawing (an emoji of the gesture); poses without
 * hands are offered to a member who cannot make the others.
 */

import { catalogue } from "./i18n.ts";
import { EN_IDENTIFY, EN_POSES, type EnIdentify, type PoseId } from "./locales/en/identify.ts";

export type { EnIdentify, PoseId };
import { IDENTIFY_ES } from "./locales/es/identify.ts";
import { IDENTIFY_PT_BR } from "./locales/ptBR/identify.ts";
import { IDENTIFY_FR } from "./locales/fr/identify.ts";
import { IDENTIFY_AR } from "./locales/ar/identify.ts";

/** A pose: its id (the key of its text), whether it needs hands, and a drawing where one helps. */
export interface Pose {
  id: PoseId;
  hands: boolean;
  drawing?: string;
}

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

export const IDENTIFY_TEXTS = catalogue("IDENTIFY_TEXTS", EN_IDENTIFY, {
  es: IDENTIFY_ES,
  "pt-BR": IDENTIFY_PT_BR,
  fr: IDENTIFY_FR,
  ar: IDENTIFY_AR,
});
