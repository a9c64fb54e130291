/**
 * A member's data to download (GDPR Art. 15 and 20; sexual orientation and HIV status are
 * special-category data, Art. 9): `collectMemberData` gathers the account (without secrets),
 * profile, pictures (the master and every stored size), likes given, notes written, messages sent
 * and received, positions kept, notifications, sessions, push devices, passkeys, reports made,
 * moderation actions, credits, settings, contact-form messages, game verdicts and health notices
 * received; the export job zips it, keeps it as a blob for 24 h and mails a single-use link
 * (`recordExport`), which works only in the owner's session. Deleting it all is
 * kv/memberDeletion.ts; the scans both use are here.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { randomToken, sha256Hex } from "./ids.ts";
import { now } from "./clock.ts";
import { getAccount } from "./accounts.ts";
import { getProfile } from "./profiles.ts";
import { listSessions } from "./sessions.ts";
import { enqueueJob } from "./jobs.ts";
import { listPasskeys } from "./passkeys.ts";
import { listPushSubscriptions } from "./push.ts";
import { listNotifications } from "./notifications.ts";
import { listHealthNotices } from "./healthNotices.ts";
import { getOwnPosition } from "./positions/mod.ts";
import { getPics, type ProfilePic, type ServedPicture, storedSizes, type VariantKind } from "./pictures.ts";
import { getSafety } from "./safety.ts";
import { getCredits } from "./games/credits.ts";
import { listOutcomes, onlyVerifiedMessages } from "./games/identify.ts";
import { hotOrNotDataOf } from "./games/hotOrNot.ts";
import { listActions } from "./moderation.ts";
import type { Profile } from "../domain/shapes/profiles.ts";
import type { Message } from "../domain/shapes/messages.ts";
import type { Report } from "../domain/shapes/moderation.ts";
import { listStays } from "./games/dungeon.ts";

const DAY_MS = 24 * 3_600_000;
/** An export's link works once, for a day. */
export const EXPORT_TTL_MS = DAY_MS;

/** Every entry under `prefix` whose value passes `keep` (a full scan of that prefix). */
export async function scan<T>(prefix: Deno.KvKey, keep: (e: Deno.KvEntry<T>) => boolean): Promise<Deno.KvEntry<T>[]> {
  const out: Deno.KvEntry<T>[] = [];
  for await (const e of kv().list<T>({ prefix }, { batchSize: 500 })) if (keep(e)) out.push(e);
  return out;
}

/** Deletes keys in atomics of 100 (KV's limit is 1,000 mutations). */
export async function deleteKeys(list: Deno.KvKey[]): Promise<void> {
  for (let i = 0; i < list.length; i += 100) {
    const op = kv().atomic();
    for (const k of list.slice(i, i + 100)) op.delete(k);
    await op.commit();
  }
}

/** The keys of every entry under `prefix`. */
export const keysUnder = async (prefix: Deno.KvKey) => (await scan(prefix, () => true)).map((e) => e.key);
/** Does `value`, as JSON, name any of `ids`? */
export const mentions = (value: unknown, ids: readonly string[]) => {
  const text = JSON.stringify(value, (_k, v) => typeof v === "bigint" ? String(v) : v) ?? "";
  return ids.some((id) => text.includes(id));
};

// --- export

/** A file of the export: its path in the ZIP and its bytes. */
export interface ExportFile {
  path: string;
  bytes: Uint8Array;
}

/**
 * How the export reads a picture's bytes (workers/pictures.ts `loadMaster` and `loadVariant`: a
 * size the job has not stored yet is rendered, which is not the store's work).
 */
export interface PictureReader {
  loadMaster(pic: ProfilePic): Promise<ServedPicture | null>;
  loadVariant(pic: ProfilePic, kind: VariantKind): Promise<ServedPicture | null>;
}

/** Everything stored about a member: `data.json` and their pictures. Null when there is no account. */
export async function collectMemberData(
  accountId: string,
  { loadMaster, loadVariant }: PictureReader,
): Promise<{ json: unknown; files: ExportFile[] } | null> {
  const account = await getAccount(accountId);
  if (!account) return null;
  const profileId = account.defaultProfileId;
  const profile = await getProfile(profileId);
  const files: ExportFile[] = [];
  const pictures = [];
  for (const pic of await getPics([...(profile?.profilePicIds ?? []), ...(profile?.profilePicIdsPrivate ?? [])])) {
    pictures.push(picExport(pic, profile));
    const master = await loadMaster(pic).catch(() => null);
    if (master) files.push({ path: `pictures/${pic.id}/master.${ext(master.type)}`, bytes: master.bytes });
    for (const size of storedSizes(pic)) {
      const v = await loadVariant(pic, { size, blur: false }).catch(() => null);
      if (v) files.push({ path: `pictures/${pic.id}/${size}.${ext(v.type)}`, bytes: v.bytes });
    }
  }
  const { passwordHash: _secret, ...accountWithoutSecrets } = account;
  const messages = await messagesOf(profileId);
  const json = {
    exportedAt: new Date(now()).toISOString(),
    about: "Everything this app stores about you. Pictures are in the pictures/ folder, in every stored size.",
    account: { ...accountWithoutSecrets, hasPassword: account.passwordHash !== null },
    profile,
    pictures,
    likesGiven: { profiles: await likesGiven(profileId), pictures: await picLikesGiven(profileId) },
    notesWritten: (await scan<unknown>(keys.profileNotesBy(profileId), () => true)).map((e) => e.value),
    messages,
    mapChatPosts: (await scan<Message>(keys.all("broadcasts"), (e) => e.value.senderProfileId === profileId)).map((e) =>
      e.value
    ),
    position: await getOwnPosition(profileId),
    notifications: await listNotifications(profileId, 1000),
    sessions: (await listSessions(accountId)).map((s) => ({
      device: s.device,
      tsCreated: s.tsCreated,
      lastSeen: s.lastSeen,
      via: s.via ?? null,
    })),
    pushDevices: (await listPushSubscriptions(accountId)).map((s) => ({
      deviceName: s.deviceName,
      endpoint: s.endpoint,
      tsCreated: s.tsCreated,
    })),
    passkeys: (await listPasskeys(accountId)).map((p) => ({
      name: p.name,
      tsCreated: p.tsCreated,
      lastUsed: p.lastUsed,
    })),
    reportsMade: (await scan<Report>(keys.reportsAll(), (e) => e.value.reporterProfileId === profileId)).map((e) =>
      e.value
    ),
    moderationActions: await listActions(profileId),
    volunteerCredits: await getCredits(profileId),
    // The health notices they got (condition and window; no sender is stored). A health report
    // they sent is not here: their side keeps only the month's count for the limit.
    healthNotices: await listHealthNotices(profileId),
    safety: await getSafety(profileId),
    presenceHidden: (await kv().get(keys.presenceHidden(profileId))).value !== null,
    contactMessages: (await scan<{ accountId?: string; email?: string }>(
      keys.all("contact_messages"),
      (e) => e.value?.accountId === accountId || e.value?.email === account.email,
    )).map((e) => e.value),
    gameVerdicts: await gameVerdicts(profileId),
    // Bad Boy Dungeon: their time-outs (with their appeal), and their record as a juror.
    dungeon: {
      stays: await listStays(profileId),
      jurorRecord: (await kv().get(keys.jurorRecord(profileId))).value,
    },
    identify: {
      outcomes: await listOutcomes(profileId),
      verifiedPicIds: profile?.verifiedPicIds ?? null,
      onlyVerifiedMessages: await onlyVerifiedMessages(profileId),
      judgeScore: (await kv().get(keys.idJudgeScore(profileId))).value,
    },
    // Hot or Not: their tests with results (theirs alone), the votes they gave, their sides, the setting.
    hotOrNot: await hotOrNotDataOf(profileId),
  };
  return { json, files };
}

/** What the member gave in the games: verdicts on texts, reports and pictures, and crops suggested (given and received). */
async function gameVerdicts(profileId: string) {
  const values = async (prefix: Deno.KvKey, keep: (e: Deno.KvEntry<unknown>) => boolean, about: number) =>
    (await scan<unknown>(prefix, keep)).map((e) => ({ about: e.key[about], verdict: e.value }));
  return {
    gptBuster: await values(keys.all("gpt_votes"), (e) => e.key[2] === profileId, 1),
    ratingGame: await values(keys.ratingPlaysOf(profileId), () => true, 2),
    arbitration: await values(keys.all("arb_votes"), (e) => e.key[2] === profileId, 1),
    cropsSuggested: await values(keys.cropSuggestedBy(profileId), () => true, 2),
    cropsReceived: (await scan<unknown>(keys.cropSuggestionsOf(profileId), () => true)).map((e) => e.value),
    identify: await values(keys.all("id_answers"), (e) => e.key[2] === profileId, 1),
  };
}

function ext(type: string): string {
  return type.split("/")[1]?.replace("jpeg", "jpg") ?? "bin";
}

function picExport(pic: ProfilePic, profile: Profile | null) {
  return {
    id: pic.id,
    private: profile?.profilePicIdsPrivate.includes(pic.id) ?? false,
    nsfw: pic.nsfw,
    width: pic.width,
    height: pic.height,
    tsCreated: pic.tsCreated,
  };
}

async function likesGiven(profileId: string) {
  return (await scan<Record<string, unknown>>(keys.profileLikesAllBy(profileId), () => true)).map((e) => {
    // Where it sits in the lists, and when the liked member was last told of it, are the store's.
    const { seq: _, toldAt: __, ...like } = e.value;
    return like;
  });
}

async function picLikesGiven(profileId: string) {
  return (await scan<Record<string, unknown>>(keys.picLikesAllBy(profileId), () => true)).map((e) => {
    const { seq: _, ...like } = e.value;
    return like;
  });
}

/** Every message of every conversation of the member, sent and received, oldest first. */
async function messagesOf(profileId: string): Promise<Message[]> {
  const ids: string[] = [];
  for await (const e of kv().list<string>({ prefix: keys.conversationsOf(profileId) })) ids.push(e.value);
  const out: Message[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    for (const e of await kv().getMany<Message[]>(ids.slice(i, i + 10).map(keys.message))) {
      if (e.value) out.push(e.value);
    }
  }
  return out.sort((a, b) => a.tsCreated - b.tsCreated);
}

/** A ready export: the blob of its ZIP and whose it is; kept under the hash of its link's token. */
export interface ExportRecord {
  accountId: string;
  blobId: string;
  tsCreated: number;
}

/**
 * Records a ready export, with the job that removes its ZIP once its link has expired, in one
 * commit that holds only while the account exists and no deletion of it is under way (a deletion
 * removes the member's exports and jobs: none may be added behind it). Returns the single-use token
 * of its link, or null when the account is gone or going (the caller removes the ZIP).
 */
export async function recordExport(accountId: string, blobId: string): Promise<string | null> {
  const token = randomToken(32);
  const record: ExportRecord = { accountId, blobId, tsCreated: now() };
  const key = keys.dataExport(await sha256Hex(token));
  for (let attempt = 0; attempt < 5; attempt++) {
    const [account, deletion] = await kv().getMany([keys.account(accountId), keys.accountDeletion(accountId)]);
    if (!account.value || deletion.value) return null;
    const op = kv().atomic().check(account, deletion).set(key, record, { expireIn: EXPORT_TTL_MS });
    enqueueJob(op, { type: "account-export", accountId, expireBlob: blobId }, { delayMs: EXPORT_TTL_MS });
    if ((await op.commit()).ok) return token;
  }
  throw new Error("the export could not be recorded");
}

/** Takes a ready export by its token, once, for its owner only (null otherwise: unknown, used, expired, not theirs). */
export async function takeExport(token: string, accountId: string): Promise<ExportRecord | null> {
  if (!token || token.length > 100) return null;
  const entry = await kv().get<ExportRecord>(keys.dataExport(await sha256Hex(token)));
  const r = entry.value;
  if (!r || r.accountId !== accountId || now() - r.tsCreated > EXPORT_TTL_MS) return null;
  if (!(await kv().atomic().check(entry).delete(entry.key).commit()).ok) return null;
  return r;
}
