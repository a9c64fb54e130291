/**
 * A member's deletion (GDPR Art. 17): `deleteMemberStep` runs one step of the deletion job at a
 * time, each idempotent, its progress stored, so a crash resumes where it stopped. Likes are
 * removed; messages the member sent are deleted and the other side's conversation is kept under
 * an anonymous partner ("Deleted member"); notes by and about them, Map Chat posts, pictures and
 * their blobs, positions, notifications, sessions, devices, passkeys, rate-limit counts, credits,
 * game votes, dungeon stays and juror records, health notices (received, waiting, and their monthly report count), reports they
 * made and the reports and moderation records about them go. Kept: the moderation audit log
 * (append-only) and, when they were suspended or banned, the hash of their mailbox (so a ban
 * cannot be evaded by deleting and registering again). The last step, run after the change logs'
 * lifetime, removes their ids from the position and event logs and the index snapshot.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import { type Account, getAccount } from "./accounts.ts";
import { forgetCachedProfile, getProfile, profileChanged } from "./profiles.ts";
import { endOtherSessions, endSessionsIn, sessionHandles } from "./sessions.ts";
import { enqueueJob } from "./jobs.ts";
import { listPasskeys } from "./passkeys.ts";
import { forgetLoginTrust } from "./logintrust.ts";
import { healthKeysOf } from "./healthNotices.ts";
import { dungeonKeysOf } from "./games/dungeon.ts";
import { decideAttempt, withdrawAttempt } from "./games/identify.ts";
import { hotOrNotKeysOf } from "./games/hotOrNot.ts";
import { deleteSecretPicturesOf, secretKeysOf } from "./secretChats.ts";
import { reportPosition } from "./positions/mod.ts";
import { deletePicture } from "./pictures.ts";
import { deleteBlob } from "./blobs.ts";
import { commitWithdrawal } from "./blocks.ts";
import { commitForgetting, forgetHere, forgetKept } from "./kept.ts";
import { SNAPSHOT_BLOB } from "./positions/snapshot.ts";
import type { Message } from "../domain/shapes/messages.ts";
import type { Report } from "../domain/shapes/moderation.ts";

import { deleteKeys, type ExportRecord, keysUnder, mentions, scan } from "./memberData.ts";

/** The last deletion step waits for the change logs (positions 15 min, events 10 min) to run out. */
export const LOG_PURGE_DELAY_MS = 16 * 60_000;

/** The steps of a deletion, in order. */
export const DELETION_STEPS = [
  "sessions",
  "pictures",
  "likes",
  "notes",
  "messages",
  "broadcasts",
  "games",
  "reports",
  "records",
  "account",
  "logs",
] as const;
export type DeletionStep = typeof DELETION_STEPS[number];

/** A deletion under way: whose, the anonymous partner id their conversations move to, the next step. */
export interface Deletion {
  accountId: string;
  profileId: string;
  email: string;
  tombstone: string;
  step: number;
  tsStarted: number;
}

/** Sessions ended in the deletion's own commit; an account with more has the rest ended right after it. */
const SESSIONS_IN_START = 200;

/**
 * Starts a deletion in one commit: the deletion's record, the member hidden from everyone, the
 * account's sessions ended, and the job that runs the deletion's steps (workers/memberData.ts).
 * Null when a deletion of the account is already under way.
 */
export async function startDeletion(account: Account): Promise<Deletion | null> {
  const d: Deletion = {
    accountId: account.id,
    profileId: account.defaultProfileId,
    email: account.email,
    tombstone: newId(),
    step: 0,
    tsStarted: now(),
  };
  const sessions = await sessionHandles(account.id);
  const op = kv().atomic()
    .check({ key: keys.accountDeletion(account.id), versionstamp: null })
    .set(keys.accountDeletion(account.id), d)
    .set(keys.withdrawn(account.defaultProfileId), { kind: "BAN", actionId: null, until: null, ts: now() });
  const ended = endSessionsIn(op, account.id, sessions.slice(0, SESSIONS_IN_START));
  enqueueJob(op, { type: "account-delete", accountId: account.id }, { maxAttempts: 20 });
  if (!(await commitWithdrawal(op)).ok) return null;
  forgetHere("session", ended);
  // The job's first step ends them too; a member with this many sessions should not wait for it.
  if (sessions.length > SESSIONS_IN_START) await endOtherSessions(account.id, "");
  return d;
}

/** The deletion of an account, if one is under way. */
export async function getDeletion(accountId: string): Promise<Deletion | null> {
  return (await kv().get<Deletion>(keys.accountDeletion(accountId))).value;
}

/**
 * Runs the next step of a deletion; returns the step run, or null when it is done. A step may be
 * run again after a crash: each is idempotent.
 */
export async function deleteMemberStep(accountId: string): Promise<DeletionStep | null> {
  const d = await getDeletion(accountId);
  if (!d || d.step >= DELETION_STEPS.length) return null;
  const step = DELETION_STEPS[d.step];
  await STEPS[step](d);
  if (step === "logs") await kv().delete(keys.accountDeletion(accountId));
  else await kv().set(keys.accountDeletion(accountId), { ...d, step: d.step + 1 });
  return step;
}

/** Whether the next step must wait (the logs step waits for the logs' lifetime). */
export function nextStepWaitsUntil(d: Deletion): number {
  return DELETION_STEPS[d.step] === "logs" ? d.tsStarted + LOG_PURGE_DELAY_MS : 0;
}

const MINUS_ONE = 0xffff_ffff_ffff_ffffn;

const STEPS: Record<DeletionStep, (d: Deletion) => Promise<void>> = {
  async sessions({ accountId, profileId, email }) {
    await endOtherSessions(accountId, "");
    await forgetLoginTrust(accountId);
    await deleteKeys([
      ...await keysUnder(keys.passkeysOf(accountId)),
      ...(await listPasskeys(accountId)).map((p) => keys.passkey(p.id)),
      ...await keysUnder(keys.pushSubscriptionsOf(accountId)),
      keys.pushReachable(profileId),
      ...await keysUnder(keys.notificationsOf(profileId)),
      ...await keysUnder(keys.notificationCountsOf(profileId)),
      ...await keysUnder(keys.notificationOnceOf(profileId)),
      ...await keysUnder(keys.pushSentOf(profileId)),
      keys.lookingAt(profileId),
      keys.presence(profileId),
      keys.presenceHidden(profileId),
      keys.safety(profileId),
      ...(await scan<{ accountId?: string }>(keys.all("login_tokens"), (e) => e.value?.accountId === accountId)).map((
        e,
      ) => e.key),
      ...(await scan<unknown>(keys.all("webauthn_challenges"), (e) => mentions(e.value, [accountId]))).map((e) =>
        e.key
      ),
      ...(await scan<{ to?: string }>(keys.outboxAll(), (e) => e.value?.to === email)).map((e) => e.key),
      // Others' notifications that point at them (a chat's link), with their counts, and the once-a-day marks.
      ...(await scan<unknown>(keys.all("notifications"), (e) => mentions(e.value, [profileId]))).flatMap((e) => [
        e.key,
        keys.notificationCount(e.key[1] as string, e.key[2] as string),
      ]),
      ...(await scan(keys.all("notification_once"), (e) => e.key[3] === profileId)).map((e) => e.key),
      // Others' open conversation with them.
      ...(await scan<unknown>(keys.all("looking_at"), (e) => mentions(e.value, [profileId]))).map((e) => e.key),
    ]);
    // Their push marker went with the devices: every instance forgets that they had one.
    await commitForgetting(kv().atomic(), "pushReach", [profileId]);
  },

  async pictures({ profileId }) {
    const profile = await getProfile(profileId);
    for (const id of [...(profile?.profilePicIds ?? []), ...(profile?.profilePicIdsPrivate ?? [])]) {
      await deletePicture(profileId, id);
      // The count of the picture's likes that older stores kept.
      await deleteKeys(await keysUnder(keys.retiredPicLikeCounts(id)));
    }
    // Grants to see others' private pictures.
    await deleteKeys((await scan(keys.all("pic_grants"), (e) => e.key[2] === profileId)).map((e) => e.key));
  },

  async likes({ profileId }) {
    // Likes given: the record and both indexes.
    for (
      const e of await scan<{ likedProfileId: string; likeType: string; seq: string }>(
        keys.profileLikesAllBy(profileId),
        () => true,
      )
    ) {
      const l = e.value;
      await kv().atomic().delete(e.key)
        .delete(keys.profileLikeByLiker(profileId, l.likeType, l.seq, l.likedProfileId))
        .delete(keys.profileLikeByLiked(l.likedProfileId, l.likeType, l.seq, profileId))
        .delete(keys.block(profileId, l.likedProfileId)).delete(keys.blockedBy(l.likedProfileId, profileId))
        .commit();
    }
    // Likes received: each liker's record and index.
    for (
      const e of await scan(keys.profileLikesByLikedAll(profileId), () => true)
    ) {
      // The row's key says who liked, the type and the place in their list.
      const [, , likeType, seq, liker] = e.key as string[];
      await kv().atomic().delete(e.key).delete(keys.profileLike(liker, profileId))
        .delete(keys.profileLikeByLiker(liker, likeType, seq, profileId))
        .delete(keys.block(liker, profileId)).delete(keys.blockedBy(profileId, liker))
        .commit();
    }
    // Picture likes given, and those received on their pictures.
    for (
      const e of await scan<{ profilePicId: string; profilePicProfileId: string; likeType: string; seq: string }>(
        keys.picLikesAllBy(profileId),
        () => true,
      )
    ) {
      const l = e.value;
      await kv().atomic().delete(e.key)
        .delete(keys.picLikeByLiker(profileId, l.likeType, l.seq, l.profilePicId))
        .delete(keys.picLikeByOwner(l.profilePicProfileId, l.likeType, l.seq, profileId, l.profilePicId))
        .commit();
    }
    for (
      const e of await scan<{ likerProfileId: string; profilePicId: string; likeType: string; seq: string }>(
        keys.picLikesByOwnerAll(profileId),
        () => true,
      )
    ) {
      const l = e.value;
      await kv().atomic().delete(e.key).delete(keys.picLike(l.likerProfileId, l.profilePicId))
        .delete(keys.picLikeByLiker(l.likerProfileId, l.likeType, l.seq, l.profilePicId))
        .commit();
    }
    await deleteKeys([
      ...await keysUnder(keys.profileLikesByLikerAll(profileId)),
      ...await keysUnder(keys.picLikesByLikerAll(profileId)),
      // The count of likes received that older stores kept.
      ...await keysUnder(keys.retiredProfileLikeCounts(profileId)),
      // Blocks both ways, each with its mirror (written in one atomic: kv/blocks.ts), read by their index.
      ...(await keysUnder(keys.blocksBy(profileId))).flatMap((k) => [k, keys.blockedBy(k[2] as string, profileId)]),
      ...(await keysUnder(keys.blockedByAll(profileId))).flatMap((k) => [k, keys.block(k[2] as string, profileId)]),
    ]);
  },

  async notes({ profileId }) {
    await deleteKeys([
      ...await keysUnder(keys.profileNotesBy(profileId)),
      ...(await scan(keys.all("profile_notes"), (e) => e.key[2] === profileId)).map((e) => e.key),
    ]);
  },

  async messages({ profileId, tombstone }) {
    for await (const chat of kv().list<{ messageId: string }>({ prefix: keys.chatsOf(profileId) })) {
      const other = chat.key[2] as string;
      const ids: string[] = [];
      for await (const e of kv().list<string>({ prefix: keys.conversation(profileId, other) })) ids.push(e.value);
      let latest: { messageId: string; tsCreated: number } | null = null;
      for (const id of ids) {
        const m = (await kv().get<Message>(keys.message(id))).value;
        const op = kv().atomic()
          .delete(keys.conversationMessage(profileId, other, id))
          .delete(keys.conversationMessage(other, profileId, id));
        if (m && m.senderProfileId === profileId) {
          // What they sent goes from both sides.
          op.delete(keys.message(id));
        } else if (m) {
          // What the other sent stays theirs, addressed to an anonymous "Deleted member".
          op.set(keys.message(id), { ...m, recipientProfileId: tombstone })
            .set(keys.conversationMessage(other, tombstone, id), id);
          if (!latest || m.tsCreated >= latest.tsCreated) latest = { messageId: id, tsCreated: m.tsCreated };
        }
        await op.commit();
      }
      // The other side's latest, read back (a run after a crash has seen only the messages left).
      const last =
        (await kv().list<string>({ prefix: keys.conversation(other, tombstone) }, { reverse: true, limit: 1 })
          .next()).value;
      const lastMessage = last ? (await kv().get<Message>(keys.message(last.value))).value : null;
      if (lastMessage && (!latest || lastMessage.tsCreated >= latest.tsCreated)) {
        latest = { messageId: lastMessage.id, tsCreated: lastMessage.tsCreated };
      }
      const op = kv().atomic().delete(chat.key).delete(keys.chat(other, profileId));
      if (latest) op.set(keys.chat(other, tombstone), latest);
      await op.commit();
    }
    await kv().set(keys.tombstone(tombstone), { deleted: true });
  },

  async broadcasts({ profileId }) {
    await deleteKeys(
      (await scan<Message>(keys.all("broadcasts"), (e) => e.value.senderProfileId === profileId)).map((e) => e.key),
    );
  },

  async games({ profileId }) {
    // A selfie being judged goes with its blob (attempts are found by owner: an orphan too).
    await withdrawAttempt(profileId);
    // The encrypted pictures of their secret chats (blobs), before the chats' records below.
    await deleteSecretPicturesOf(profileId);
    for (const e of await scan<{ profileId: string }>(keys.idAttemptsAll(), (e) => e.value.profileId === profileId)) {
      await decideAttempt(e.key[1] as string, "WITHDRAWN", "MEMBER");
      await kv().delete(e.key);
    }
    await deleteKeys([
      keys.idChallenge(profileId),
      keys.idAttemptOf(profileId),
      keys.idJudgeScore(profileId),
      keys.idDealtTo(profileId),
      keys.idOnlyVerified(profileId),
      ...await keysUnder(keys.idDayCountsOf(profileId)),
      ...await keysUnder(keys.idSelfieHashesOf(profileId)),
      ...await keysUnder(keys.idOutcomesOf(profileId)),
      ...(await scan(keys.all("id_answers"), (e) => e.key[2] === profileId)).map((e) => e.key),
      ...(await scan(keys.all("id_assignments"), (e) => e.key[2] === profileId)).map((e) => e.key),
      keys.gameCredits(profileId),
      ...await keysUnder(keys.gameCreditsDaysOf(profileId)),
      ...await keysUnder(keys.gptVotesOf(profileId)),
      ...(await scan(keys.all("gpt_votes"), (e) => e.key[2] === profileId)).map((e) => e.key),
      keys.gptTally(profileId),
      keys.gptFlagged(profileId),
      ...await keysUnder(keys.ratingPlaysOf(profileId)),
      ...(await scan(keys.all("arb_votes"), (e) => e.key[2] === profileId)).map((e) => e.key),
      ...await keysUnder(keys.cropSuggestionsOf(profileId)),
      ...(await scan<unknown>(keys.all("crop_suggestions"), (e) => mentions(e.value, [profileId]))).map((e) => e.key),
      ...await keysUnder(keys.cropSuggestedBy(profileId)),
      ...await healthKeysOf(profileId),
      ...await hotOrNotKeysOf(profileId),
      ...await dungeonKeysOf(profileId),
      ...await secretKeysOf(profileId),
    ]);
  },

  async reports({ profileId }) {
    const reports = await scan<Report>(
      keys.reportsAll(),
      (e) => e.value.reporterProfileId === profileId || e.value.reportedProfileId === profileId,
    );
    for (const e of reports) {
      await deleteKeys([
        e.key,
        keys.reportByReported(e.value.reportedProfileId, e.value.id),
        keys.arbCase(e.value.id),
        keys.arbScored(e.value.id),
        ...await keysUnder(keys.arbVotesOf(e.value.id)),
      ]);
    }
  },

  async records({ accountId, profileId, email }) {
    await reportPosition(profileId, { lat: 0, lon: 0, use: "OVERRIDE", hide: true }).catch(() => {});
    await deleteKeys([
      keys.positionOwn(profileId),
      ...await keysUnder(keys.modActionsOf(profileId)),
      ...await keysUnder(keys.modNotesOf(profileId)),
      keys.reviewedAt(profileId),
      keys.accountNotice(accountId),
      keys.spamHeldCount(profileId),
      ...await keysUnder(keys.messageSendKeysOf(profileId)),
      keys.sendingPaused(profileId),
      ...await keysUnder(keys.spamPrintsBy(profileId)),
      ...(await scan(keys.all("spam_prints"), (e) => e.key[3] === profileId)).map((e) => e.key),
      ...await keysUnder(keys.loginKnownAddresses(accountId)),
      ...await keysUnder(keys.loginDevices(accountId)),
      keys.accountOrigin(accountId),
      ...await keysUnder(keys.roleGrantsOf(accountId)),
      // A count's `who` is an id, an email, or one joined with an address ("id|address:...").
      ...(await scan(
        keys.all("rate_limit_counts"),
        (e) => [accountId, profileId, email].some((id) => String(e.key[3]).includes(id)),
      ))
        .map((e) => e.key),
      ...(await scan<unknown>(keys.all("contact_messages"), (e) => mentions(e.value, [accountId, profileId]))).map((
        e,
      ) => e.key),
      ...(await scan<unknown>(keys.jobsDead(), (e) => mentions(e.value, [accountId, profileId]))).map((e) => e.key),
    ]);
    // An export not downloaded yet: its ZIP and its link (its expiry job goes below).
    for (const e of await scan<ExportRecord>(keys.all("data_exports"), (e) => e.value?.accountId === accountId)) {
      await deleteBlob(e.value.blobId);
      await kv().delete(e.key);
    }
    // Jobs about them (mail, push) with their place in the queue; not this deletion's own job. An
    // export's expiry job removes its ZIP first (its record above may have expired before it).
    for (
      const e of await scan<{ id: string; job: { type: string; expireBlob?: string } }>(
        keys.all("jobs"),
        (e) => mentions(e.value, [accountId, profileId]),
      )
    ) {
      if (e.value.job.type === "account-delete") continue;
      if (e.value.job.type === "account-export" && e.value.job.expireBlob) await deleteBlob(e.value.job.expireBlob);
      await deleteKeys([e.key, ...(await scan(keys.jobsDue(), (d) => d.value === e.value.id)).map((d) => d.key)]);
    }
  },

  async account({ accountId, profileId, email }) {
    const account = await getAccount(accountId);
    const op = kv().atomic()
      .delete(keys.account(accountId))
      .delete(keys.accountByEmail(email))
      .delete(keys.profile(profileId))
      .delete(keys.withdrawn(profileId));
    for (const role of account?.roles ?? []) {
      op.delete(keys.accountsByRole(role, accountId)).sum(keys.roleCount(role), MINUS_ONE);
    }
    forgetKept(op, "account", [accountId]);
    profileChanged(op, profileId);
    await commitWithdrawal(op);
    forgetHere("account", [accountId]);
    forgetCachedProfile(profileId);
  },

  async logs({ accountId, profileId }) {
    const ids = [accountId, profileId];
    await deleteKeys([
      ...(await scan<unknown>(keys.positionsLogAll(), (e) => mentions(e.value, ids))).map((e) => e.key),
      ...(await scan<unknown>(keys.eventLogAll(), (e) => mentions(e.value, ids))).map((e) => e.key),
      ...(await scan<unknown>(keys.all("jobs_done"), (e) => mentions(e.value, ids))).map((e) => e.key),
    ]);
    // The index snapshot holds every visible member's id: the next one (within minutes) is written without them.
    await deleteBlob(SNAPSHOT_BLOB);
  },
};
