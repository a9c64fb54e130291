/**
 * Every key shape of the store. Collections are plural, then their index fields.
 * Entity modules in kv/ build keys only through these functions.
 */

export type Key = Deno.KvKey;

export const keys = {
  // --- accounts and sessions (kv/accounts.ts, kv/sessions.ts)
  account: (id: string): Key => ["accounts", id],
  accountByEmail: (email: string): Key => ["accounts_by_email", email],
  accountsByRole: (role: string, id: string): Key => ["accounts_by_role", role, id],
  /** Every account with one role (a list prefix). */
  accountsWithRole: (role: string): Key => ["accounts_by_role", role],
  roleCount: (role: string): Key => ["role_counts", role],
  /** A role granted for a while (kv/roles.ts): the VOLUNTEER role earned with credits; `until` in the value. */
  roleGrant: (accountId: string, role: string): Key => ["role_grants", accountId, role],
  session: (tokenHash: string): Key => ["sessions", tokenHash],
  sessionByAccount: (accountId: string, tokenHash: string): Key => ["sessions_by_account", accountId, tokenHash],
  sessionsByAccount: (accountId: string): Key => ["sessions_by_account", accountId],
  loginToken: (tokenHash: string): Key => ["login_tokens", tokenHash],
  // --- passkeys (kv/passkeys.ts)
  /** A passkey by its credential id (what an authenticator names at login). */
  passkey: (credentialId: string): Key => ["passkeys", credentialId],
  passkeyOf: (accountId: string, credentialId: string): Key => ["passkeys_by_account", accountId, credentialId],
  passkeysOf: (accountId: string): Key => ["passkeys_by_account", accountId],
  /** A WebAuthn challenge waiting for its answer, single use, a few minutes. */
  webauthnChallenge: (id: string): Key => ["webauthn_challenges", id],
  outbox: (id: string): Key => ["outbox", id],
  outboxAll: (): Key => ["outbox"],
  contactMessage: (id: string): Key => ["contact_messages", id],
  /**
   * Deno.KvU64 count of one rate-limit window (kv/ratelimit.ts). The window comes before `who` so
   * the windows that ended can be swept as one range (a summed key cannot carry `expireIn`).
   */
  rateLimitCount: (scope: string, window: number, who: string): Key => ["rate_limit_counts", scope, window, who],
  rateLimitCountsOf: (scope: string): Key => ["rate_limit_counts", scope],
  /** Where a member logged in before (kv/logintrust.ts): a keyed hash of the address, and device tokens' hashes. */
  loginKnownAddress: (accountId: string, addressHash: string): Key => ["login_known_addresses", accountId, addressHash],
  loginKnownAddresses: (accountId: string): Key => ["login_known_addresses", accountId],
  loginDevice: (accountId: string, tokenHash: string): Key => ["login_devices", accountId, tokenHash],
  loginDevices: (accountId: string): Key => ["login_devices", accountId],
  /** The generated key of the known-address hash. */
  loginTrustSecret: (): Key => ["config", "login_trust_secret"],
  /**
   * Where an account was made (kv/origins.ts): `{addrs, devices, firstLogin}`, a keyed hash of the
   * registration address and device tokens' hashes, never an address; deleted with the account.
   */
  accountOrigin: (accountId: string): Key => ["account_origins", accountId],

  // --- profiles (kv/profiles.ts)
  profile: (id: string): Key => ["profiles", id],
  profilesAll: (): Key => ["profiles"],

  // --- blobs and pictures (kv/blobs.ts)
  /** The manifest of a blob: written last, deleted first; its presence makes the blob visible. */
  blob: (id: string): Key => ["blobs", id],
  /** One chunk of one generation of a blob (a re-put writes a new generation). */
  blobChunk: (id: string, gen: string, n: number): Key => ["blob_chunks", id, gen, n],
  blobChunksOfGen: (id: string, gen: string): Key => ["blob_chunks", id, gen],
  blobChunksAll: (id: string): Key => ["blob_chunks", id],

  // --- messages (kv/messages.ts)
  message: (id: string): Key => ["messages", id],
  /**
   * The message a member's page sent with this idempotency key (a retry of a send returns it
   * instead of storing a second copy); kept for `SEND_KEY_TTL_MS`. Holds the member's data.
   */
  messageSendKey: (sender: string, key: string): Key => ["message_send_keys", sender, key],
  messageSendKeysOf: (sender: string): Key => ["message_send_keys", sender],
  /** One entry per message on each side of a conversation, ordered by message id (time). */
  conversationMessage: (me: string, other: string, id: string): Key => ["conversations", me, other, id],
  conversation: (me: string, other: string): Key => ["conversations", me, other],
  /** The latest message with each partner: "Your Conversations". */
  chat: (me: string, other: string): Key => ["chats", me, other],
  chatsOf: (me: string): Key => ["chats", me],
  broadcast: (sector: string, id: string): Key => ["broadcasts", sector, id],
  broadcastsIn: (sector: string): Key => ["broadcasts", sector],

  // --- notifications and push (kv/notifications.ts, kv/push.ts)
  notification: (profileId: string, id: string): Key => ["notifications", profileId, id],
  notificationsOf: (profileId: string): Key => ["notifications", profileId],
  /** Deno.KvU64: how many messages a conversation's one notification stands for. */
  notificationCount: (profileId: string, id: string): Key => ["notification_counts", profileId, id],
  /** `profileId` was told about `who` for `scope` (a profile like, a picture like) at the stored time. */
  notificationOnce: (profileId: string, scope: string, who: string): Key => [
    "notification_once",
    profileId,
    scope,
    who,
  ],
  /** When a member last had the app open (kv/presence.ts); kept 30 days. */
  presence: (profileId: string): Key => ["presence", profileId],
  /** A member who hides their online status (and so sees no one's). */
  presenceHidden: (profileId: string): Key => ["presence_hidden", profileId],
  /** A member's safety choices (kv/safety.ts). */
  safety: (profileId: string): Key => ["safety", profileId],
  // --- the member event bus (kv/events.ts)
  /** The events of one commit, keyed by its versionstamp: the log's order is the commit order. */
  eventLog: (at: string | symbol): Key => ["events_log", at],
  eventLogAll: (): Key => ["events_log"],
  /** Deno.KvU64 bumped by every event: the one key each instance watches. */
  eventsVersion: (): Key => ["events_version"],
  pushSubscription: (accountId: string, id: string): Key => ["push_subscriptions", accountId, id],
  pushSubscriptionsOf: (accountId: string): Key => ["push_subscriptions", accountId],
  /**
   * `true` while the member of `profileId` has a device to push to, written with every
   * subscription that comes or goes (kv/pushReach.ts): a like reads it with its other reads.
   */
  pushReachable: (profileId: string): Key => ["push_reachable", profileId],
  /** Every profile's push marker (kv/push.ts lists them once). */
  pushReachableAll: (): Key => ["push_reachable"],
  /** When every account's device got its `pushReachable` marker (kv/pushReach.ts); absent until then. */
  pushReachableMarked: (): Key => ["config", "push_reachable_marked"],
  vapidKeys: (): Key => ["config", "vapid_keys"],
  /** When a member's device was last pushed for one notification (a conversation's): at most one a minute (workers/push.ts). */
  pushSent: (profileId: string, notificationId: string): Key => ["push_sent", profileId, notificationId],
  /** The conversation a member has open and in view now (kv/presence.ts), kept a short while. */
  lookingAt: (profileId: string): Key => ["looking_at", profileId],

  // --- live feeds open on any instance (kv/feeds.ts): a lease row each, by member and by hashed address
  feedOfMember: (profileId: string, feedId: string): Key => ["feeds_by_member", profileId, feedId],
  feedsOfMember: (profileId: string): Key => ["feeds_by_member", profileId],
  feedAtAddress: (addressHash: string, feedId: string): Key => ["feeds_by_address", addressHash, feedId],
  feedsAtAddress: (addressHash: string): Key => ["feeds_by_address", addressHash],

  // --- jobs (workers/jobs.ts)
  job: (id: string): Key => ["jobs", id],
  /** A job's place in the queue: its priority band (0 first, kv/jobs.ts), then its due time. */
  jobDue: (priority: number, runAt: number, id: string): Key => ["jobs_due", priority, runAt, id],
  /** One priority band of the queue. (Entries written before bands, `["jobs_due", runAt, id]`, sort after every band.) */
  jobsDueIn: (priority: number): Key => ["jobs_due", priority],
  jobsDue: (): Key => ["jobs_due"],
  jobDead: (id: string): Key => ["jobs_dead", id],
  jobsDead: (): Key => ["jobs_dead"],
  jobSignal: (): Key => ["jobs_signal"],
  jobDone: (id: string): Key => ["jobs_done", id],

  // --- positions (kv/positions/mod.ts)
  /** A member's reported (true) position and shown-cell state: read only by its owner. */
  positionOwn: (profileId: string): Key => ["positions_own", profileId],
  positionsOwnAll: (): Key => ["positions_own"],
  /** The shown position of a visible member, indexed by its 1-degree sector. */
  positionShown: (sector: string, profileId: string): Key => ["positions_shown", sector, profileId],
  positionsShownInSector: (sector: string): Key => ["positions_shown", sector],
  positionsShownAll: (): Key => ["positions_shown"],
  /** The change log that instances tail; `at` is `kv.commitVersionstamp()` when written. */
  positionLog: (at: string | symbol): Key => ["positions_log", at],
  positionsLogAll: (): Key => ["positions_log"],
  /** Bumped (sum) by every position write; instances `watch` it to tail the log. */
  positionsVersion: (): Key => ["positions_version"],
  /** The generated secret of the shown-position hash when `GEO_SECRET` is unset. */
  positionsSecret: (): Key => ["positions_secret"],
  /** Which instance writes the next index snapshot (kv/positions/snapshot.ts), and until when. */
  positionsSnapshotLease: (): Key => ["positions_snapshot_lease"],
  /** When a process last began the sweep of expired own records (kv/positions/expiry.ts). */
  positionsSweptAt: (): Key => ["positions_swept_at"],

  // --- likes, notes, blocks, reports (kv/likes.ts, kv/notes.ts, kv/blocks.ts, kv/reports.ts)
  /** A profile like: one record per (liker, liked). */
  profileLike: (liker: string, liked: string): Key => ["profile_likes", liker, liked],
  /** Index of the likes a member gave, by type, newest first by `seq`. */
  profileLikeByLiker: (liker: string, type: string, seq: string, liked: string): Key => [
    "profile_likes_by_liker",
    liker,
    type,
    seq,
    liked,
  ],
  profileLikesByLiker: (liker: string, type: string): Key => ["profile_likes_by_liker", liker, type],
  /** Index of the likes a member received, by type, newest first by `seq`. */
  profileLikeByLiked: (liked: string, type: string, seq: string, liker: string): Key => [
    "profile_likes_by_liked",
    liked,
    type,
    seq,
    liker,
  ],
  profileLikesByLiked: (liked: string, type: string): Key => ["profile_likes_by_liked", liked, type],
  /**
   * Where like counts were kept before nothing read them (a profile's, a picture's): no longer
   * written; a member's deletion removes what older stores still hold there.
   */
  retiredProfileLikeCounts: (liked: string): Key => ["profile_like_counts", liked],
  retiredPicLikeCounts: (picId: string): Key => ["pic_like_counts", picId],
  /** A picture like: one record per (liker, picture). */
  picLike: (liker: string, picId: string): Key => ["pic_likes", liker, picId],
  picLikeByLiker: (liker: string, type: string, seq: string, picId: string): Key => [
    "pic_likes_by_liker",
    liker,
    type,
    seq,
    picId,
  ],
  picLikesByLiker: (liker: string, type: string): Key => ["pic_likes_by_liker", liker, type],
  /** Index of the likes on a profile's pictures, by the owner of the pictures. */
  picLikeByOwner: (owner: string, type: string, seq: string, liker: string, picId: string): Key => [
    "pic_likes_by_owner",
    owner,
    type,
    seq,
    liker,
    picId,
  ],
  picLikesByOwner: (owner: string, type: string): Key => ["pic_likes_by_owner", owner, type],
  /** `blocker` blocked `blocked`; mirrored by `blockedBy` in the same atomic. */
  block: (blocker: string, blocked: string): Key => ["blocks", blocker, blocked],
  blocksBy: (blocker: string): Key => ["blocks", blocker],
  blockedBy: (blocked: string, blocker: string): Key => ["blocked_by", blocked, blocker],
  blockedByAll: (blocked: string): Key => ["blocked_by", blocked],
  /** A private note of `author` about `about`. */
  profileNote: (author: string, about: string): Key => ["profile_notes", author, about],
  profileNotesBy: (author: string): Key => ["profile_notes", author],
  /** A report of a violation, for moderation; indexed by the reported profile. */
  report: (id: string): Key => ["reports", id],
  reportsAll: (): Key => ["reports"],
  reportByReported: (reported: string, id: string): Key => ["reports_by_reported", reported, id],
  reportsByReported: (reported: string): Key => ["reports_by_reported", reported],

  // --- a member's data: export and deletion (kv/memberData.ts)
  /** A ready export (ZIP blob and owner) under the hash of its single-use link's token; a day. */
  dataExport: (tokenHash: string): Key => ["data_exports", tokenHash],
  /** A deletion under way: its next step (the deletion job resumes there after a crash). */
  accountDeletion: (accountId: string): Key => ["account_deletions", accountId],
  /** The anonymous partner a deleted member's conversations move to (shown as "Deleted member"). */
  tombstone: (id: string): Key => ["tombstones", id],
  /** Every like a member gave (one record per liked profile / picture). */
  profileLikesAllBy: (liker: string): Key => ["profile_likes", liker],
  picLikesAllBy: (liker: string): Key => ["pic_likes", liker],

  // --- moderation (kv/moderation.ts) and spam (kv/spam.ts)
  /** An admin's action on a member (warning, suspension, ban), kept after it ends or is lifted. */
  modAction: (profileId: string, id: string): Key => ["mod_actions", profileId, id],
  modActionsOf: (profileId: string): Key => ["mod_actions", profileId],
  /** A member no one else sees: suspended, banned, or under review after reports (`kind`, `until`). */
  withdrawn: (profileId: string): Key => ["withdrawn", profileId],
  withdrawnAll: (): Key => ["withdrawn"],
  /** When an admin last looked at a member under review: reports before it no longer count. */
  reviewedAt: (profileId: string): Key => ["reviewed_at", profileId],
  /** What a member must see on their next page (a warning with its reason, or "under review"). */
  accountNotice: (accountId: string): Key => ["account_notices", accountId],
  /** The append-only audit log of admin (and automatic) moderation, time-ordered by id. */
  auditEntry: (id: string): Key => ["audit_log", id],
  auditAll: (): Key => ["audit_log"],
  /** An admin's note on a member's moderation page. */
  modNote: (profileId: string, id: string): Key => ["mod_notes", profileId, id],
  modNotesOf: (profileId: string): Key => ["mod_notes", profileId],
  /** The hash of a suspended or banned member's normalised email: registering again is refused. */
  bannedEmail: (hash: string): Key => ["banned_emails", hash],
  /** Spam: `sender` sent the text with this fingerprint as a first message to `recipient` (expires in an hour). */
  spamPrint: (sender: string, print: string, recipient: string): Key => ["spam_prints", sender, print, recipient],
  spamPrintsOf: (sender: string, print: string): Key => ["spam_prints", sender, print],
  /** Deno.KvU64: a member's first messages held as possible spam. */
  spamHeldCount: (profileId: string): Key => ["spam_held_counts", profileId],
  /** A member whose sending is paused until an admin looks (ten identical first messages in an hour). */
  sendingPaused: (profileId: string): Key => ["sending_paused", profileId],
  sendingPausedAll: (): Key => ["sending_paused"],

  // --- profiles and pictures (kv/profiles.ts, kv/pictures.ts)
  /** A picture's record (owner, flags, current generation); its bytes are blobs (see kv/pictures.ts). */
  pic: (id: string): Key => ["pics", id],
  /** `viewer` may see the private picture `picId` (it was sent to them in a chat message). */
  picGrant: (picId: string, viewer: string): Key => ["pic_grants", picId, viewer],
  picGrants: (picId: string): Key => ["pic_grants", picId],

  // --- games (kv/games/)
  /** Deno.KvU64: a member's volunteer credits, summed in the atomic of the game action that earns one. */
  gameCredits: (profileId: string): Key => ["game_credits", profileId],
  /** The credits a member earned on one UTC day (number): the daily cap, and the 30 days that make a volunteer. */
  gameCreditsDay: (profileId: string, day: number): Key => ["game_credits_day", profileId, day],
  /** GPT Buster: `voter`'s verdict on `profileId`'s text, once. */
  gptVote: (profileId: string, voter: string): Key => ["gpt_votes", profileId, voter],
  /** GPT Buster: the tally of a profile's votes `{human, machine}`. */
  gptTally: (profileId: string): Key => ["gpt_tallies", profileId],
  /** GPT Buster: profiles the community flagged, with their tally (kept in step with it). */
  gptFlagged: (profileId: string): Key => ["gpt_flagged", profileId],
  gptFlaggedAll: (): Key => ["gpt_flagged"],
  /**
   * The Rating Game: `voter` passed picture `picId` in the game: `{ts, judged}` (judged: Nice or Meh,
   * which earns its one credit; a Skip is not judged). A bare number is a judgement from before Skips.
   */
  ratingPlay: (voter: string, picId: string): Key => ["rating_plays", voter, picId],
  ratingPlaysOf: (voter: string): Key => ["rating_plays", voter],
  /** Community Arbitration: a report's tally and status. */
  arbCase: (reportId: string): Key => ["arb_cases", reportId],
  /** Community Arbitration: `voter`'s verdict on a report, once. */
  arbVote: (reportId: string, voter: string): Key => ["arb_votes", reportId, voter],
  arbVotesOf: (reportId: string): Key => ["arb_votes", reportId],
  /** Help my Photos: a crop suggested for one of `owner`'s pictures. */
  cropSuggestion: (owner: string, id: string): Key => ["crop_suggestions", owner, id],
  cropSuggestionsOf: (owner: string): Key => ["crop_suggestions", owner],
  /** Help my Photos: `suggester` suggested a crop for `picId` (once a picture). */
  cropSuggested: (suggester: string, picId: string): Key => ["crop_suggested", suggester, picId],
  cropSuggestedBy: (suggester: string): Key => ["crop_suggested", suggester],

  // --- 3 2 1 Identify (kv/games/identify.ts)
  /** The pose a member is asked to copy now: `{id, poseId, expires}`, single use, two minutes. */
  idChallenge: (profileId: string): Key => ["id_challenges", profileId],
  /** A selfie being judged (its bytes are the blob `identify-selfie:<id>`); deleted when decided. */
  idAttempt: (attemptId: string): Key => ["id_attempts", attemptId],
  idAttemptsAll: (): Key => ["id_attempts"],
  /** The id of a member's selfie being judged (one in flight). */
  idAttemptOf: (profileId: string): Key => ["id_attempt_of", profileId],
  /** A judge's answer on a selfie being judged; deleted with it. */
  idAnswer: (attemptId: string, judge: string): Key => ["id_answers", attemptId, judge],
  idAnswersOf: (attemptId: string): Key => ["id_answers", attemptId],
  /** A selfie dealt to a judge: only then may they see it (a few minutes). */
  idAssignment: (attemptId: string, judge: string): Key => ["id_assignments", attemptId, judge],
  idAssignmentsOf: (attemptId: string): Key => ["id_assignments", attemptId],
  /** How many selfies a member sent on one UTC day (number, two days). */
  idDayCount: (profileId: string, day: number): Key => ["id_day_counts", profileId, day],
  /** The perceptual hash of a selfie a member sent (hex): the same selfie again is refused. */
  idSelfieHash: (profileId: string, attemptId: string): Key => ["id_selfie_hashes", profileId, attemptId],
  idSelfieHashesOf: (profileId: string): Key => ["id_selfie_hashes", profileId],
  idSelfieHashesAll: (): Key => ["id_selfie_hashes"],
  /** What became of a member's selfie: `{outcome, ts, by}` (the selfie itself is gone). */
  idOutcome: (profileId: string, attemptId: string): Key => ["id_outcomes", profileId, attemptId],
  idOutcomesOf: (profileId: string): Key => ["id_outcomes", profileId],
  /** The selfie dealt to a judge now (its attempt id, as long as the deal): asking again deals the same one. */
  idDealtTo: (judge: string): Key => ["id_dealt_to", judge],
  /** A judge's answers that agreed and disagreed with the outcomes `{agree, disagree, recent}`. */
  idJudgeScore: (profileId: string): Key => ["id_judge_scores", profileId],
  /** A member who accepts messages only from verified members (true). */
  idOnlyVerified: (profileId: string): Key => ["id_only_verified", profileId],
  // --- Hot or Not (kv/games/hotOrNot.ts): results are the owner's alone
  /** A picture test: `{id, ownerProfileId, picIds, status, tsEnds, counts}` (member data of the owner). */
  hotTest: (testId: string): Key => ["hot_tests", testId],
  /** A member's tests, newest last (value: the test's start time). */
  hotTestOf: (owner: string, testId: string): Key => ["hot_tests_by_owner", owner, testId],
  hotTestsOf: (owner: string): Key => ["hot_tests_by_owner", owner],
  /** The test a member runs now (its id): one at a time. */
  hotCurrent: (owner: string): Key => ["hot_current", owner],
  /** The running tests voters are dealt from (value: `{owner, tsEnds}`); deleted when a test ends. */
  hotRunning: (testId: string): Key => ["hot_running", testId],
  hotRunningAll: (): Key => ["hot_running"],
  /** One voter's vote on one pair of a test (`pair`: the two picture ids sorted, joined by "+"): once. */
  hotVote: (testId: string, voter: string, pair: string): Key => ["hot_votes", testId, voter, pair],
  hotVotesOf: (testId: string): Key => ["hot_votes", testId],
  hotVotesAll: (): Key => ["hot_votes"],
  /** The pair dealt to a voter from one test `{left, right, ts}` (a day): a vote must answer it. */
  hotDeal: (voter: string, testId: string): Key => ["hot_deals", voter, testId],
  hotDealsOf: (voter: string): Key => ["hot_deals", voter],
  /** A voter's side counts and current run `{left, right, run, runSide}`: the lean correction and careless runs. */
  hotVoter: (voter: string): Key => ["hot_voters", voter],
  /** 'Keep my best picture first': `{on, since, orderBefore, arms, moves}` (the bandit's counts per picture). */
  hotKeepBest: (owner: string): Key => ["hot_keep_best", owner],
  // --- health notices (kv/healthNotices.ts): nothing here names who told whom
  /**
   * A notice waiting for its time, keyed only by when it becomes visible and a random id (never the
   * time it was sent, never its sender). Member data: the recipient's, in the value; deleted with
   * them; not in any export (the recipient does not see it yet, the sender must not).
   */
  healthPending: (visibleAt: number, rand: string): Key => ["health_pending", visibleAt, rand],
  healthPendingAll: (): Key => ["health_pending"],
  /** A visible notice of `recipient`: condition and window, no sender. Member data: the recipient's (exported, deleted). */
  healthNotice: (recipient: string, id: string): Key => ["health_notices", recipient, id],
  healthNoticesOf: (recipient: string): Key => ["health_notices", recipient],
  /**
   * How many reports `sender` sent in one UTC month ("2026-03"): a Deno.KvU64, no recipient, no
   * expiry, written only by the batched flush (kv/healthSpends.ts), which writes every count of the
   * month again each time, so its versionstamp says nothing of when its member sent. Month first: a
   * month's counts are one range. Member data of the sender kept only for the limit (not exported:
   * it is about a report; deleted with them; months before the previous one are deleted by the flush).
   */
  healthMonthCount: (month: string, sender: string): Key => ["health_month_counts", month, sender],
  healthMonthCounts: (month?: string): Key => month ? ["health_month_counts", month] : ["health_month_counts"],
  /**
   * The count as it was kept before (sender first, expiring 35 days after the send): read for the
   * limit until the first flush moves it into `healthMonthCount` and deletes it.
   */
  healthReportCount: (sender: string, month: string): Key => ["health_report_counts", sender, month],
  healthReportCountsAll: (): Key => ["health_report_counts"],
  /** Deno.KvU64 totals for admins ("reports", "notices", "abuse"): counts only, no member. */
  healthTotal: (name: string): Key => ["health_totals", name],
  // --- a member's part of a collection, and whole collections: what a member's data export and
  // deletion (kv/memberData.ts, kv/memberDeletion.ts) and the chaos checks (scripts/chaos.ts) scan
  conversationsOf: (profileId: string): Key => ["conversations", profileId],
  notificationCountsOf: (profileId: string): Key => ["notification_counts", profileId],
  notificationOnceOf: (profileId: string): Key => ["notification_once", profileId],
  pushSentOf: (profileId: string): Key => ["push_sent", profileId],
  profileLikesByLikedAll: (liked: string): Key => ["profile_likes_by_liked", liked],
  profileLikesByLikerAll: (liker: string): Key => ["profile_likes_by_liker", liker],
  picLikesByOwnerAll: (owner: string): Key => ["pic_likes_by_owner", owner],
  picLikesByLikerAll: (liker: string): Key => ["pic_likes_by_liker", liker],
  idDayCountsOf: (profileId: string): Key => ["id_day_counts", profileId],
  gameCreditsDaysOf: (profileId: string): Key => ["game_credits_day", profileId],
  gptVotesOf: (profileId: string): Key => ["gpt_votes", profileId],
  spamPrintsBy: (sender: string): Key => ["spam_prints", sender],
  roleGrantsOf: (accountId: string): Key => ["role_grants", accountId],
  /** Every key of one collection (its first key part, as the functions above write it). */
  all: (collection: Collection): Key => [collection],
  /** Read by the readiness check (kv/db.ts `pingKv`); never written. */
  readyProbe: (): Key => ["ready_probe"],
  // --- Bad Boy Dungeon (kv/games/dungeon.ts): time-outs after small violations
  /** One stay of a member (member data: exported, deleted with them), time-ordered by id. */
  dungeonStay: (profileId: string, stayId: string): Key => ["dungeon_stays", profileId, stayId],
  dungeonStaysOf: (profileId: string): Key => ["dungeon_stays", profileId],
  /** The stay in force: `{stayId, until}`, expiring a day after its end; what restricted actions read. */
  dungeonCurrent: (profileId: string): Key => ["dungeon_current", profileId],
  dungeonCurrentAll: (): Key => ["dungeon_current"],
  /** An appeal waiting for an admin: `{profileId, ts}`; deleted when decided. */
  dungeonAppeal: (stayId: string): Key => ["dungeon_appeals", stayId],
  dungeonAppealsAll: (): Key => ["dungeon_appeals"],
  /**
   * A quiz or appeal the member's page sent with this idempotency key: `{stayId, kind}`, so a
   * retry (queued offline, its answer lost) gets the first answer instead of a refusal; kept for
   * `SEND_KEY_TTL_MS` (kv/messages.ts). Deleted with the member.
   */
  dungeonWriteKey: (profileId: string, key: string): Key => ["dungeon_write_keys", profileId, key],
  dungeonWriteKeysOf: (profileId: string): Key => ["dungeon_write_keys", profileId],
  /** A juror's record against final verdicts `{agreed, total}` (their weight in the jury). */
  jurorRecord: (profileId: string): Key => ["juror_records", profileId],
  /** A report's jury counted in juror records, with the verdict it was counted against. */
  arbScored: (reportId: string): Key => ["arb_scored", reportId],

  // --- secret chats (kv/secretChats.ts): public key material and ciphertext only, never a text
  /** A member's device that takes part in secret chats: its id, the session it belongs to, whether it was removed. */
  secretDevice: (profileId: string, deviceId: string): Key => ["secret_devices", profileId, deviceId],
  secretDevicesOf: (profileId: string): Key => ["secret_devices", profileId],
  /** The secret-chat device of a session (so that ending the session removes the device). */
  secretDeviceBySession: (sessionId: string): Key => ["secret_devices_by_session", sessionId],
  /** One public MLS key package (a one-time key) of a device, taken once by whoever starts a chat with it. */
  secretKeyPackage: (profileId: string, deviceId: string, id: string): Key => [
    "secret_key_packages",
    profileId,
    deviceId,
    id,
  ],
  secretKeyPackagesOf: (profileId: string, deviceId: string): Key => ["secret_key_packages", profileId, deviceId],
  /** A secret conversation: its two members, their devices, its epoch and the Welcome each added device joins with. */
  secretChat: (id: string): Key => ["secret_chats", id],
  /** The secret chat of a member with another (one per pair), under each member. */
  secretChatWith: (me: string, other: string): Key => ["secret_chats_by_member", me, other],
  secretChatsOf: (me: string): Key => ["secret_chats_by_member", me],
  /** A secret message: ciphertext and franking commitment, ordered by id (time) within its chat. */
  secretMessage: (chatId: string, id: string): Key => ["secret_messages", chatId, id],
  secretMessagesIn: (chatId: string): Key => ["secret_messages", chatId],
  /** The newest message of a secret chat that `profileId` has read (its id): the other member's read receipts. */
  secretRead: (chatId: string, profileId: string): Key => ["secret_reads", chatId, profileId],
  /** The unread 'New secret message' notification of a chat for `profileId` (its id): one per chat until read. */
  secretNotified: (chatId: string, profileId: string): Key => ["secret_notified", chatId, profileId],
  /**
   * A picture sent in a secret chat: its record (owner, size, when), the encrypted bytes in a blob
   * (kv/secretChats.ts names it). The server cannot read it: the key is inside an MLS message.
   */
  secretPicture: (chatId: string, id: string): Key => ["secret_pictures", chatId, id],
  secretPicturesIn: (chatId: string): Key => ["secret_pictures", chatId],
  /** A report of a secret message whose franking verified: which message it was about. */
  secretReport: (reportId: string): Key => ["secret_reports", reportId],
};

/** The collections scanned whole (`keys.all`). */
export type Collection =
  | "accounts_by_role"
  | "arb_votes"
  | "broadcasts"
  | "contact_messages"
  | "conversations"
  | "crop_suggestions"
  | "data_exports"
  | "gpt_votes"
  | "id_answers"
  | "id_assignments"
  | "jobs"
  | "jobs_dead"
  | "jobs_done"
  | "login_tokens"
  | "looking_at"
  | "messages"
  | "notification_once"
  | "notifications"
  | "pic_grants"
  | "profile_likes"
  | "profile_likes_by_liked"
  | "profile_likes_by_liker"
  | "profile_notes"
  | "push_subscriptions"
  | "rate_limit_counts"
  | "role_counts"
  | "spam_prints"
  | "webauthn_challenges";
