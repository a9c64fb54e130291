/**
 * Community games (design.md): volunteer credits, GPT Buster, The Rating Game and Community
 * Arbitration. A credit is a `Deno.KvU64` sum written in the same atomic as the game action that
 * earns it, at most CREDITS_PER_DAY a UTC day per member; an action past the cap still counts,
 * it just earns nothing.
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
import type { CropBox } from "../images/pipeline.ts";

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

/** Today's credit counter of a member, read before an action's atomic. */
function creditDay(profileId: string) {
  const day = Math.floor(now() / DAY_MS);
  return { day, entry: kv().get<number>(keys.gameCreditsDay(profileId, day)) };
}

/** Adds the credit to `op` (checked against today's counter); false when today's cap is reached. */
function creditOps(
  op: Deno.AtomicOperation,
  profileId: string,
  day: number,
  entry: Deno.KvEntryMaybe<number>,
): boolean {
  const n = entry.value ?? 0;
  op.check(entry);
  if (n >= CREDITS_PER_DAY) return false;
  op.set(keys.gameCreditsDay(profileId, day), n + 1, { expireIn: 2 * DAY_MS })
    .sum(keys.gameCredits(profileId), 1n);
  return true;
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
    const { day, entry } = creditDay(voter);
    const [vote, tallyEntry, dayEntry] = await Promise.all([
      kv().get(keys.gptVote(profileId, voter)),
      kv().get<GptTally>(keys.gptTally(profileId)),
      entry,
    ]);
    if (vote.versionstamp !== null) return { ok: false };
    const old = tallyEntry.value ?? { human: 0, machine: 0 };
    const tally = verdict === "HUMAN" ? { ...old, human: old.human + 1 } : { ...old, machine: old.machine + 1 };
    const op = kv().atomic().check(vote).check(tallyEntry)
      .set(keys.gptVote(profileId, voter), { verdict, ts: now() })
      .set(keys.gptTally(profileId), tally);
    if (isFlagged(tally)) op.set(keys.gptFlagged(profileId), tally);
    else op.delete(keys.gptFlagged(profileId));
    const credited = creditOps(op, voter, day, dayEntry);
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

/**
 * The Rating Game's record of `viewer` rating `picId` and its credit, as writes for the picture
 * like's own atomic (`putPicLike`'s `alongside`): read afresh on every attempt, and checked, so a
 * picture earns a credit once. `result` tells what the committed attempt did.
 */
export function ratingWrites(viewer: string, picId: string) {
  const result = { credited: false };
  const prepare = async () => {
    const { day, entry } = creditDay(viewer);
    const [played, dayEntry] = await Promise.all([kv().get(keys.ratingPlay(viewer, picId)), entry]);
    return (op: Deno.AtomicOperation) => {
      op.check(played);
      result.credited = false;
      if (played.versionstamp !== null) return;
      op.set(keys.ratingPlay(viewer, picId), now());
      result.credited = creditOps(op, viewer, day, dayEntry);
    };
  };
  return { prepare, result };
}

/**
 * Records that `viewer` rated `picId` in the game, with its credit in one atomic, when the rating
 * wrote no like (the same like again); a picture rated again earns nothing.
 */
export async function creditRating(viewer: string, picId: string): Promise<Credited> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const { day, entry } = creditDay(viewer);
    const [played, dayEntry] = await Promise.all([kv().get(keys.ratingPlay(viewer, picId)), entry]);
    if (played.versionstamp !== null) return { credited: false, credits: await getCredits(viewer) };
    const op = kv().atomic().check(played).set(keys.ratingPlay(viewer, picId), now());
    const credited = creditOps(op, viewer, day, dayEntry);
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
    const { day, entry } = creditDay(juror);
    const [vote, caseEntry, dayEntry] = await Promise.all([
      kv().get(keys.arbVote(reportId, juror)),
      kv().get<ArbCase>(keys.arbCase(reportId)),
      entry,
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
    const credited = creditOps(op, juror, day, dayEntry);
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

/** Stores a suggestion once per suggester and picture, with its credit, in one atomic; null if already made. */
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
    const { day, entry } = creditDay(suggester);
    const [done, dayEntry] = await Promise.all([kv().get(keys.cropSuggested(suggester, picId)), entry]);
    if (done.versionstamp !== null) return null;
    const op = kv().atomic().check(done)
      .set(keys.cropSuggested(suggester, picId), s.id)
      .set(keys.cropSuggestion(owner, s.id), s);
    addNotification(op, owner, { bodyText: "Someone suggested a crop for your picture.", url: "/games/photocrop" });
    const credited = creditOps(op, suggester, day, dayEntry);
    if ((await op.commit()).ok) return { suggestion: s, credited, credits: await getCredits(suggester) };
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

/** Removes a suggestion (accepted or dismissed). */
export async function removeCropSuggestion(owner: string, id: string): Promise<void> {
  await kv().delete(keys.cropSuggestion(owner, id));
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
