/**
 * 3 2 1 Identify: a member copies a random pose in a selfie taken now; members judge it against
 * the member's public pictures; three agreeing answers decide, any disagreement goes to the
 * admins, an admin's answer decides alone. An accepted selfie records which public pictures the
 * judges compared (`Profile.verifiedPicIds`): the badge shows while the first picture is one of
 * them (kv/profiles.ts `isVerified`).
 *
 * Only eligible judges are dealt a selfie (`judgeStanding`, `mayJudge`): an account 7 days old
 * or verified, with a public picture, whose answers have not kept differing from the outcomes,
 * who has no contact with the member, was not made from the member's address or device
 * (kv/origins.ts), and was not made in one registration burst with another judge of the selfie.
 * Selfies are dealt at random among those waiting. Three agreeing answers decide unless two of
 * the judges share an address or a device (where they were made or answer from): then the
 * admins decide, as they may any waiting selfie (audited).
 *
 * The selfie is a private blob (`identify-selfie:<attempt id>`, never a profile picture), served
 * only to a judge it was dealt to and to admins, and deleted when decided or withdrawn; what stays
 * is the outcome with its date and the selfie's perceptual hash (a 64-bit dHash, not the picture),
 * so the same selfie sent again, by anyone, is refused.
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { randomToken, shuffled } from "../ids.ts";
import { deleteBlob, getBlob, putBlob, type StoredBlob } from "../blobs.ts";
import { forgetCachedProfile, getProfile, isVerified, profileChanged } from "../profiles.ts";
import type { Profile } from "../../domain/shapes/profiles.ts";
import { getPics, readMaster } from "../pictures.ts";
import { blockedSet } from "../blocks.ts";
import { addNotification } from "../notifications.ts";
import { creditOps, creditState, getCredits } from "./credits.ts";
import { type Origin, originOf, type Place, sameBurst, samePlace } from "../origins.ts";
import { auditOp, type Moderator, SYSTEM } from "../audit.ts";
import { type JudgeFacts, judgeStanding, scoreJudge } from "./identifyJudges.ts";
import type { Credited } from "../../domain/shapes/games.ts";
import type { IdAdminItem, IdentifyStatus, JudgeDeal, JudgeItem } from "../../domain/shapes/identify.ts";
import {
  ATTEMPTS_PER_DAY,
  CHALLENGE_MS,
  hammingDistance,
  type IdAnswer,
  IDENTIFY_TEXTS,
  JUDGES_NEEDED,
  type PoseId,
  POSES,
  SAME_PICTURE_BITS,
} from "../../domain/identify.ts";

const DAY_MS = 24 * 3_600_000;
/** A selfie dealt to a judge may be seen and answered for this long. */
export const ASSIGNMENT_MS = 15 * 60_000;
/** The judges compare the selfie with at most this many of the member's public pictures. */
export const MAX_COMPARED_PICTURES = 6;

/** The pose a member must copy now. */
export interface Challenge {
  id: string;
  poseId: PoseId;
  expires: number;
}

/** A selfie being judged. */
export interface Attempt {
  id: string;
  profileId: string;
  poseId: PoseId;
  /** The public pictures the judges compare it with (the first ones when it was sent). */
  picIds: string[];
  tsCreated: number;
  /** OPEN: judges are asked; ESCALATED: an admin decides. */
  status: "OPEN" | "ESCALATED";
  /** Why it went to the admins: the judges disagreed, or agreeing judges share an address or device. */
  reason?: "DISAGREED" | "SHARED_PLACE";
  /** Where the member's account was made (hashed, kv/origins.ts): judges made there are not dealt it. */
  origin?: Origin | null;
  same: number;
  notSame: number;
  wrongPose: number;
}

/** What became of a selfie; the selfie itself is deleted. */
export interface Outcome {
  outcome: "VERIFIED" | "REJECTED" | "WITHDRAWN";
  ts: number;
  by: "JUDGES" | "ADMIN" | "MEMBER";
}

/** A judge's seat at a selfie (dealt or answered): who they are, as the burst check needs it. */
interface Seat {
  ts: number;
  /** When the judge's account was made, and where (hashed). */
  tsCreated: number;
  origin: Origin | null;
}

/** A judge's answer, with where it was given from (hashed): kept until the selfie is decided. */
interface StoredAnswer extends Seat {
  answer: IdAnswer;
  place?: Place;
}

const blobId = (attemptId: string) => `identify-selfie:${attemptId}`;
const today = () => Math.floor(now() / DAY_MS);

/** A member's standing: verified, lapsed, pending, attempts left today. */
export async function identifyStatus(profileId: string): Promise<IdentifyStatus> {
  const [profile, pending, count, last] = await Promise.all([
    getProfile(profileId),
    kv().get<string>(keys.idAttemptOf(profileId)),
    kv().get<number>(keys.idDayCount(profileId, today())),
    kv().list<Outcome>({ prefix: keys.idOutcomesOf(profileId) }, { reverse: true, limit: 1 }).next(),
  ]);
  const verified = !!profile && isVerified(profile);
  const lastOutcome = last.done ? null : last.value.value;
  return {
    verified,
    tsVerified: profile?.tsVerified ?? null,
    lapsed: !verified && !!profile?.verifiedPicIds?.length,
    pending: pending.value,
    lastRejected: lastOutcome?.outcome === "REJECTED" ? lastOutcome.ts : null,
    attemptsLeft: Math.max(0, ATTEMPTS_PER_DAY - (count.value ?? 0)),
    hasPicture: (profile?.profilePicIds.length ?? 0) > 0,
  };
}

export type ChallengeRefusal = "attempt_open" | "no_picture" | "daily_limit";

/**
 * A new random pose for `profileId` (a pose without hands when asked), replacing any challenge not
 * answered yet; refused while a selfie of theirs is judged, without a public picture, or after
 * ATTEMPTS_PER_DAY selfies today.
 */
export async function issueChallenge(
  profileId: string,
  noHands: boolean,
): Promise<{ ok: true; challenge: Challenge } | { ok: false; reason: ChallengeRefusal }> {
  const status = await identifyStatus(profileId);
  if (status.pending) return { ok: false, reason: "attempt_open" };
  if (!status.hasPicture) return { ok: false, reason: "no_picture" };
  if (status.attemptsLeft <= 0) return { ok: false, reason: "daily_limit" };
  const poses = POSES.filter((p) => !noHands || !p.hands);
  const pose = poses[crypto.getRandomValues(new Uint32Array(1))[0] % poses.length];
  const challenge: Challenge = { id: randomToken(18), poseId: pose.id, expires: now() + CHALLENGE_MS };
  await kv().set(keys.idChallenge(profileId), challenge, { expireIn: CHALLENGE_MS });
  return { ok: true, challenge };
}

export type SubmitRefusal =
  | ChallengeRefusal
  | "challenge_invalid"
  | "selfie_reused";

/**
 * The stored bytes of a member's pictures (master, or the prepared upload before the job), for
 * the route to hash: a selfie that is one of their own pictures is refused.
 */
export async function ownPictureBytes(profileId: string): Promise<Uint8Array[]> {
  const profile = await getProfile(profileId);
  const out: Uint8Array[] = [];
  for (const pic of await getPics([...(profile?.profilePicIds ?? []), ...(profile?.profilePicIdsPrivate ?? [])])) {
    const b = await readMaster(pic).catch(() => null);
    if (b) out.push(b.bytes);
  }
  return out;
}

/** Is a selfie with hash `hash` already known: sent before by anyone, or one of `own` (the member's pictures' hashes)? */
async function seenBefore(hash: bigint, own: readonly bigint[]): Promise<boolean> {
  if (own.some((h) => hammingDistance(h, hash) <= SAME_PICTURE_BITS)) return true;
  for await (const e of kv().list<string>({ prefix: keys.idSelfieHashesAll() }, { batchSize: 500 })) {
    if (hammingDistance(BigInt(`0x${e.value}`), hash) <= SAME_PICTURE_BITS) return true;
  }
  return false;
}

/**
 * Stores a selfie answering the member's live challenge, once: the challenge is taken in the same
 * atomic (a replay finds none). `picture` is already re-encoded without metadata and `hash` is its
 * perceptual hash (the route makes both: images/pipeline.ts); refused when `hash` is near one sent
 * before or one of `ownHashes`.
 */
export async function submitSelfie(
  profileId: string,
  challengeId: string,
  picture: { bytes: Uint8Array; type: string },
  hash: bigint,
  ownHashes: readonly bigint[],
): Promise<{ ok: true; attempt: Attempt } | { ok: false; reason: SubmitRefusal }> {
  const [challenge, status, profile] = await Promise.all([
    kv().get<Challenge>(keys.idChallenge(profileId)),
    identifyStatus(profileId),
    getProfile(profileId),
  ]);
  const c = challenge.value;
  const origin = profile ? await originOf(profile.accountId) : null;
  if (!c || c.id !== challengeId || c.expires < now()) return { ok: false, reason: "challenge_invalid" };
  if (status.pending) return { ok: false, reason: "attempt_open" };
  if (!profile || !status.hasPicture) return { ok: false, reason: "no_picture" };
  if (status.attemptsLeft <= 0) return { ok: false, reason: "daily_limit" };
  if (await seenBefore(hash, ownHashes)) {
    // A refused selfie uses up its challenge too: no second try at the same pose with another picture.
    await kv().atomic().check(challenge).delete(challenge.key).commit();
    return { ok: false, reason: "selfie_reused" };
  }
  const attempt: Attempt = {
    id: randomToken(18),
    profileId,
    poseId: c.poseId,
    picIds: profile.profilePicIds.slice(0, MAX_COMPARED_PICTURES),
    tsCreated: now(),
    status: "OPEN",
    same: 0,
    notSame: 0,
    wrongPose: 0,
    origin,
  };
  await putBlob(blobId(attempt.id), picture.bytes, { type: picture.type });
  const dayKey = keys.idDayCount(profileId, today());
  const count = await kv().get<number>(dayKey);
  const pending = await kv().get(keys.idAttemptOf(profileId));
  const res = await kv().atomic().check(challenge).check(count).check(pending)
    .delete(challenge.key)
    .set(keys.idAttempt(attempt.id), attempt)
    .set(keys.idAttemptOf(profileId), attempt.id)
    .set(dayKey, (count.value ?? 0) + 1, { expireIn: 2 * DAY_MS })
    .set(keys.idSelfieHash(profileId, attempt.id), hash.toString(16).padStart(16, "0"))
    .commit();
  if (!res.ok) {
    await deleteBlob(blobId(attempt.id));
    return { ok: false, reason: "challenge_invalid" };
  }
  return { ok: true, attempt };
}

/** A selfie being judged, or null. */
export async function getAttempt(attemptId: string): Promise<Attempt | null> {
  return (await kv().get<Attempt>(keys.idAttempt(attemptId))).value;
}

/** The selfie's bytes, for a judge it was dealt to or an admin (the route checks which). */
export function selfieBlob(attemptId: string): Promise<StoredBlob | null> {
  return getBlob(blobId(attemptId));
}

/** May `viewer` see `attemptId`'s selfie: an admin, or a judge it is dealt to now. */
export async function maySeeSelfie(viewer: string, attemptId: string, admin: boolean): Promise<boolean> {
  if (admin) return true;
  return (await kv().get(keys.idAssignment(attemptId, viewer))).versionstamp !== null;
}

/** A seat read back (deals stored before seats carried the judge's facts hold a number). */
const seatOf = (v: unknown): Seat | null => typeof v === "object" && v !== null && "tsCreated" in v ? v as Seat : null;

/**
 * May `judge` judge a selfie of `member`: not their own, nobody blocked either way, no chat
 * between them, no like of either's profile, no like of the compared pictures by the judge; the
 * judge's account not made from the member's address or device; and (`seats`) not made in one
 * registration burst with another judge dealt or answering this selfie.
 */
async function mayJudge(
  judge: string,
  facts: JudgeFacts,
  a: Attempt,
  blocked: Set<string>,
  seats: boolean,
): Promise<boolean> {
  const member = a.profileId;
  if (member === judge || blocked.has(member)) return false;
  if (samePlace(facts.origin, a.origin)) return false;
  const entries = await kv().getMany([
    keys.chat(judge, member),
    keys.chat(member, judge),
    keys.profileLike(judge, member),
    keys.profileLike(member, judge),
    ...a.picIds.slice(0, 6).map((p) => keys.picLike(judge, p)),
  ]);
  if (!entries.every((e) => e.versionstamp === null)) return false;
  if (!seats) return true;
  for (const prefix of [keys.idAnswersOf(a.id), keys.idAssignmentsOf(a.id)]) {
    for await (const e of kv().list<unknown>({ prefix })) {
      const other = seatOf(e.value);
      if (e.key[2] !== judge && other && sameBurst(facts, other)) return false;
    }
  }
  return true;
}

/** How many waiting selfies a deal checks at once. */
const DEAL_CHECKS_AT_ONCE = 16;

const judgeItem = (a: Attempt): JudgeItem => ({ attemptId: a.id, poseId: a.poseId, pictures: a.picIds.length });

/**
 * A selfie for `judge`: the one dealt to them still (asking again deals the same one, so no
 * judge can ask until a chosen selfie comes up), else one picked at random among the open
 * selfies they may judge and have not answered, dealt to them for ASSIGNMENT_MS (only then may
 * they see it). No item when none waits for them; no item and why when they may not judge.
 */
export async function nextJudgeItem(judge: string): Promise<JudgeDeal> {
  const standing = await judgeStanding(judge);
  if (!standing.ok) return { item: null, why: standing.why, judgeFrom: standing.judgeFrom };
  const held = (await kv().get<string>(keys.idDealtTo(judge))).value;
  if (held) {
    const [a, seat, mine] = await Promise.all([
      getAttempt(held),
      kv().get(keys.idAssignment(held, judge)),
      kv().get(keys.idAnswer(held, judge)),
    ]);
    if (a?.status === "OPEN" && seat.versionstamp !== null && mine.versionstamp === null) {
      return { item: judgeItem(a), why: null, judgeFrom: null };
    }
  }
  const blocked = await blockedSet(judge);
  const open: Attempt[] = [];
  for await (const e of kv().list<Attempt>({ prefix: keys.idAttemptsAll() }, { limit: 1000 })) {
    if (e.value.status === "OPEN") open.push(e.value);
  }
  const order = shuffled(open);
  // Checked a few at a time, in the random order: the first that fits is dealt.
  for (let i = 0; i < order.length; i += DEAL_CHECKS_AT_ONCE) {
    const batch = order.slice(i, i + DEAL_CHECKS_AT_ONCE);
    const fits = await Promise.all(
      batch.map(async (a) =>
        (await kv().get(keys.idAnswer(a.id, judge))).versionstamp === null &&
        await mayJudge(judge, standing.facts, a, blocked, true)
      ),
    );
    const a = batch[fits.indexOf(true)];
    if (!a) continue;
    const seat: Seat = { ts: now(), tsCreated: standing.facts.tsCreated, origin: standing.facts.origin };
    await kv().atomic()
      .set(keys.idAssignment(a.id, judge), seat, { expireIn: ASSIGNMENT_MS })
      .set(keys.idDealtTo(judge), a.id, { expireIn: ASSIGNMENT_MS })
      .commit();
    return { item: judgeItem(a), why: null, judgeFrom: null };
  }
  return { item: null, why: null, judgeFrom: null };
}

/** Do any two of these judges share an address or device: where their accounts were made, or where they answered from? */
function judgesSharePlace(judges: StoredAnswer[]): boolean {
  for (let i = 0; i < judges.length; i++) {
    for (let j = i + 1; j < judges.length; j++) {
      const [x, y] = [judges[i], judges[j]];
      if (samePlace(x.origin, y.origin)) return true;
      if (x.place && y.place) {
        if (x.place.addr === y.place.addr) return true;
        if (x.place.device && x.place.device === y.place.device) return true;
      }
    }
  }
  return false;
}

export type AnswerResult =
  | ({ ok: true; status: "OPEN" | "ESCALATED" | "DECIDED" } & Credited)
  | { ok: false; reason: "not_assigned" | "answered" | "closed" | "not_eligible" };

/**
 * A judge's answer on a selfie dealt to them, once, with its credit in one atomic; `place` is
 * where it is given from (hashed). The judge must still be eligible. The third answer decides
 * when all three agree (SAME: verified; otherwise refused) and no two of the three judges share
 * an address or device; else the selfie goes to the admins (a shared place is audited).
 */
export async function answerAttempt(
  judge: string,
  attemptId: string,
  answer: IdAnswer,
  place: Place,
): Promise<AnswerResult> {
  const standing = await judgeStanding(judge);
  for (let i = 0; i < 10; i++) {
    const [assignment, mine, entry, credit] = await Promise.all([
      kv().get(keys.idAssignment(attemptId, judge)),
      kv().get(keys.idAnswer(attemptId, judge)),
      kv().get<Attempt>(keys.idAttempt(attemptId)),
      creditState(judge),
    ]);
    if (mine.versionstamp !== null) return { ok: false, reason: "answered" };
    if (assignment.versionstamp === null) return { ok: false, reason: "not_assigned" };
    const a = entry.value;
    if (!a || a.status !== "OPEN") return { ok: false, reason: "closed" };
    if (!standing.ok || !(await mayJudge(judge, standing.facts, a, await blockedSet(judge), false))) {
      return { ok: false, reason: "not_eligible" };
    }
    const mineNow: StoredAnswer = {
      answer,
      ts: now(),
      tsCreated: standing.facts.tsCreated,
      origin: standing.facts.origin,
      place,
    };
    const next: Attempt = {
      ...a,
      same: a.same + (answer === "SAME" ? 1 : 0),
      notSame: a.notSame + (answer === "NOT_SAME" ? 1 : 0),
      wrongPose: a.wrongPose + (answer === "WRONG_POSE" ? 1 : 0),
    };
    const total = next.same + next.notSame + next.wrongPose;
    let agreed = Math.max(next.same, next.notSame, next.wrongPose) >= JUDGES_NEEDED;
    let shared = false;
    if (agreed) {
      // The other answers are read under the attempt's check: another answer changes the attempt.
      const answers: StoredAnswer[] = [mineNow];
      for await (const e of kv().list<StoredAnswer>({ prefix: keys.idAnswersOf(attemptId) })) answers.push(e.value);
      shared = judgesSharePlace(answers);
      agreed = !shared;
    }
    if (total >= JUDGES_NEEDED && !agreed) {
      next.status = "ESCALATED";
      next.reason = shared ? "SHARED_PLACE" : "DISAGREED";
    }
    const op = kv().atomic().check(mine).check(entry)
      .set(keys.idAnswer(attemptId, judge), mineNow)
      .delete(keys.idAssignment(attemptId, judge))
      .delete(keys.idDealtTo(judge))
      .set(keys.idAttempt(attemptId), next);
    if (shared) {
      auditOp(
        op,
        SYSTEM,
        "IDENTIFY_TO_ADMINS",
        a.profileId,
        `selfie ${attemptId}`,
        "agreeing judges share an address or device",
      );
    }
    const credited = creditOps(op, credit);
    if (!(await op.commit()).ok) continue;
    const credits = await getCredits(judge);
    if (agreed) {
      await decideAttempt(attemptId, next.same >= JUDGES_NEEDED ? "VERIFIED" : "REJECTED", "JUDGES");
      return { ok: true, status: "DECIDED", credited, credits };
    }
    return { ok: true, status: next.status, credited, credits };
  }
  throw new Error("identify answer kept conflicting");
}

/**
 * Closes a selfie: the outcome with its date is kept, the member told, the judges' agreement
 * counted (not for a withdrawal), and the selfie, its answers and its deals deleted. VERIFIED
 * records the compared pictures on the profile. An admin's decision (`admin`: who, and their
 * answer) is written to the audit log in the same atomic. False when it was already closed.
 */
export async function decideAttempt(
  attemptId: string,
  outcome: Outcome["outcome"],
  by: Outcome["by"],
  admin?: { who: Moderator; answer: IdAnswer },
): Promise<boolean> {
  for (let i = 0; i < 10; i++) {
    const entry = await kv().get<Attempt>(keys.idAttempt(attemptId));
    const a = entry.value;
    if (!a) return false;
    const profile = await kv().get<Profile>(keys.profile(a.profileId));
    const op = kv().atomic().check(entry).check(profile)
      .delete(entry.key)
      .delete(keys.idAttemptOf(a.profileId))
      .set(keys.idOutcome(a.profileId, attemptId), { outcome, ts: now(), by } satisfies Outcome);
    if (outcome === "VERIFIED" && profile.value) {
      op.set(profile.key, { ...profile.value, verifiedPicIds: a.picIds, tsVerified: now() });
      profileChanged(op, a.profileId);
    }
    if (admin) {
      const why = a.status === "ESCALATED"
        ? (a.reason === "SHARED_PLACE" ? "judges share an address or device" : "judges disagreed")
        : "waiting for judges";
      auditOp(
        op,
        admin.who,
        outcome === "VERIFIED" ? "IDENTIFY_VERIFIED" : "IDENTIFY_REJECTED",
        a.profileId,
        `selfie ${attemptId}; ${why}; judges ${a.same} same, ${a.notSame} not the same, ${a.wrongPose} wrong pose`,
        admin.answer,
      );
    }
    if (by !== "MEMBER") {
      addNotification(op, a.profileId, {
        bodyText: outcome === "VERIFIED" ? IDENTIFY_TEXTS.notifyVerified : IDENTIFY_TEXTS.notifyRejected,
        url: "/games/identify",
      });
    }
    if (!(await op.commit()).ok) continue;
    forgetCachedProfile(a.profileId);
    const answers: [Deno.KvKey, IdAnswer][] = [];
    for await (const e of kv().list<{ answer: IdAnswer }>({ prefix: keys.idAnswersOf(attemptId) })) {
      answers.push([e.key, e.value.answer]);
    }
    if (by !== "MEMBER") {
      for (const [key, answer] of answers) {
        await scoreJudge(key[2] as string, (answer === "SAME") === (outcome === "VERIFIED"));
      }
    }
    const rest: Deno.KvKey[] = answers.map(([k]) => k);
    for await (const e of kv().list({ prefix: keys.idAssignmentsOf(attemptId) })) rest.push(e.key);
    for (let j = 0; j < rest.length; j += 100) {
      const del = kv().atomic();
      for (const k of rest.slice(j, j + 100)) del.delete(k);
      await del.commit();
    }
    await deleteBlob(blobId(attemptId));
    return true;
  }
  throw new Error("identify decision kept conflicting");
}

/** The member withdraws their selfie being judged: it is deleted at once. False when none. */
export async function withdrawAttempt(profileId: string): Promise<boolean> {
  const pending = (await kv().get<string>(keys.idAttemptOf(profileId))).value;
  return pending ? await decideAttempt(pending, "WITHDRAWN", "MEMBER") : false;
}

/**
 * The selfies an admin may decide: those sent to the admins first, then those still with the
 * judges (in a new community no judge is eligible yet), oldest first.
 */
export async function adminQueue(limit = 100): Promise<Attempt[]> {
  const out: Attempt[] = [];
  for await (const e of kv().list<Attempt>({ prefix: keys.idAttemptsAll() }, { limit: 1000 })) out.push(e.value);
  return out.sort((a, b) =>
    (a.status === "ESCALATED" ? 0 : 1) - (b.status === "ESCALATED" ? 0 : 1) || a.tsCreated - b.tsCreated
  ).slice(0, limit);
}

/** A moderation action ends a member's verification (they verify again once it is over). */
export async function endVerification(profileId: string): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const e = await kv().get<Profile>(keys.profile(profileId));
    if (!e.value || (!e.value.verifiedPicIds && e.value.tsVerified === undefined)) return;
    const { verifiedPicIds: _v, tsVerified: _t, ...rest } = e.value;
    const op = kv().atomic().check(e).set(e.key, rest);
    profileChanged(op, profileId);
    if ((await op.commit()).ok) {
      forgetCachedProfile(profileId);
      return;
    }
  }
}

/** Does `profileId` accept messages only from verified members? */
export async function onlyVerifiedMessages(profileId: string): Promise<boolean> {
  return (await kv().get(keys.idOnlyVerified(profileId))).value === true;
}

/** Sets "Only verified members can message me". */
export async function setOnlyVerifiedMessages(profileId: string, on: boolean): Promise<void> {
  if (on) await kv().set(keys.idOnlyVerified(profileId), true);
  else await kv().delete(keys.idOnlyVerified(profileId));
}

/** A member's outcomes, for their data export (never the selfies: they are deleted). */
export async function listOutcomes(profileId: string): Promise<(Outcome & { attemptId: string })[]> {
  const out: (Outcome & { attemptId: string })[] = [];
  for await (const e of kv().list<Outcome>({ prefix: keys.idOutcomesOf(profileId) })) {
    out.push({ attemptId: e.key[2] as string, ...e.value });
  }
  return out;
}

/** A selfie as the admins' queue shows it: the member's id stays on the server. */
export function adminView(a: Attempt): IdAdminItem {
  return {
    attemptId: a.id,
    poseId: a.poseId,
    pictures: a.picIds.length,
    status: a.status,
    escalation: a.status === "ESCALATED" ? a.reason ?? "DISAGREED" : null,
    same: a.same,
    notSame: a.notSame,
    wrongPose: a.wrongPose,
    tsCreated: a.tsCreated,
  };
}
