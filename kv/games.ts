/**
 * Community games (design.md): volunteer credits, GPT Buster, The Rating Game, Community
 * Arbitration and Help my Photos. A credit is a `Deno.KvU64` sum written in the same atomic as the
 * judgement that earns it (Nice or Meh, a vote, a crop suggestion its owner used; never a Skip or
 * a suggestion alone), at most CREDITS_PER_DAY a UTC day per member; an action past the cap still
 * counts, it just earns nothing. A credit that leaves a member with VOLUNTEER_CREDITS or more over
 * the last VOLUNTEER_WINDOW_DAYS grants them the VOLUNTEER role for VOLUNTEER_ROLE_DAYS from then,
 * in the same atomic (kv/roles.ts).
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import type { Profile } from "./profiles.ts";
import { type ProfileBrief, profileBriefs } from "./briefs.ts";
import { blockedSet } from "./blocks.ts";
import { listReports, type Report } from "./reports.ts";
import { newId } from "./ids.ts";
import { addNotification } from "./notifications.ts";
import { getProfile } from "./profiles.ts";
import { activeGrant, grantRoleOps } from "./roles.ts";
import type { CropBox } from "../images/pipeline.ts";
import { VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "../domain/games.ts";
import { NOTIFICATION_TEXTS } from "../domain/notifications.ts";

/** At most this many volunteer credits a day per member. */
export const CREDITS_PER_DAY = 20;
const DAY_MS = 24 * 60 * 60_000;

/** A GPT Buster verdict: the text is a human's, or machine-written / fake. */
export const GPT_VERDICTS = ["HUMAN", "MACHINE"] as const;
export type GptVerdict = typeof GPT_VERDICTS[number];
/** A profile is flagged for admins with at least this many votes and this share of MACHINE. */
export const FLAG_MIN_VOTES = 5;
export const FLAG_MACHINE_SHARE = 0.7;

/** A Community Arbitration verdict. */
export const ARB_VERDICTS = ["VIOLATION", "NO_VIOLATION"] as const;
export type ArbVerdict = typeof ARB_VERDICTS[number];
/** An admin's decision on a report. */
export const ARB_DECISIONS = ["CONFIRM", "DISMISS"] as const;
export type ArbDecision = typeof ARB_DECISIONS[number];

export interface GptTally {
  human: number;
  machine: number;
}

export interface ArbCase {
  violation: number;
  noViolation: number;
  status: "OPEN" | "CONFIRMED" | "DISMISSED";
  decidedBy?: string;
  tsDecided?: number;
}

const EMPTY_CASE: ArbCase = { violation: 0, noViolation: 0, status: "OPEN" };

/** What a game action answers: whether it earned a credit and the member's credits now. */
export interface Credited {
  credited: boolean;
  credits: number;
}

/** A member's volunteer credits. */
export async function getCredits(profileId: string): Promise<number> {
  return Number((await kv().get<Deno.KvU64>(keys.gameCredits(profileId))).value?.value ?? 0n);
}

/** A member's credit counters, read before an action's atomic. */
export interface CreditState {
  profileId: string;
  day: number;
  /** Today's counter: checked by the atomic, so two actions at once count one after the other. */
  today: Deno.KvEntryMaybe<number>;
  /** The credits of the window's earlier days (they no longer change). */
  earlier: number;
  /** The member's account, read only when this credit would reach the volunteer threshold. */
  accountId: string | null;
}

/** The per-day counters of the volunteer window, today first. */
async function windowCounts(profileId: string, day: number): Promise<Deno.KvEntryMaybe<number>[]> {
  const dayKeys = Array.from({ length: VOLUNTEER_WINDOW_DAYS }, (_, i) => keys.gameCreditsDay(profileId, day - i));
  const batches = [];
  for (let i = 0; i < dayKeys.length; i += 10) batches.push(kv().getMany<number[]>(dayKeys.slice(i, i + 10)));
  return (await Promise.all(batches)).flat();
}

/** Reads what a credit of `profileId` needs: today's counter, the window's earlier days, the account. */
export async function creditState(profileId: string): Promise<CreditState> {
  const day = Math.floor(now() / DAY_MS);
  const [today, ...rest] = await windowCounts(profileId, day);
  const earlier = rest.reduce((sum, e) => sum + (e.value ?? 0), 0);
  const n = today.value ?? 0;
  const reaches = n < CREDITS_PER_DAY && earlier + n + 1 >= VOLUNTEER_CREDITS;
  const accountId = reaches ? (await getProfile(profileId))?.accountId ?? null : null;
  return { profileId, day, today, earlier, accountId };
}

/**
 * Adds the credit to `op` (checked against today's counter); false when today's cap is reached.
 * When the window then holds VOLUNTEER_CREDITS or more, the VOLUNTEER role is granted (or its
 * grant renewed) for VOLUNTEER_ROLE_DAYS from now, in the same atomic.
 */
export function creditOps(op: Deno.AtomicOperation, s: CreditState): boolean {
  const n = s.today.value ?? 0;
  op.check(s.today);
  if (n >= CREDITS_PER_DAY) return false;
  // A day's counter is read for the whole window, so it lives a day longer than the window.
  op.set(keys.gameCreditsDay(s.profileId, s.day), n + 1, { expireIn: (VOLUNTEER_WINDOW_DAYS + 1) * DAY_MS })
    .sum(keys.gameCredits(s.profileId), 1n);
  if (s.accountId && s.earlier + n + 1 >= VOLUNTEER_CREDITS) {
    grantRoleOps(op, s.accountId, "VOLUNTEER", now() + VOLUNTEER_ROLE_DAYS * DAY_MS);
  }
  return true;
}

/** Where a member stands toward the volunteer role. */
export interface VolunteerStatus {
  /** All volunteer credits ever earned. */
  credits: number;
  /** Credits earned in the last VOLUNTEER_WINDOW_DAYS UTC days, today included. */
  recentCredits: number;
  /** VOLUNTEER_CREDITS. */
  threshold: number;
  /** Credits still needed in the window (0 once reached). */
  toGo: number;
  /** When the earned VOLUNTEER role ends; null when none is granted now. */
  volunteerUntil: number | null;
}

/** A member's credits, those of the volunteer window, and their earned VOLUNTEER role's end. */
export async function volunteerStatus(profileId: string, accountId: string): Promise<VolunteerStatus> {
  const [credits, counts, grant] = await Promise.all([
    getCredits(profileId),
    windowCounts(profileId, Math.floor(now() / DAY_MS)),
    activeGrant(accountId, "VOLUNTEER"),
  ]);
  const recentCredits = counts.reduce((sum, e) => sum + (e.value ?? 0), 0);
  return {
    credits,
    recentCredits,
    threshold: VOLUNTEER_CREDITS,
    toGo: Math.max(0, VOLUNTEER_CREDITS - recentCredits),
    volunteerUntil: grant?.until ?? null,
  };
}

// --- GPT Buster

/** Is a tally flagged: enough votes and mostly 'Machine or fake'? */
export function isFlagged(t: GptTally): boolean {
  const total = t.human + t.machine;
  return total >= FLAG_MIN_VOTES && t.machine / total >= FLAG_MACHINE_SHARE;
}

/** The community tally of a profile's text. */
export async function gptTally(profileId: string): Promise<GptTally> {
  return (await kv().get<GptTally>(keys.gptTally(profileId))).value ?? { human: 0, machine: 0 };
}

/** A profile text to judge. */
export interface GptItem {
  profileId: string;
  profileName: string;
  profileAge: number | null;
  picId: string | null;
  description: string;
}

async function profilesOf(ids: readonly string[]): Promise<Map<string, Profile>> {
  const out = new Map<string, Profile>();
  for (let i = 0; i < ids.length; i += 10) {
    const entries = await kv().getMany<Profile[]>(ids.slice(i, i + 10).map(keys.profile));
    for (const e of entries) if (e.value) out.set(e.value.id, e.value);
  }
  return out;
}

async function nearbyBriefs(viewer: string, pages: number): Promise<ProfileBrief[]> {
  const out: ProfileBrief[] = [];
  for (let page = 0; page < pages; page++) {
    const r = await profileBriefs(viewer, { kind: "nearest" }, { page, size: 30 });
    out.push(...r.items);
    if (!r.hasMore) break;
  }
  return out;
}

/**
 * The nearest member's profile text `viewer` has not judged: a non-empty description, not the
 * viewer's own, nobody blocked either way (profileBriefs leaves those out). Null when none.
 */
export async function nextGptItem(viewer: string): Promise<GptItem | null> {
  const briefs = await nearbyBriefs(viewer, 5);
  for (let i = 0; i < briefs.length; i += 10) {
    const batch = briefs.slice(i, i + 10);
    const [profiles, votes] = await Promise.all([
      profilesOf(batch.map((b) => b.profileId)),
      kv().getMany(batch.map((b) => keys.gptVote(b.profileId, viewer))),
    ]);
    for (const [j, b] of batch.entries()) {
      const p = profiles.get(b.profileId);
      if (!p || !p.description.trim() || votes[j].versionstamp !== null) continue;
      return {
        profileId: p.id,
        profileName: p.profilename,
        profileAge: b.profileAge,
        picId: p.profilePicIds[0] ?? null,
        description: p.description,
      };
    }
  }
  return null;
}

/** Stores `voter`'s verdict on `profileId` once, with the tally, the flag and the credit in one atomic. */
export async function castGptVote(
  voter: string,
  profileId: string,
  verdict: GptVerdict,
): Promise<({ ok: true; tally: GptTally } & Credited) | { ok: false }> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const [vote, tallyEntry, credit] = await Promise.all([
      kv().get(keys.gptVote(profileId, voter)),
      kv().get<GptTally>(keys.gptTally(profileId)),
      creditState(voter),
    ]);
    if (vote.versionstamp !== null) return { ok: false };
    const old = tallyEntry.value ?? { human: 0, machine: 0 };
    const tally = verdict === "HUMAN" ? { ...old, human: old.human + 1 } : { ...old, machine: old.machine + 1 };
    const op = kv().atomic().check(vote).check(tallyEntry)
      .set(keys.gptVote(profileId, voter), { verdict, ts: now() })
      .set(keys.gptTally(profileId), tally);
    if (isFlagged(tally)) op.set(keys.gptFlagged(profileId), tally);
    else op.delete(keys.gptFlagged(profileId));
    const credited = creditOps(op, credit);
    if ((await op.commit()).ok) return { ok: true, tally, credited, credits: await getCredits(voter) };
  }
  throw new Error("GPT Buster vote kept conflicting");
}

/** The flagged profiles with their tallies, for admins. */
export async function listGptFlagged(limit = 200): Promise<(GptTally & { profileId: string; profileName: string })[]> {
  const rows: (GptTally & { profileId: string })[] = [];
  for await (const e of kv().list<GptTally>({ prefix: keys.gptFlaggedAll() }, { limit })) {
    rows.push({ profileId: e.key[1] as string, ...e.value });
  }
  const profiles = await profilesOf(rows.map((r) => r.profileId));
  return rows.filter((r) => profiles.has(r.profileId))
    .map((r) => ({ ...r, profileName: profiles.get(r.profileId)!.profilename }));
}

// --- The Rating Game

/** A picture in the rating deck. */
export interface RatingCard {
  picId: string;
  profileId: string;
  profileName: string;
}

/** Nearby members' public pictures `viewer` has not rated in the game, nearest first. */
export function ratingDeck(viewer: string, max = 30): Promise<RatingCard[]> {
  return nearbyPictures(viewer, max, (picId) => keys.ratingPlay(viewer, picId));
}

/** Nearby members' public pictures, nearest first, without those whose `doneKey` exists. */
async function nearbyPictures(
  viewer: string,
  max: number,
  doneKey: (picId: string) => Deno.KvKey,
): Promise<RatingCard[]> {
  const briefs = await nearbyBriefs(viewer, 3);
  const cards = briefs.flatMap((b) =>
    b.profilePicIds.map((picId) => ({ picId, profileId: b.profileId, profileName: b.profileName }))
  );
  const out: RatingCard[] = [];
  for (let i = 0; i < cards.length && out.length < max; i += 10) {
    const batch = cards.slice(i, i + 10);
    const done = await kv().getMany(batch.map((c) => doneKey(c.picId)));
    batch.forEach((c, j) => done[j].versionstamp === null && out.push(c));
  }
  return out.slice(0, max);
}

/** The game's record of a picture passed: judged (Nice or Meh) or only skipped; a number is a judgement from before. */
type RatingPlay = { ts: number; judged: boolean } | number;

const wasJudged = (p: RatingPlay | null) => p !== null && (typeof p === "number" || p.judged);

/**
 * Adds the game's record of a rating to `op` (checked) and, for the first judgement of the
 * picture, its credit: a Skip only records the picture as passed (it leaves the deck) and earns
 * nothing; Nice or Meh earns one credit per picture, even after a Skip. True when credited.
 */
function ratingOps(
  op: Deno.AtomicOperation,
  viewer: string,
  picId: string,
  judged: boolean,
  played: Deno.KvEntryMaybe<RatingPlay>,
  credit: CreditState,
): boolean {
  op.check(played);
  if (wasJudged(played.value) || (!judged && played.value !== null)) return false;
  op.set(keys.ratingPlay(viewer, picId), { ts: now(), judged } satisfies RatingPlay);
  return judged && creditOps(op, credit);
}

/**
 * The Rating Game's record of `viewer` rating `picId` (`judged`: Nice or Meh, not Skip) and its
 * credit, as writes for the picture like's own atomic (`putPicLike`'s `alongside`): read afresh
 * on every attempt, and checked, so a picture earns a credit once. `result` tells what the
 * committed attempt did.
 */
export function ratingWrites(viewer: string, picId: string, judged: boolean) {
  const result = { credited: false };
  const prepare = async () => {
    const [played, credit] = await Promise.all([
      kv().get<RatingPlay>(keys.ratingPlay(viewer, picId)),
      creditState(viewer),
    ]);
    return (op: Deno.AtomicOperation) => {
      result.credited = ratingOps(op, viewer, picId, judged, played, credit);
    };
  };
  return { prepare, result };
}

/**
 * Records that `viewer` rated `picId` in the game, with its credit in one atomic, when the rating
 * wrote no like (the same like again): the same rules as `ratingWrites`.
 */
export async function creditRating(viewer: string, picId: string, judged: boolean): Promise<Credited> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const [played, credit] = await Promise.all([
      kv().get<RatingPlay>(keys.ratingPlay(viewer, picId)),
      creditState(viewer),
    ]);
    if (wasJudged(played.value) || (!judged && played.value !== null)) {
      return { credited: false, credits: await getCredits(viewer) };
    }
    const op = kv().atomic();
    const credited = ratingOps(op, viewer, picId, judged, played, credit);
    if ((await op.commit()).ok) return { credited, credits: await getCredits(viewer) };
  }
  throw new Error("rating credit kept conflicting");
}

// --- Community Arbitration

/** A report's tally and status (an unvoted report is open with no votes). */
export async function arbCase(reportId: string): Promise<ArbCase> {
  return (await kv().get<ArbCase>(keys.arbCase(reportId))).value ?? EMPTY_CASE;
}

/** An open report a juror may judge. */
export interface ArbItem {
  /** Never the reporter: a juror sees what was reported, not who reported it. */
  report: Pick<Report, "id" | "reason" | "text" | "tsCreated">;
  reported: { profileId: string; profileName: string; description: string; picId: string | null };
}

/** May `juror` judge `report`: not its reporter, not the reported member, no block with either. */
export function mayJudge(juror: string, report: Report, blocked: Set<string>): boolean {
  return juror !== report.reporterProfileId && juror !== report.reportedProfileId &&
    !blocked.has(report.reportedProfileId) && !blocked.has(report.reporterProfileId);
}

/** The oldest open report `juror` may judge and has not voted on, or null. */
export async function nextArbItem(juror: string): Promise<ArbItem | null> {
  const blocked = await blockedSet(juror);
  const reports = (await listReports(undefined, 500)).reverse().filter((r) => mayJudge(juror, r, blocked));
  for (let i = 0; i < reports.length; i += 5) {
    const batch = reports.slice(i, i + 5);
    const entries = await kv().getMany([
      ...batch.map((r) => keys.arbCase(r.id)),
      ...batch.map((r) => keys.arbVote(r.id, juror)),
    ]);
    for (const [j, r] of batch.entries()) {
      const c = entries[j].value as ArbCase | null;
      if ((c && c.status !== "OPEN") || entries[batch.length + j].versionstamp !== null) continue;
      const p = (await kv().get<Profile>(keys.profile(r.reportedProfileId))).value;
      if (!p) continue;
      return {
        report: { id: r.id, reason: r.reason, text: r.text, tsCreated: r.tsCreated },
        reported: {
          profileId: p.id,
          profileName: p.profilename,
          description: p.description,
          picId: p.profilePicIds[0] ?? null,
        },
      };
    }
  }
  return null;
}

export type ArbVoteResult =
  | ({ ok: true; case: ArbCase } & Credited)
  | { ok: false; reason: "voted" | "closed" };

/** Stores a juror's verdict once, with the tally and the credit in one atomic; a closed report takes none. */
export async function castArbVote(juror: string, reportId: string, verdict: ArbVerdict): Promise<ArbVoteResult> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const [vote, caseEntry, credit] = await Promise.all([
      kv().get(keys.arbVote(reportId, juror)),
      kv().get<ArbCase>(keys.arbCase(reportId)),
      creditState(juror),
    ]);
    if (vote.versionstamp !== null) return { ok: false, reason: "voted" };
    const old = caseEntry.value ?? EMPTY_CASE;
    if (old.status !== "OPEN") return { ok: false, reason: "closed" };
    const next = verdict === "VIOLATION"
      ? { ...old, violation: old.violation + 1 }
      : { ...old, noViolation: old.noViolation + 1 };
    const op = kv().atomic().check(vote).check(caseEntry)
      .set(keys.arbVote(reportId, juror), { verdict, ts: now() })
      .set(keys.arbCase(reportId), next);
    const credited = creditOps(op, credit);
    if ((await op.commit()).ok) return { ok: true, case: next, credited, credits: await getCredits(juror) };
  }
  throw new Error("arbitration vote kept conflicting");
}

/** An admin confirms or dismisses an open report, which closes it; null when already closed. */
export async function decideReport(reportId: string, admin: string, decision: ArbDecision): Promise<ArbCase | null> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv().get<ArbCase>(keys.arbCase(reportId));
    const old = entry.value ?? EMPTY_CASE;
    if (old.status !== "OPEN") return null;
    const next: ArbCase = {
      ...old,
      status: decision === "CONFIRM" ? "CONFIRMED" : "DISMISSED",
      decidedBy: admin,
      tsDecided: now(),
    };
    if ((await kv().atomic().check(entry).set(keys.arbCase(reportId), next).commit()).ok) return next;
  }
  throw new Error("report decision kept conflicting");
}

/** A report as admins see it: with both names (null when a profile is gone), its tally and status. */
export type ReportCase = Report & { reporterName: string | null; reportedName: string | null; case: ArbCase };

/** Reports with their tallies and status, newest first, for admins. */
export async function listReportCases(limit = 100): Promise<ReportCase[]> {
  const reports = await listReports(undefined, limit);
  const names = await profilesOf([...new Set(reports.flatMap((r) => [r.reporterProfileId, r.reportedProfileId]))]);
  const out: ReportCase[] = [];
  for (let i = 0; i < reports.length; i += 10) {
    const batch = reports.slice(i, i + 10);
    const entries = await kv().getMany<ArbCase[]>(batch.map((r) => keys.arbCase(r.id)));
    batch.forEach((r, j) =>
      out.push({
        ...r,
        reporterName: names.get(r.reporterProfileId)?.profilename ?? null,
        reportedName: names.get(r.reportedProfileId)?.profilename ?? null,
        case: entries[j].value ?? EMPTY_CASE,
      })
    );
  }
  return out;
}

/** A stored report by id, or null. */
export async function getReport(id: string): Promise<Report | null> {
  return (await kv().get<Report>(keys.report(id))).value;
}

// --- Help my Photos

/** A suggested crop as fractions of the picture as it is now (its current generation). */
export interface CropFractions {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The crop aspect (width / height in pixels) of every picture, as in the editor. */
export const CROP_ASPECT = 0.8;
/** A suggestion keeps at least this share of the picture's width or height. */
export const MIN_CROP_SHARE = 0.25;

/** A crop suggestion for a picture, shown to its owner without the suggester. */
export interface CropSuggestion {
  id: string;
  picId: string;
  ownerProfileId: string;
  suggesterProfileId: string;
  /** The generation the suggestion was made on: a newer crop makes it stale. */
  gen: string;
  /** The picture's pixel size in that generation. */
  width: number;
  height: number;
  box: CropFractions;
  tsCreated: number;
}

/** A picture to suggest a crop for. */
export interface CropItem {
  picId: string;
  profileId: string;
  profileName: string;
  width: number;
  height: number;
  gen: string;
}

/**
 * Why a box is refused (null: fine): inside the picture, at least MIN_CROP_SHARE of one side,
 * and at the crop aspect within 2% in pixels of a `width` × `height` picture.
 */
export function cropProblem(b: CropFractions, width: number, height: number): string | null {
  if (b.x < 0 || b.y < 0 || b.x + b.width > 1.0001 || b.y + b.height > 1.0001) {
    return "The box must lie inside the picture.";
  }
  if (Math.max(b.width, b.height) < MIN_CROP_SHARE) return "The box is too small.";
  const aspect = (b.width * width) / (b.height * height);
  if (Math.abs(aspect / CROP_ASPECT - 1) > 0.02) return `The box must be ${CROP_ASPECT * 5}:5 (portrait).`;
  return null;
}

/** The nearest public picture `viewer` has not suggested a crop for (nor skipped on this page). */
export async function nextCropItem(viewer: string, skip: ReadonlySet<string> = new Set()): Promise<CropItem | null> {
  const deck = (await nearbyPictures(viewer, 10 + skip.size, (picId) => keys.cropSuggested(viewer, picId)))
    .filter((c) => !skip.has(c.picId)).slice(0, 10);
  const pics = await kv().getMany<{ width: number; height: number; gen: string }[]>(deck.map((c) => keys.pic(c.picId)));
  for (const [j, c] of deck.entries()) {
    const pic = pics[j].value;
    if (pic) return { ...c, width: pic.width, height: pic.height, gen: pic.gen };
  }
  return null;
}

/**
 * Stores a suggestion once per suggester and picture, with the owner's notification, in one
 * atomic; null if already made. A suggestion earns nothing until its owner uses it
 * (`acceptCropSuggestion`).
 */
export async function suggestCrop(
  suggester: string,
  owner: string,
  pic: { id: string; gen: string; width: number; height: number },
  box: CropFractions,
): Promise<(Credited & { suggestion: CropSuggestion }) | null> {
  const picId = pic.id;
  const s: CropSuggestion = {
    id: newId(),
    picId,
    ownerProfileId: owner,
    suggesterProfileId: suggester,
    gen: pic.gen,
    width: pic.width,
    height: pic.height,
    box,
    tsCreated: now(),
  };
  for (let attempt = 0; attempt < 10; attempt++) {
    const done = await kv().get(keys.cropSuggested(suggester, picId));
    if (done.versionstamp !== null) return null;
    const op = kv().atomic().check(done)
      .set(keys.cropSuggested(suggester, picId), s.id)
      .set(keys.cropSuggestion(owner, s.id), s);
    addNotification(op, owner, { bodyText: NOTIFICATION_TEXTS.cropSuggested, url: "/games/photocrop" });
    if ((await op.commit()).ok) return { suggestion: s, credited: false, credits: await getCredits(suggester) };
  }
  throw new Error("crop suggestion kept conflicting");
}

/** The suggestions for `owner`'s pictures, newest first (at most 50). */
export async function listCropSuggestions(owner: string): Promise<CropSuggestion[]> {
  const out: CropSuggestion[] = [];
  for await (
    const e of kv().list<CropSuggestion>({ prefix: keys.cropSuggestionsOf(owner) }, { reverse: true, limit: 50 })
  ) out.push(e.value);
  return out;
}

/** One of `owner`'s suggestions, or null. */
export async function getCropSuggestion(owner: string, id: string): Promise<CropSuggestion | null> {
  return (await kv().get<CropSuggestion>(keys.cropSuggestion(owner, id))).value;
}

/** Removes a suggestion (dismissed, or no longer fitting). */
export async function removeCropSuggestion(owner: string, id: string): Promise<void> {
  await kv().delete(keys.cropSuggestion(owner, id));
}

/**
 * After the owner used a suggestion's crop: removes the suggestion and credits its suggester, in
 * one atomic checked against the suggestion, so a suggestion earns once however often "Use" is
 * sent. False when it was already gone (nothing credited).
 */
export async function acceptCropSuggestion(owner: string, id: string): Promise<boolean> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv().get<CropSuggestion>(keys.cropSuggestion(owner, id));
    if (!entry.value) return false;
    const credit = await creditState(entry.value.suggesterProfileId);
    const op = kv().atomic().check(entry).delete(entry.key);
    creditOps(op, credit);
    if ((await op.commit()).ok) return true;
  }
  throw new Error("crop acceptance kept conflicting");
}

/**
 * The crop box in pixels of the turned upload that a suggestion means: the fractions of the
 * current master mapped into the current crop (or the whole upload when uncropped), turned alike.
 */
export function suggestionToBox(
  pic: { crop: CropBox | null; sourceWidth: number; sourceHeight: number },
  box: CropFractions,
): Required<CropBox> {
  const base = pic.crop ?? { x: 0, y: 0, width: pic.sourceWidth, height: pic.sourceHeight, rotate: 0 };
  const rotate = base.rotate ?? 0;
  const turned = rotate % 180 === 0
    ? { w: pic.sourceWidth, h: pic.sourceHeight }
    : { w: pic.sourceHeight, h: pic.sourceWidth };
  const x = Math.max(0, Math.round(base.x + box.x * base.width));
  const y = Math.max(0, Math.round(base.y + box.y * base.height));
  const width = Math.max(1, Math.min(turned.w - x, Math.round(box.width * base.width)));
  const height = Math.max(1, Math.min(turned.h - y, Math.round(box.height * base.height)));
  return { x, y, width, height, rotate };
}
