/**
 * Hot or Not (docs/decisions/0154-hot-or-not.md): a member tests 2 to 4 of their public pictures;
 * voters are dealt two pictures of one member they may see (never their own, nobody blocked
 * either way, NSFW only to a device that shows it) and pick the better first picture, or skip. A
 * counted vote earns a volunteer credit in its own atomic; careless votes (too fast, one more of a
 * long run on one side) are stored but not counted. Results are read only by the test's owner,
 * each voter's lean corrected as they are read (domain/hotOrNot.ts). 'Keep my best picture first'
 * runs Thompson sampling on the likes and profile opens each public picture earns.
 */

import { kv } from "../db.ts";
import { commitForgetting, keep, keepingReads, keptCopy, readBegins } from "../kept.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { newId } from "../ids.ts";
import { getProfile, updateProfile } from "../profiles.ts";
import { getPic, getPics, type ProfilePic } from "../pictures.ts";
import { blockedSet } from "../blocks.ts";
import { creditOps, creditState, getCredits } from "./credits.ts";
import {
  bestOf,
  carelessReason,
  HOT_DAYS,
  HOT_DECIDE_EVERY,
  HOT_MOVES_KEPT,
  HOT_TARGET_VOTES,
  hotResults,
  nextVoterStats,
  NO_VOTER,
  pairKey,
  pairsOf,
  thompsonFirst,
  withFirst,
} from "../../domain/hotOrNot.ts";
import type {
  CarelessReason,
  HotChoice,
  HotKeepBest,
  HotKeepBestView,
  HotPair,
  HotStatus,
  HotTest,
  HotTestView,
  HotVote,
  HotVoterStats,
} from "../../domain/shapes/hotOrNot.ts";

const DAY_MS = 24 * 3_600_000;

/**
 * The pair dealt to a voter from one test: the pictures (never sent to the voter: they are served
 * through the deal), when it was dealt (also its stamp, which the vote names), whether the voter's
 * device shows NSFW, and the previous deal they answered (so an outbox retry of that vote is
 * answered as it was).
 */
interface Deal {
  left: string;
  right: string;
  ts: number;
  nsfw: boolean;
  last: { ts: number; pair: string } | null;
}
/** A dealt pair may be answered for a day (a vote queued offline lands later). */
const DEAL_MS = DAY_MS;

/** The caller's public pictures, in order, with their NSFW flag. */
export async function ownPublicPics(profileId: string): Promise<{ picId: string; nsfw: boolean }[]> {
  const profile = await getProfile(profileId);
  if (!profile) return [];
  const pics = new Map((await getPics(profile.profilePicIds)).map((p) => [p.id, p]));
  return profile.profilePicIds.filter((id) => pics.has(id)).map((id) => ({ picId: id, nsfw: pics.get(id)!.nsfw }));
}

/** Adds the end of a test to `op`: its status, and it leaves the voters' deal and its owner's current. */
function finishOps(op: Deno.AtomicOperation, test: HotTest, status: Exclude<HotStatus, "RUNNING">): HotTest {
  const done: HotTest = { ...test, status, tsDone: now() };
  op.set(keys.hotTest(test.id), done).delete(keys.hotRunning(test.id)).delete(keys.hotCurrent(test.ownerProfileId));
  return done;
}

/** A test, ended first when its days ran out. */
export async function getTest(id: string): Promise<HotTest | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const e = await kv().get<HotTest>(keys.hotTest(id));
    if (!e.value || e.value.status !== "RUNNING" || now() < e.value.tsEnds) return e.value;
    const op = kv().atomic().check(e);
    const done = finishOps(op, e.value, "DONE");
    if ((await op.commit()).ok) return done;
  }
  return (await kv().get<HotTest>(keys.hotTest(id))).value;
}

/** The test a member runs now, if any. */
export async function currentTest(owner: string): Promise<HotTest | null> {
  const id = (await kv().get<string>(keys.hotCurrent(owner))).value;
  const test = id ? await getTest(id) : null;
  return test?.status === "RUNNING" ? test : null;
}

/** A member's tests, newest first (at most `limit`). */
export async function listTests(owner: string, limit = 5): Promise<HotTest[]> {
  const ids: string[] = [];
  for await (const e of kv().list({ prefix: keys.hotTestsOf(owner) }, { reverse: true, limit })) {
    ids.push(e.key[2] as string);
  }
  const out: HotTest[] = [];
  for (const id of ids) {
    const t = await getTest(id);
    if (t) out.push(t);
  }
  return out;
}

export type StartRefusal = "running" | "not_public" | "repeated";

/** Starts a test of `picIds` (2 to 4, checked by the caller), all public pictures of `owner`; one at a time. */
export async function startTest(
  owner: string,
  picIds: readonly string[],
): Promise<{ ok: true; test: HotTest } | { ok: false; reason: StartRefusal }> {
  if (new Set(picIds).size !== picIds.length) return { ok: false, reason: "repeated" };
  const own = await ownPublicPics(owner);
  const nsfwOf = new Map(own.map((p) => [p.picId, p.nsfw]));
  if (picIds.some((id) => !nsfwOf.has(id))) return { ok: false, reason: "not_public" };
  const current = await kv().get<string>(keys.hotCurrent(owner));
  if (current.value && (await currentTest(owner))) return { ok: false, reason: "running" };
  const t = now();
  const test: HotTest = {
    id: newId(t),
    ownerProfileId: owner,
    picIds: [...picIds],
    nsfw: picIds.some((id) => nsfwOf.get(id)),
    status: "RUNNING",
    tsCreated: t,
    tsEnds: t + HOT_DAYS * DAY_MS,
    tsDone: null,
    counted: Object.fromEntries(picIds.map((id) => [id, 0])),
    careless: 0,
    skips: 0,
  };
  const res = await kv().atomic().check({ key: keys.hotCurrent(owner), versionstamp: null })
    .set(keys.hotTest(test.id), test)
    .set(keys.hotTestOf(owner, test.id), t)
    .set(keys.hotCurrent(owner), test.id)
    .set(keys.hotRunning(test.id), { owner, tsEnds: test.tsEnds })
    .commit();
  // The stale pointer of a test that ran out is cleared by `currentTest`; then it is free again.
  if (!res.ok) {
    if (await currentTest(owner)) return { ok: false, reason: "running" };
    await kv().delete(keys.hotCurrent(owner));
    return startTest(owner, picIds);
  }
  return { ok: true, test };
}

/** Stops the owner's running test; null when it is not theirs or not running. */
export async function stopTest(owner: string, id: string): Promise<HotTest | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const e = await kv().get<HotTest>(keys.hotTest(id));
    if (!e.value || e.value.ownerProfileId !== owner || e.value.status !== "RUNNING") return null;
    const op = kv().atomic().check(e);
    const done = finishOps(op, e.value, "STOPPED");
    if ((await op.commit()).ok) return done;
  }
  throw new Error("stopping a test kept conflicting");
}

/** Every vote of a test, with its voter's id. */
async function votesOf(testId: string): Promise<{ voter: string; vote: HotVote }[]> {
  const out: { voter: string; vote: HotVote }[] = [];
  for await (const e of kv().list<HotVote>({ prefix: keys.hotVotesOf(testId) })) {
    out.push({ voter: e.key[2] as string, vote: e.value });
  }
  return out;
}

/** Voters' sides by id. */
async function voterStats(ids: readonly string[]): Promise<Map<string, HotVoterStats>> {
  const out = new Map<string, HotVoterStats>();
  for (let i = 0; i < ids.length; i += 10) {
    const batch = ids.slice(i, i + 10);
    const entries = await kv().getMany<HotVoterStats[]>(batch.map(keys.hotVoter));
    batch.forEach((id, j) => out.set(id, entries[j].value ?? NO_VOTER));
  }
  return out;
}

/** A test as its owner sees it: each picture's lean-corrected share with its interval. Only for the owner. */
export async function testView(test: HotTest): Promise<HotTestView> {
  const [votes, pics] = await Promise.all([votesOf(test.id), getPics(test.picIds)]);
  const stats = await voterStats([...new Set(votes.map((v) => v.voter))]);
  const nsfw = new Map(pics.map((p) => [p.id, p.nsfw]));
  const pictures = hotResults(
    test.picIds,
    (id) => nsfw.get(id) ?? false,
    votes.map((v) => ({ vote: v.vote, voter: stats.get(v.voter) ?? NO_VOTER })),
  );
  return {
    id: test.id,
    status: test.status,
    tsCreated: test.tsCreated,
    tsEnds: test.tsEnds,
    tsDone: test.tsDone,
    target: HOT_TARGET_VOTES,
    pictures,
    careless: test.careless,
    skips: test.skips,
    best: test.status === "RUNNING" ? null : bestOf(pictures),
  };
}

/** Shuffles in place (Fisher-Yates). */
function shuffle<T>(a: T[]): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * The next pair for `voter`: from a running test of someone else, nobody blocked either way or
 * withdrawn, with NSFW pictures only when `nsfw` (the device shows NSFW), a pair they have not
 * voted on, the pictures with the fewest counted votes first, sides at random. A pair dealt and
 * not yet answered is dealt again as it was (its clock keeps running).
 */
export async function nextPair(voter: string, nsfw: boolean): Promise<HotPair | null> {
  const hidden = await blockedSet(voter);
  const running: { testId: string; owner: string }[] = [];
  for await (const e of kv().list<{ owner: string }>({ prefix: keys.hotRunningAll() }, { limit: 500 })) {
    if (e.value.owner !== voter && !hidden.has(e.value.owner)) {
      running.push({ testId: e.key[1] as string, owner: e.value.owner });
    }
  }
  for (const { testId, owner } of shuffle(running)) {
    const test = await getTest(testId);
    if (!test || test.status !== "RUNNING" || (test.nsfw && !nsfw)) continue;
    const profile = await getProfile(owner);
    if (!profile) continue;
    // Pictures that left the owner's public list since are no longer shown.
    const shown = test.picIds.filter((id) => profile.profilePicIds.includes(id));
    const pairs = pairsOf(shown);
    if (!pairs.length) continue;
    const [dealt, ...voted] = await kv().getMany([
      keys.hotDeal(voter, testId),
      ...pairs.map(([a, b]) => keys.hotVote(testId, voter, pairKey(a, b))),
    ]);
    const open = pairs.filter((_, i) => voted[i].versionstamp === null);
    if (!open.length) continue;
    const deal = dealt.value as Deal | null;
    const pics = new Map((await getPics(shown)).map((p) => [p.id, p]));
    const pairOf = (d: Deal): HotPair => ({
      testId,
      deal: d.ts,
      left: { nsfw: pics.get(d.left)?.nsfw ?? false },
      right: { nsfw: pics.get(d.right)?.nsfw ?? false },
    });
    if (deal && open.some(([a, b]) => pairKey(a, b) === pairKey(deal.left, deal.right))) return pairOf(deal);
    const need = (p: [string, string]) => Math.min(test.counted[p[0]] ?? 0, test.counted[p[1]] ?? 0);
    const fewest = Math.min(...open.map(need));
    const choices = open.filter((p) => need(p) === fewest);
    const [a, b] = choices[Math.floor(Math.random() * choices.length)];
    const [left, right] = Math.random() < 0.5 ? [a, b] : [b, a];
    // A stamp later than the previous deal's, so a vote names exactly one deal.
    const ts = Math.max(now(), (deal?.ts ?? 0) + 1);
    const next: Deal = { left, right, ts, nsfw, last: deal?.last ?? null };
    await kv().set(keys.hotDeal(voter, testId), next, { expireIn: DEAL_MS });
    return pairOf(next);
  }
  return null;
}

/**
 * The picture on one side of the pair dealt to `voter` from `testId` (only then may they see it):
 * its record and whether to serve it unblurred (an NSFW picture only to a device that shows NSFW).
 */
export async function dealtPicture(
  voter: string,
  testId: string,
  side: "left" | "right",
): Promise<{ pic: ProfilePic; blur: boolean } | null> {
  const deal = (await kv().get<Deal>(keys.hotDeal(voter, testId))).value;
  if (!deal) return null;
  const pic = await getPic(side === "left" ? deal.left : deal.right);
  return pic && { pic, blur: pic.nsfw && !deal.nsfw };
}

export type VoteRefusal = "no_test" | "own_test" | "ended" | "not_dealt";

/** What a vote did. */
export interface VoteResult {
  ok: true;
  counted: boolean;
  why: CarelessReason | null;
  credited: boolean;
  credits: number;
  /** The test reached its votes with this one. */
  ended: boolean;
}

/**
 * Stores `voter`'s vote on the pair dealt to them from `testId` (the deal named by its stamp), once
 * a pair: the test's counts, the voter's sides, its end when every picture has its votes, and a
 * counted vote's credit, in one atomic. `ms` is how long the device says the pair was shown; the
 * shorter of it and the server's measure (since the deal) decides whether it was too fast. The
 * same vote again (an outbox retry) answers as it was.
 */
export async function castVote(
  voter: string,
  v: { testId: string; deal: number; choice: HotChoice; ms: number },
): Promise<VoteResult | { ok: false; reason: VoteRefusal }> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const test = await getTest(v.testId);
    if (!test) return { ok: false, reason: "no_test" };
    if (test.ownerProfileId === voter) return { ok: false, reason: "own_test" };
    const dealE = await kv().get<Deal>(keys.hotDeal(voter, v.testId));
    const deal = dealE.value;
    if (deal?.last?.ts === v.deal) {
      const was = (await kv().get<HotVote>(keys.hotVote(v.testId, voter, deal.last.pair))).value;
      if (was) {
        return {
          ok: true,
          counted: was.counted,
          why: was.why,
          credited: false,
          credits: await getCredits(voter),
          ended: false,
        };
      }
    }
    if (!deal || deal.ts !== v.deal) return { ok: false, reason: "not_dealt" };
    const pair = pairKey(deal.left, deal.right);
    const [voteE, statsE, testE, credit] = await Promise.all([
      kv().get<HotVote>(keys.hotVote(v.testId, voter, pair)),
      kv().get<HotVoterStats>(keys.hotVoter(voter)),
      kv().get<HotTest>(keys.hotTest(v.testId)),
      creditState(voter),
    ]);
    if (voteE.value) return { ok: false, reason: "not_dealt" };
    if (!testE.value || testE.value.status !== "RUNNING") return { ok: false, reason: "ended" };
    const t = now();
    const stats = statsE.value ?? NO_VOTER;
    const why = carelessReason(v.choice, Math.min(v.ms, t - deal.ts), stats);
    const counted = v.choice !== "SKIP" && why === null;
    const next: HotTest = {
      ...testE.value,
      counted: counted
        ? {
          ...testE.value.counted,
          [deal.left]: (testE.value.counted[deal.left] ?? 0) + 1,
          [deal.right]: (testE.value.counted[deal.right] ?? 0) + 1,
        }
        : testE.value.counted,
      careless: testE.value.careless + (why ? 1 : 0),
      skips: testE.value.skips + (v.choice === "SKIP" ? 1 : 0),
    };
    const vote: HotVote = { left: deal.left, right: deal.right, choice: v.choice, counted, why, ts: t };
    // The deal stays (answered) for a day: its pictures may still be on the voter's screen, and a
    // retry of this vote is answered from it.
    const answered: Deal = { ...deal, last: { ts: deal.ts, pair } };
    const op = kv().atomic().check(voteE).check(dealE).check(statsE).check(testE)
      .set(keys.hotVote(v.testId, voter, pair), vote)
      .set(keys.hotVoter(voter), nextVoterStats(stats, v.choice))
      .set(keys.hotDeal(voter, v.testId), answered, { expireIn: DEAL_MS });
    const reached = next.picIds.every((id) => (next.counted[id] ?? 0) >= HOT_TARGET_VOTES);
    if (reached) finishOps(op, next, "DONE");
    else op.set(keys.hotTest(v.testId), next);
    const credited = counted && creditOps(op, credit);
    if ((await op.commit()).ok) {
      return { ok: true, counted, why, credited, credits: await getCredits(voter), ended: reached };
    }
  }
  throw new Error("Hot or Not vote kept conflicting");
}

/** 'Put the best first': the test's best picture first in the owner's public list. */
export async function putBestFirst(
  owner: string,
  testId: string,
): Promise<{ ok: true; profilePicIds: string[] } | { ok: false; reason: "no_test" | "running" | "gone" }> {
  const test = await getTest(testId);
  if (!test || test.ownerProfileId !== owner) return { ok: false, reason: "no_test" };
  if (test.status === "RUNNING") return { ok: false, reason: "running" };
  const best = (await testView(test)).best;
  const profile = await getProfile(owner);
  if (!best || !profile || !profile.profilePicIds.includes(best)) return { ok: false, reason: "gone" };
  const r = await updateProfile(owner, { profilePicIds: withFirst(profile.profilePicIds, best) });
  if (!r.ok) return { ok: false, reason: "gone" };
  return { ok: true, profilePicIds: r.profile.profilePicIds };
}

/** The owner's page state: their public pictures, the running test, earlier ones, the setting, credits. */
export async function hotOrNotState(owner: string) {
  const [pictures, current, tests, keepBest, credits] = await Promise.all([
    ownPublicPics(owner),
    currentTest(owner),
    listTests(owner, 6),
    keepBestView(owner),
    getCredits(owner),
  ]);
  const earlier = tests.filter((t) => t.id !== current?.id).slice(0, 5);
  return {
    pictures,
    current: current ? await testView(current) : null,
    earlier: await Promise.all(earlier.map(testView)),
    keepBest,
    credits,
  };
}

// --- 'Keep my best picture first'

const OFF: HotKeepBest = { on: false, since: null, orderBefore: [], arms: {}, sinceDecision: 0, moves: [] };

/** The setting as its owner sees it. */
export async function keepBestView(owner: string): Promise<HotKeepBestView> {
  const s = (await kv().get<HotKeepBest>(keys.hotKeepBest(owner))).value ?? OFF;
  return { on: s.on, since: s.since, moves: s.moves, canUndo: s.orderBefore.length > 0 && s.moves.length > 0 };
}

/** Switches 'Keep my best picture first' on (remembering the order for Undo) or off (the order stays). */
export async function setKeepBest(owner: string, on: boolean): Promise<HotKeepBestView> {
  const e = await kv().get<HotKeepBest>(keys.hotKeepBest(owner));
  const old = e.value ?? OFF;
  if (old.on === on) return keepBestView(owner);
  const profile = await getProfile(owner);
  const next: HotKeepBest = on
    ? { ...old, on: true, since: now(), orderBefore: profile?.profilePicIds ?? [], sinceDecision: 0, moves: [] }
    : { ...old, on: false, since: null };
  await commitForgetting(kv().atomic().set(keys.hotKeepBest(owner), next), "keepBest", [owner]);
  return keepBestView(owner);
}

/**
 * Undo: the public order as it was when the setting was switched on (pictures added since go after
 * it, in their order), and the setting off.
 */
export async function undoKeepBest(owner: string): Promise<{ keepBest: HotKeepBestView; profilePicIds: string[] }> {
  const s = (await kv().get<HotKeepBest>(keys.hotKeepBest(owner))).value ?? OFF;
  const profile = await getProfile(owner);
  let order = profile?.profilePicIds ?? [];
  if (profile && s.orderBefore.length) {
    const now_ = profile.profilePicIds;
    const back = [...s.orderBefore.filter((p) => now_.includes(p)), ...now_.filter((p) => !s.orderBefore.includes(p))];
    const r = await updateProfile(owner, { profilePicIds: back });
    if (r.ok) order = r.profile.profilePicIds;
  }
  const off: HotKeepBest = { ...s, on: false, since: null, orderBefore: [], moves: [] };
  await commitForgetting(kv().atomic().set(keys.hotKeepBest(owner), off), "keepBest", [owner]);
  return { keepBest: await keepBestView(owner), profilePicIds: order };
}

/**
 * Applies `change` to the owner's setting when it is on (one checked write; a lost race drops the
 * count). Whether it is on is kept a minute by the instance (kv/kept.ts; switching it writes
 * a forget): nearly every member has it off, and a profile opened or liked then reads nothing.
 */
async function withKeepBest(owner: string, change: (s: HotKeepBest, first: string, order: string[]) => void) {
  if (keptCopy<boolean>("keepBest", owner) === false) return;
  const began = readBegins();
  const e = await kv().get<HotKeepBest>(keys.hotKeepBest(owner));
  keep("keepBest", owner, e.value?.on === true, began);
  if (!e.value?.on) return;
  const profile = await getProfile(owner);
  if (!profile || profile.profilePicIds.length === 0) return;
  const s: HotKeepBest = structuredClone(e.value);
  change(s, profile.profilePicIds[0], profile.profilePicIds);
  let move: string | null = null;
  if (s.sinceDecision >= HOT_DECIDE_EVERY && profile.profilePicIds.length > 1) {
    s.sinceDecision = 0;
    const pick = thompsonFirst(profile.profilePicIds, s.arms, Math.random);
    if (pick !== profile.profilePicIds[0]) move = pick;
  }
  if (move) {
    const r = await updateProfile(owner, { profilePicIds: withFirst(profile.profilePicIds, move) });
    if (r.ok) s.moves = [{ picId: move, ts: now() }, ...s.moves].slice(0, HOT_MOVES_KEPT);
  }
  await kv().atomic().check(e).set(keys.hotKeepBest(owner), s).commit();
}

/**
 * Begins the read `hotLiked` starts from (is the owner's setting on?), unless it is kept: a like
 * begins it beside its own reads, so it goes to the store in their call (kv/coalesce.ts) and the
 * count after a new like reads nothing more where the setting is off (nearly every member).
 */
export function beginKeepBestRead(owner: string): void {
  if (!keepingReads() || keptCopy<boolean>("keepBest", owner) !== undefined) return;
  const began = readBegins();
  kv().get<HotKeepBest>(keys.hotKeepBest(owner)).then(
    (e) => keep("keepBest", owner, e.value?.on === true, began),
    () => {}, // unread: `hotLiked` reads it itself
  );
}

/** Another member opened `owner`'s profile: its first picture was shown (and the bandit may move another first). */
export function hotProfileOpened(owner: string, viewer: string): Promise<void> {
  if (owner === viewer) return Promise.resolve();
  return withKeepBest(owner, (s, first) => {
    const arm = s.arms[first] ?? { shown: 0, won: 0 };
    s.arms[first] = { ...arm, shown: arm.shown + 1 };
    s.sinceDecision++;
  });
}

/** `owner` got a LIKE: of picture `picId`, or (null) of the profile, which goes to its first picture. */
export function hotLiked(owner: string, picId: string | null): Promise<void> {
  return withKeepBest(owner, (s, first, order) => {
    const id = picId ?? first;
    if (!order.includes(id)) return;
    const arm = s.arms[id] ?? { shown: 0, won: 0 };
    s.arms[id] = { ...arm, won: arm.won + 1 };
  });
}

// --- export, deletion and counts

/** A member's Hot or Not data for their export: their tests with results, votes they gave, their sides, the setting. */
export async function hotOrNotDataOf(profileId: string) {
  const tests = [];
  for await (const e of kv().list({ prefix: keys.hotTestsOf(profileId) })) {
    const t = await getTest(e.key[2] as string);
    if (t) tests.push(await testView(t));
  }
  const votesGiven = [];
  for await (const e of kv().list<HotVote>({ prefix: keys.hotVotesAll() }, { batchSize: 500 })) {
    if (e.key[2] === profileId) votesGiven.push({ testId: e.key[1], ...e.value });
  }
  return {
    tests,
    votesGiven,
    sides: (await kv().get(keys.hotVoter(profileId))).value,
    keepBestFirst: (await kv().get(keys.hotKeepBest(profileId))).value,
  };
}

/** Every key of a member's Hot or Not data: their tests and the votes on them, their votes, deals, sides and setting. */
export async function hotOrNotKeysOf(profileId: string): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [keys.hotCurrent(profileId), keys.hotVoter(profileId), keys.hotKeepBest(profileId)];
  for await (const e of kv().list({ prefix: keys.hotTestsOf(profileId) })) {
    const id = e.key[2] as string;
    out.push(e.key, keys.hotTest(id), keys.hotRunning(id));
    for await (const v of kv().list({ prefix: keys.hotVotesOf(id) })) out.push(v.key);
  }
  for await (const e of kv().list({ prefix: keys.hotVotesAll() }, { batchSize: 500 })) {
    if (e.key[2] === profileId) out.push(e.key);
  }
  for await (const e of kv().list({ prefix: keys.hotDealsOf(profileId) })) out.push(e.key);
  return out;
}

/** Counts for admins: tests running and votes cast, counted and careless. Never a picture or a share. */
export async function hotOrNotCounts(): Promise<{ running: number; votes: number; careless: number }> {
  let running = 0;
  for await (const _ of kv().list({ prefix: keys.hotRunningAll() })) running++;
  let votes = 0;
  let careless = 0;
  for await (const e of kv().list<HotVote>({ prefix: keys.hotVotesAll() }, { batchSize: 500 })) {
    votes++;
    if (e.value.why) careless++;
  }
  return { running, votes, careless };
}
