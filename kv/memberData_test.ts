/**
 * Export and deletion cover every kind of record: each key shape of kv/keys.ts is classified here
 * (the table's type lists every key, so a new key without a class does not compile, and the test
 * fails at run time too). One record of each kind that holds a member's data is written for a
 * member; the export must show what they gave and what is about them, and the deletion must take
 * every one away.
 */

import assert from "node:assert/strict";
import { kvTest } from "../tests/kv.ts";
import { kv } from "./db.ts";
import { type Key, keys } from "./keys.ts";
import { createAccount } from "./accounts.ts";
import { collectMemberData } from "./memberData.ts";
import { deleteMemberStep, startDeletion } from "./memberDeletion.ts";
import { loadMaster, loadVariant } from "../workers/pictures.ts";

/** The member's ids, another member's, and a marker text that the export must show. */
interface Ids {
  account: string;
  profile: string;
  email: string;
  other: string;
  marker: string;
}

type Class =
  /** The member's data, shown in the export (the marker must be in it) and removed by deletion. */
  | { kind: "exported"; make: (m: Ids) => [Key, unknown] }
  /** The member's data that the export leaves out (an index of a record shown, a secret, a counter), removed by deletion. */
  | { kind: "deleted"; make: (m: Ids) => [Key, unknown]; why: string }
  /** A prefix for listing: no record of its own. */
  | { kind: "prefix" }
  /** Holds no member's data, or is kept by design after a deletion. */
  | { kind: "other"; why: string };

const PREFIX: Class = { kind: "prefix" };
const other = (why: string): Class => ({ kind: "other", why });
const exported = (make: (m: Ids) => [Key, unknown]): Class => ({ kind: "exported", make });
const deleted = (why: string, make: (m: Ids) => [Key, unknown]): Class => ({ kind: "deleted", make, why });
const NOW = Date.now();

const CLASSES: Record<keyof typeof keys, Class> = {
  account: other("the account itself: written by createAccount, exported as `account`, removed by the account step"),
  accountByEmail: other("index of the account, removed with it"),
  accountsByRole: other("index of the account, removed with it"),
  accountsWithRole: PREFIX,
  roleCount: other("a count of all members with a role"),
  roleGrant: deleted("a role held for a while: the account's roles are exported", (m) => [
    keys.roleGrant(m.account, "VOLUNTEER"),
    { until: NOW },
  ]),
  session: other("a session by token hash: removed by endOtherSessions, sessions exported as a list"),
  sessionByAccount: other("index of a session, removed with it"),
  sessionsByAccount: PREFIX,
  loginToken: deleted("a login link's secret", (m) => [keys.loginToken("t-hash"), { accountId: m.account }]),
  passkey: other("a passkey by credential id: listed with passkeyOf, removed with it"),
  passkeyOf: other("written with passkey by kv/passkeys.ts; exported as `passkeys`"),
  passkeysOf: PREFIX,
  webauthnChallenge: deleted("a challenge of a few minutes", (m) => [
    keys.webauthnChallenge("c1"),
    { accountId: m.account, challenge: "x" },
  ]),
  outbox: deleted("a mail sent to them (the dev outbox)", (m) => [keys.outbox("o1"), { to: m.email, text: "x" }]),
  outboxAll: PREFIX,
  contactMessage: exported((m) => [
    keys.contactMessage("cm1"),
    { id: "cm1", accountId: m.account, name: "N", message: m.marker, tsCreated: NOW },
  ]),
  rateLimitCount: deleted("a rate-limit count", (m) => [
    keys.rateLimitCount("login", 1, m.account),
    new Deno.KvU64(1n),
  ]),
  rateLimitCountsOf: PREFIX,
  loginKnownAddress: deleted("a keyed hash of an address", (m) => [keys.loginKnownAddress(m.account, "h"), NOW]),
  loginKnownAddresses: PREFIX,
  loginDevice: deleted("a device token's hash", (m) => [keys.loginDevice(m.account, "h"), NOW]),
  loginDevices: PREFIX,
  loginTrustSecret: other("the app's key"),
  accountOrigin: deleted("where the account was made: keyed hashes, meaningless to the member", (m) => [
    keys.accountOrigin(m.account),
    { addrs: ["a-hash"], devices: [], firstLogin: true },
  ]),
  profile: other("the profile itself: exported as `profile`, removed by the account step"),
  profilesAll: PREFIX,
  blob: other("bytes of a picture or an export, reached through their record (pic, dataExport)"),
  blobChunk: other("bytes of a blob"),
  blobChunksOfGen: PREFIX,
  blobChunksAll: PREFIX,
  message: other("written with its conversation entries: see the messages test in routes/api/account_test.ts"),
  conversationMessage: other("index of a message"),
  messageSendKey: deleted("a send's idempotency key: the id of a message they sent", (m) => [
    keys.messageSendKey(m.profile, "k".repeat(20)),
    "m1",
  ]),
  messageSendKeysOf: PREFIX,
  conversation: PREFIX,
  chat: other("index of the latest message with a partner"),
  chatsOf: PREFIX,
  broadcast: exported((m) => [
    keys.broadcast("33:-112", "b1"),
    { id: "b1", senderProfileId: m.profile, sector: "33:-112", bodyText: m.marker, tsCreated: NOW },
  ]),
  broadcastsIn: PREFIX,
  notification: deleted("shown in the export through listNotifications; here its raw shape", (m) => [
    keys.notification(m.profile, "n1"),
    { id: "n1", text: "x" },
  ]),
  notificationsOf: PREFIX,
  notificationCount: deleted("a count of a notification", (m) => [
    keys.notificationCount(m.profile, "n1"),
    new Deno.KvU64(2n),
  ]),
  notificationOnce: deleted("a mark that they were told once", (m) => [
    keys.notificationOnce(m.profile, "like", m.other),
    NOW,
  ]),
  pushSent: deleted("when a conversation's notification last pushed", (m) => [keys.pushSent(m.profile, "n1"), NOW]),
  lookingAt: deleted("the conversation they have open", (m) => [keys.lookingAt(m.profile), { with: "p2", ts: NOW }]),
  presence: deleted("when they last had the app open", (m) => [keys.presence(m.profile), NOW]),
  presenceHidden: exported((m) => [keys.presenceHidden(m.profile), true]),
  safety: deleted("settings, exported through getSafety", (m) => [keys.safety(m.profile), { discreet: true }]),
  eventLog: other("the event log: ids purged by the logs step, entries expire in minutes"),
  eventLogAll: PREFIX,
  eventsVersion: other("a counter of all events"),
  pushSubscription: deleted("a push device, exported through listPushSubscriptions", (m) => [
    keys.pushSubscription(m.account, "p1"),
    { id: "p1", endpoint: "https://push.invalid/x", deviceName: "phone", tsCreated: NOW },
  ]),
  pushSubscriptionsOf: PREFIX,
  pushReachable: deleted("that they have a push device, kept with their devices", (m) => [
    keys.pushReachable(m.profile),
    true,
  ]),
  pushReachableAll: PREFIX,
  pushReachableMarked: other("when the store's devices were marked: names no one"),
  vapidKeys: other("the app's key"),
  feedOfMember: other("a live feed's lease: removed when the feed closes, gone 75 s after its instance"),
  feedsOfMember: PREFIX,
  feedAtAddress: other("the same lease under a hashed address"),
  feedsAtAddress: PREFIX,
  job: other("a job about them: removed by the records step when it names them"),
  jobDue: other("index of a job"),
  jobsDueIn: PREFIX,
  jobsDue: PREFIX,
  jobDead: deleted("a failed job naming them", (m) => [keys.jobDead("j1"), { job: { accountId: m.account } }]),
  jobsDead: PREFIX,
  jobSignal: other("a wake-up counter"),
  jobDone: deleted("a finished job naming them", (m) => [keys.jobDone("j2"), { accountId: m.account }]),
  positionOwn: other("their position: written by reportPosition, exported as `position`"),
  positionsOwnAll: PREFIX,
  positionShown: other("the shown cell of a visible member, removed when they are hidden"),
  positionsShownInSector: PREFIX,
  positionsShownAll: PREFIX,
  positionLog: other("the position change log: ids purged by the logs step"),
  positionsLogAll: PREFIX,
  positionsVersion: other("a counter of all position writes"),
  positionsSecret: other("the app's key"),
  positionsSnapshotLease: other("which instance writes the index snapshot"),
  positionsSweptAt: other("when the sweep of expired positions last began"),
  profileLike: exported((m) => [
    keys.profileLike(m.profile, m.other),
    { likerProfileId: m.profile, likedProfileId: m.other, likeType: "LIKE", seq: "s", note: m.marker },
  ]),
  profileLikeByLiker: other("index of a like"),
  profileLikesByLiker: PREFIX,
  profileLikeByLiked: other("index of a like"),
  profileLikesByLiked: PREFIX,
  retiredProfileLikeCounts: deleted("a count of likes received that older stores kept", (m) => [
    [...keys.retiredProfileLikeCounts(m.profile), "LIKE"],
    new Deno.KvU64(3n),
  ]),
  picLike: exported((m) => [
    keys.picLike(m.profile, "pic-x"),
    { profilePicId: "pic-x", profilePicProfileId: m.other, likeType: "LIKE", seq: "s", note: m.marker },
  ]),
  picLikeByLiker: other("index of a picture like"),
  picLikesByLiker: PREFIX,
  picLikeByOwner: other("index of a picture like"),
  picLikesByOwner: PREFIX,
  retiredPicLikeCounts: other("a count per picture that older stores kept, removed with the picture"),
  block: deleted("a block they made", (m) => [keys.block(m.profile, m.other), NOW]),
  blocksBy: PREFIX,
  blockedBy: deleted("a block made of them", (m) => [keys.blockedBy(m.profile, m.other), NOW]),
  blockedByAll: PREFIX,
  profileNote: exported((m) => [keys.profileNote(m.profile, m.other), { text: m.marker }]),
  profileNotesBy: PREFIX,
  report: exported((m) => [
    keys.report("r1"),
    { id: "r1", reporterProfileId: m.profile, reportedProfileId: m.other, text: m.marker },
  ]),
  reportsAll: PREFIX,
  reportByReported: other("index of a report, removed with it"),
  reportsByReported: PREFIX,
  dataExport: other("a ready export: removed with its ZIP by the records step (routes/api/account_test.ts)"),
  accountDeletion: other("the deletion under way, removed by its last step"),
  tombstone: other("the anonymous partner their conversations move to: names no one"),
  profileLikesAllBy: PREFIX,
  picLikesAllBy: PREFIX,
  modAction: exported((m) => [keys.modAction(m.profile, "a1"), { id: "a1", kind: "WARNING", reason: m.marker }]),
  modActionsOf: PREFIX,
  withdrawn: other("hidden state: set by the deletion itself, removed by its account step"),
  withdrawnAll: PREFIX,
  reviewedAt: deleted("when an admin last looked", (m) => [keys.reviewedAt(m.profile), NOW]),
  accountNotice: deleted("a notice to show them", (m) => [keys.accountNotice(m.account), { kind: "WARNING" }]),
  auditEntry: other("the append-only moderation audit log, kept by design (docs/operations.md)"),
  auditAll: PREFIX,
  modNote: deleted("an admin's note about them", (m) => [keys.modNote(m.profile, "mn1"), { text: "x" }]),
  modNotesOf: PREFIX,
  bannedEmail: other("the hash of a banned mailbox, kept by design so a ban is not evaded"),
  spamPrint: deleted("a first message's fingerprint", (m) => [keys.spamPrint(m.profile, "fp", m.other), NOW]),
  spamPrintsOf: PREFIX,
  spamHeldCount: deleted("a count of held messages", (m) => [keys.spamHeldCount(m.profile), new Deno.KvU64(1n)]),
  sendingPaused: deleted("their sending is paused", (m) => [keys.sendingPaused(m.profile), NOW]),
  sendingPausedAll: PREFIX,
  pic: other("a picture's record: written by addPicture, exported with its bytes (routes/api/account_test.ts)"),
  picGrant: deleted("a grant to see another's private picture", (m) => [keys.picGrant("pic-y", m.profile), NOW]),
  picGrants: PREFIX,
  gameCredits: exported((m) => [keys.gameCredits(m.profile), new Deno.KvU64(4242n)]),
  gameCreditsDay: deleted("credits of one day, summed in `volunteerCredits`", (m) => [
    keys.gameCreditsDay(m.profile, 20000),
    1,
  ]),
  gptVote: exported((m) => [keys.gptVote(m.other, m.profile), { verdict: m.marker, ts: NOW }]),
  gptTally: deleted("the tally of votes on their text", (m) => [keys.gptTally(m.profile), { human: 1, machine: 0 }]),
  gptFlagged: deleted("their text was flagged", (m) => [keys.gptFlagged(m.profile), { human: 0, machine: 3 }]),
  gptFlaggedAll: PREFIX,
  ratingPlay: exported((m) => [keys.ratingPlay(m.profile, "pic-z"), { ts: NOW, judged: m.marker }]),
  ratingPlaysOf: PREFIX,
  arbCase: other("a report's tally, removed with the report"),
  arbVote: exported((m) => [keys.arbVote("r9", m.profile), { verdict: m.marker, ts: NOW }]),
  cropSuggestion: exported((m) => [
    keys.cropSuggestion(m.profile, "cs1"),
    { id: "cs1", suggester: m.other, picId: "pic-q", note: m.marker },
  ]),
  cropSuggestionsOf: PREFIX,
  cropSuggested: exported((m) => [keys.cropSuggested(m.profile, "pic-w"), m.marker]),
  cropSuggestedBy: PREFIX,
  idChallenge: deleted("a pose to copy, two minutes", (m) => [
    keys.idChallenge(m.profile),
    { id: "c".repeat(24), poseId: "wink", expires: NOW },
  ]),
  idAttempt: deleted("a selfie being judged: withdrawn (its blob deleted) by the deletion", (m) => [
    keys.idAttempt("a".repeat(24)),
    { id: "a".repeat(24), profileId: m.profile, poseId: "wink", picIds: [], tsCreated: NOW, status: "OPEN" },
  ]),
  idAttemptsAll: PREFIX,
  idAttemptOf: deleted("the id of their selfie being judged", (m) => [keys.idAttemptOf(m.profile), "a".repeat(24)]),
  idAnswer: exported((m) => [keys.idAnswer("b".repeat(24), m.profile), { answer: m.marker, ts: NOW }]),
  idAnswersOf: PREFIX,
  idAssignment: deleted("a selfie dealt to them as a judge, minutes", (m) => [
    keys.idAssignment("b".repeat(24), m.profile),
    NOW,
  ]),
  idAssignmentsOf: PREFIX,
  idDayCount: deleted("a count of their selfies today", (m) => [keys.idDayCount(m.profile, 1), 1]),
  idSelfieHash: deleted("a perceptual hash of a selfie (not the picture)", (m) => [
    keys.idSelfieHash(m.profile, "a".repeat(24)),
    "00ff00ff00ff00ff",
  ]),
  idSelfieHashesOf: PREFIX,
  idSelfieHashesAll: PREFIX,
  idOutcome: exported((m) => [keys.idOutcome(m.profile, "a".repeat(24)), { outcome: m.marker, ts: NOW, by: "JUDGES" }]),
  idOutcomesOf: PREFIX,
  idDealtTo: deleted(
    "the selfie dealt to them as a judge, minutes",
    (m) => [keys.idDealtTo(m.profile), "c".repeat(24)],
  ),
  idJudgeScore: exported((m) => [keys.idJudgeScore(m.profile), { agree: 1, disagree: 0, note: m.marker }]),
  idOnlyVerified: deleted("a setting, exported as identify.onlyVerifiedMessages", (m) => [
    keys.idOnlyVerified(m.profile),
    true,
  ]),
  hotTest: exported((m) => [keys.hotTest("h".repeat(24)), {
    id: "h".repeat(24),
    ownerProfileId: m.profile,
    picIds: [m.marker, "p".repeat(24)],
    nsfw: false,
    status: "RUNNING",
    tsCreated: NOW,
    tsEnds: NOW + 86_400_000,
    tsDone: null,
    counted: {},
    careless: 0,
    skips: 0,
  }]),
  hotTestOf: deleted("the index of their tests (each shown with its result)", (m) => [
    keys.hotTestOf(m.profile, "h".repeat(24)),
    NOW,
  ]),
  hotTestsOf: PREFIX,
  hotCurrent: deleted("the id of their running test", (m) => [keys.hotCurrent(m.profile), "h".repeat(24)]),
  hotRunning: deleted("their running test in the voters' deal", (m) => [
    keys.hotRunning("h".repeat(24)),
    { owner: m.profile, tsEnds: NOW + 86_400_000 },
  ]),
  hotRunningAll: PREFIX,
  hotVote: exported((m) => [keys.hotVote("v".repeat(24), m.profile, "a+b"), {
    left: m.marker,
    right: "b",
    choice: "LEFT",
    counted: true,
    why: null,
    ts: NOW,
  }]),
  hotVotesOf: PREFIX,
  hotVotesAll: PREFIX,
  hotDeal: deleted("a pair dealt to them, a day", (m) => [
    keys.hotDeal(m.profile, "v".repeat(24)),
    { left: "a", right: "b", ts: NOW },
  ]),
  hotDealsOf: PREFIX,
  hotVoter: exported((m) => [keys.hotVoter(m.profile), { left: 1, right: 0, run: 1, runSide: "LEFT", note: m.marker }]),
  hotKeepBest: exported((m) => [keys.hotKeepBest(m.profile), {
    on: true,
    since: NOW,
    orderBefore: [m.marker],
    arms: {},
    sinceDecision: 0,
    moves: [],
  }]),
  healthPending: deleted("a health notice for them not shown yet (no sender in it)", (m) => [
    keys.healthPending(NOW, "hp1"),
    { recipient: m.profile, condition: "SYPHILIS", since: NOW, until: NOW },
  ]),
  healthPendingAll: PREFIX,
  healthNotice: exported((m) => [
    keys.healthNotice(m.profile, "hn1"),
    { id: "hn1", condition: m.marker, since: NOW, until: NOW },
  ]),
  healthNoticesOf: PREFIX,
  healthMonthCount: deleted(
    "the month's count of health reports they sent, for the limit: the export shows nothing of a report sent",
    (m) => [keys.healthMonthCount("2026-03", m.profile), new Deno.KvU64(1n)],
  ),
  healthMonthCounts: PREFIX,
  healthReportCount: deleted(
    "the count as kept before (moved by the next flush): the export shows nothing of a report sent",
    (m) => [keys.healthReportCount(m.profile, "2026-03"), 1],
  ),
  healthReportCountsAll: PREFIX,
  healthTotal: other("totals over all members, counts only"),
  conversationsOf: PREFIX,
  notificationCountsOf: PREFIX,
  notificationOnceOf: PREFIX,
  pushSentOf: PREFIX,
  profileLikesByLikedAll: PREFIX,
  profileLikesByLikerAll: PREFIX,
  picLikesByOwnerAll: PREFIX,
  picLikesByLikerAll: PREFIX,
  idDayCountsOf: PREFIX,
  gameCreditsDaysOf: PREFIX,
  gptVotesOf: PREFIX,
  arbVotesOf: PREFIX,
  spamPrintsBy: PREFIX,
  roleGrantsOf: PREFIX,
  all: PREFIX,
  readyProbe: other("read by the readiness check, never written"),
  dungeonStay: exported((m) => [
    keys.dungeonStay(m.profile, "s".repeat(24)),
    { id: "s".repeat(24), profileId: m.profile, reportId: "r1", reason: "rude", lines: [m.marker], until: NOW },
  ]),
  dungeonStaysOf: PREFIX,
  dungeonCurrent: deleted("the pointer to their stay in force (the stay is exported)", (m) => [
    keys.dungeonCurrent(m.profile),
    { stayId: "s".repeat(24), until: NOW },
  ]),
  dungeonCurrentAll: PREFIX,
  dungeonAppeal: deleted("an appeal waiting, an index of their stay (exported with it)", (m) => [
    keys.dungeonAppeal("s".repeat(24)),
    { profileId: m.profile, ts: NOW },
  ]),
  dungeonAppealsAll: PREFIX,
  dungeonWriteKey: deleted("a quiz or appeal's idempotency key, an index of their stay (exported with it)", (m) => [
    keys.dungeonWriteKey(m.profile, "k".repeat(32)),
    { stayId: "s".repeat(24), kind: "quiz" },
  ]),
  dungeonWriteKeysOf: PREFIX,
  jurorRecord: exported((m) => [keys.jurorRecord(m.profile), { agreed: 1, total: 2, note: m.marker }]),
  secretDevice: deleted("a device's public key material in secret chats: nothing readable to export", (m) => [
    keys.secretDevice(m.profile, "d1"),
    { deviceId: "d1", removed: false, tsCreated: NOW, accountId: m.account, sessionId: `s-${m.profile}` },
  ]),
  secretDevicesOf: PREFIX,
  secretDeviceBySession: deleted("the index of a device by its session", (m) => [
    keys.secretDeviceBySession(`s-${m.profile}`),
    { profileId: m.profile, deviceId: "d1" },
  ]),
  secretKeyPackage: deleted("a public one-time key of their device", (m) => [
    keys.secretKeyPackage(m.profile, "d1", "k1"),
    "public key package",
  ]),
  secretKeyPackagesOf: PREFIX,
  secretChat: deleted("a secret chat's members, devices and public protocol data", (m) => [
    keys.secretChat(`c-${m.profile}`),
    { id: `c-${m.profile}`, members: [m.profile, m.other] },
  ]),
  secretChatWith: deleted("the index of their secret chat with a member", (m) => [
    keys.secretChatWith(m.profile, m.other),
    `c-${m.profile}`,
  ]),
  secretChatsOf: PREFIX,
  secretMessage: deleted("ciphertext the server cannot read (the devices hold the texts)", (m) => [
    keys.secretMessage(`c-${m.profile}`, "x1"),
    { id: "x1", from: m.profile, ciphertext: "AAAA", commitment: "BBBB" },
  ]),
  secretMessagesIn: PREFIX,
  secretRead: deleted("how far they read a secret chat", (m) => [keys.secretRead(`c-${m.profile}`, m.profile), "x1"]),
  secretNotified: deleted("their unread secret-message notice of a chat", (m) => [
    keys.secretNotified(`c-${m.profile}`, m.profile),
    "n1",
  ]),
  secretPicture: deleted("an encrypted picture of their secret chat: its record (the blob goes with it)", (m) => [
    keys.secretPicture(`c-${m.profile}`, "p1"),
    { id: "p1", chatId: `c-${m.profile}`, ownerProfileId: m.profile, size: 64, tsCreated: NOW },
  ]),
  secretPicturesIn: PREFIX,
  secretReport: other("which secret message a verified report was about: kept with the report"),
  arbScored: other("the verdict a report's jury was counted against, removed with the report"),
};

Deno.test("member data - every key shape of kv/keys.ts is classified", () => {
  const unclassified = Object.keys(keys).filter((k) => !(k in CLASSES));
  assert.deepEqual(unclassified, [], "classify each new key in kv/memberData_test.ts");
  for (const [name, c] of Object.entries(CLASSES)) {
    assert.ok(name in keys, `${name} is classified but is not in kv/keys.ts`);
    if (c.kind === "prefix") {
      // A prefix is the start of a record's key: a record kind with the same collection exists.
      const fn = keys[name as keyof typeof keys] as (...a: string[]) => Key;
      assert.ok(typeof fn("a", "b", "c")[0] === "string", name);
    }
  }
});

const json = (v: unknown) => JSON.stringify(v, (_k, x) => typeof x === "bigint" ? String(x) : x);

kvTest("member data - the export shows, and the deletion removes, one record of every kind", async () => {
  const account = await createAccount({ email: "whole@example.com", name: "Whole", roles: ["USER"] });
  assert.ok(account);
  const base = { account: account.id, profile: account.defaultProfileId, email: account.email, other: "p-other" };
  const written: { name: string; key: Key; c: Class; marker: string }[] = [];
  for (const [name, c] of Object.entries(CLASSES)) {
    if (c.kind !== "exported" && c.kind !== "deleted") continue;
    const marker = `marker-${name}`;
    const [key, value] = c.make({ ...base, marker });
    await kv().set(key, value);
    written.push({ name, key, c, marker });
  }

  const data = await collectMemberData(account.id, { loadMaster, loadVariant });
  assert.ok(data);
  const text = json(data.json);
  const notShown = written.filter((w) =>
    w.c.kind === "exported" && !text.includes(w.marker) &&
    !(w.name === "presenceHidden" && (data.json as { presenceHidden: boolean }).presenceHidden) &&
    !(w.name === "gameCredits" && text.includes("4242"))
  );
  assert.deepEqual(notShown.map((w) => w.name), [], "records missing from the export");

  await startDeletion(account);
  for (let i = 0; i < 20 && (await deleteMemberStep(account.id)) !== null; i++);
  const left: string[] = [];
  for (const w of written) if ((await kv().get(w.key)).versionstamp) left.push(`${w.name} ${json(w.key)}`);
  assert.deepEqual(left, [], "records left after the deletion");
});
