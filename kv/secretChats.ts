/**
 * Secret chats on the server: what it may keep of an end-to-end encrypted conversation. Per
 * device, the public half of its MLS key packages (one-time keys, a limited stock the device
 * replenishes); per conversation, its two members, their devices, the MLS epoch and the Welcome
 * each added device joins with (public protocol messages); per message, the ciphertext and its
 * franking commitment (domain/franking.ts). No private key and no text is ever given to it: a
 * seized store holds nothing a member wrote in a secret chat. A device belongs to one login
 * session: when the session ends (logout, 'log out elsewhere') the device is removed, its key
 * packages deleted and it is marked removed in its conversations.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import { addNotification, deleteNotification, NOTIFICATION_TTL_MS, notificationOf } from "./notifications.ts";
import { getSessionById } from "./sessions.ts";
import { addEvent } from "./events.ts";
import { saveReport } from "./reports.ts";
import { deleteBlob, getBlob, putBlob } from "./blobs.ts";
import { KEY_PACKAGE_STOCK, SECRET_TEXTS } from "../domain/secretChats.ts";
import type { Report } from "../domain/shapes/moderation.ts";
import type { SecretChat, SecretDevice, SecretMessage } from "../domain/shapes/secretChats.ts";
import { sharedRun } from "../domain/sharedRun.ts";

/** A device keeps at most this many unused key packages on the server (decided in domain/). */
export { KEY_PACKAGE_STOCK };
/** Messages of a secret chat per page. */
export const SECRET_MESSAGES_PAGE = 100;

/** A device as the store keeps it. */
interface StoredDevice extends SecretDevice {
  accountId: string;
  sessionId: string;
}

/** How many key packages a device has left. */
async function stockOf(profileId: string, deviceId: string): Promise<number> {
  let n = 0;
  for await (const _ of kv().list({ prefix: keys.secretKeyPackagesOf(profileId, deviceId) })) n++;
  return n;
}

/** A member's device, or null. */
export async function getDevice(profileId: string, deviceId: string): Promise<StoredDevice | null> {
  return (await kv().get<StoredDevice>(keys.secretDevice(profileId, deviceId))).value;
}

/**
 * Registers the caller's device for their session (again, harmlessly, on each page load), then
 * adds key packages up to the stock. "taken" when the id is another session's device, "removed"
 * when it was removed (a device whose session ended makes a new id).
 */
export async function registerDevice(
  who: { profileId: string; accountId: string; sessionId: string },
  deviceId: string,
  keyPackages: readonly string[],
): Promise<{ device: SecretDevice; stock: number } | "taken" | "removed"> {
  const old = await getDevice(who.profileId, deviceId);
  if (old && old.sessionId !== who.sessionId) return "taken";
  if (old?.removed) return "removed";
  const device: StoredDevice = old ?? {
    deviceId,
    profileId: who.profileId,
    accountId: who.accountId,
    sessionId: who.sessionId,
    tsCreated: now(),
    removed: false,
  };
  if (!old) {
    await kv().atomic()
      .check({ key: keys.secretDevice(who.profileId, deviceId), versionstamp: null })
      .set(keys.secretDevice(who.profileId, deviceId), device)
      .set(keys.secretDeviceBySession(who.sessionId), { profileId: who.profileId, deviceId })
      .commit();
  }
  const stock = await addKeyPackages(who.profileId, deviceId, keyPackages);
  return { device: publicDevice(device), stock };
}

/** Adds key packages to a device's stock, the extra ones beyond `KEY_PACKAGE_STOCK` left out; the stock after. */
export async function addKeyPackages(profileId: string, deviceId: string, keyPackages: readonly string[]) {
  const room = Math.max(0, KEY_PACKAGE_STOCK - await stockOf(profileId, deviceId));
  const add = keyPackages.slice(0, room);
  for (let i = 0; i < add.length; i += 10) {
    const op = kv().atomic();
    for (const kp of add.slice(i, i + 10)) op.set(keys.secretKeyPackage(profileId, deviceId, newId()), kp);
    await op.commit();
  }
  return await stockOf(profileId, deviceId);
}

const publicDevice = (d: StoredDevice): SecretDevice => ({
  deviceId: d.deviceId,
  profileId: d.profileId,
  tsCreated: d.tsCreated,
  removed: d.removed,
});

/** Is the device one of the member's, not removed, and its session still live? A device whose session ended is removed now. */
export async function deviceLive(profileId: string, deviceId: string): Promise<StoredDevice | null> {
  const d = await getDevice(profileId, deviceId);
  if (!d || d.removed) return null;
  if (!(await getSessionById(d.accountId, d.sessionId))) {
    await removeDevice(d);
    return null;
  }
  return d;
}

/** Removes a device: its key packages deleted, marked removed in it and in each of its member's secret chats. */
async function removeDevice(d: StoredDevice): Promise<void> {
  const op = kv().atomic();
  op.set(keys.secretDevice(d.profileId, d.deviceId), { ...d, removed: true });
  op.delete(keys.secretDeviceBySession(d.sessionId));
  await op.commit();
  const kps: Deno.KvKey[] = [];
  for await (const e of kv().list({ prefix: keys.secretKeyPackagesOf(d.profileId, d.deviceId) })) kps.push(e.key);
  for (let i = 0; i < kps.length; i += 10) {
    const del = kv().atomic();
    for (const k of kps.slice(i, i + 10)) del.delete(k);
    await del.commit();
  }
  for await (const e of kv().list<string>({ prefix: keys.secretChatsOf(d.profileId) })) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const chat = await kv().get<SecretChat>(keys.secretChat(e.value));
      if (!chat.value) break;
      const devices = chat.value.devices.map((x) =>
        x.profileId === d.profileId && x.deviceId === d.deviceId ? { ...x, removed: true } : x
      );
      const op = kv().atomic().check(chat).set(chat.key, { ...chat.value, devices });
      // The chat's open screens look at once: a device that stays removes it from the MLS group.
      addEvent(op, chat.value.members, { type: "secret", chatId: chat.value.id, what: "chat" });
      const res = await op.commit();
      if (res.ok) break;
    }
  }
}

/**
 * Each session's removal under way on this instance. A logout removes its session's device before
 * answering, and the instance's own "sessions ended" listener asks for the same removal: the
 * second asker waits for the first instead of both finding the device live and the later one
 * writing the chats again after the answer.
 */
const removing = new Map<string, Promise<void>>();

/** Removes the secret-chat devices of ended sessions (logout, 'log out elsewhere'). */
export async function removeDevicesOfSessions(sessionIds: readonly string[]): Promise<void> {
  for (const id of sessionIds) await sharedRun(removing, id, () => removeDeviceOfSession(id));
}

async function removeDeviceOfSession(sessionId: string): Promise<void> {
  const ref = (await kv().get<{ profileId: string; deviceId: string }>(keys.secretDeviceBySession(sessionId))).value;
  if (!ref) return;
  const d = await getDevice(ref.profileId, ref.deviceId);
  if (d && !d.removed) await removeDevice(d);
}

/** A member's live devices (those whose session ended are removed on the way). */
export async function liveDevices(profileId: string): Promise<StoredDevice[]> {
  const out: StoredDevice[] = [];
  for await (const e of kv().list<StoredDevice>({ prefix: keys.secretDevicesOf(profileId) })) {
    if (e.value.removed) continue;
    const d = await deviceLive(profileId, e.value.deviceId);
    if (d) out.push(d);
  }
  return out;
}

/**
 * Takes one key package of each of the member's live devices (each is used once: deleted as it is
 * taken), all in one atomic: when a device has none left or the member has no device, none is
 * taken (null: they cannot start one now), so a refused start uses up no other device's key.
 */
export async function claimKeyPackages(
  profileId: string,
): Promise<{ deviceId: string; keyPackage: string }[] | null> {
  const devices = await liveDevices(profileId);
  if (!devices.length) return null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const firsts = await Promise.all(
      devices.map(async (d) =>
        (await Array.fromAsync(
          kv().list<string>({ prefix: keys.secretKeyPackagesOf(profileId, d.deviceId) }, { limit: 1 }),
        ))[0]
      ),
    );
    if (firsts.some((e) => !e)) return null;
    const op = kv().atomic();
    for (const e of firsts) op.check(e!).delete(e!.key);
    if ((await op.commit()).ok) return devices.map((d, i) => ({ deviceId: d.deviceId, keyPackage: firsts[i]!.value }));
  }
  return null;
}

/** The secret chat of two members, or null. */
export async function secretChatBetween(me: string, other: string): Promise<SecretChat | null> {
  const id = (await kv().get<string>(keys.secretChatWith(me, other))).value;
  return id ? (await kv().get<SecretChat>(keys.secretChat(id))).value : null;
}

/** A secret chat by id, or null. */
export async function getSecretChat(id: string): Promise<SecretChat | null> {
  return (await kv().get<SecretChat>(keys.secretChat(id))).value;
}

/**
 * Stores a new secret chat of `starter` (on `starterDevice`) with `peer`, whose devices join with
 * the Welcome. A chat the pair had is replaced (a new start after devices changed); null when
 * another start won the race.
 */
export async function createSecretChat(input: {
  starter: string;
  starterDevice: string;
  peer: string;
  peerDevices: readonly string[];
  groupId: string;
  welcome: string;
  ratchetTree: string;
}): Promise<SecretChat | null> {
  const chat: SecretChat = {
    id: newId(),
    groupId: input.groupId,
    members: [input.starter, input.peer],
    devices: [
      { profileId: input.starter, deviceId: input.starterDevice, removed: false },
      ...input.peerDevices.map((deviceId) => ({ profileId: input.peer, deviceId, removed: false })),
    ],
    epoch: 1,
    welcome: input.welcome,
    ratchetTree: input.ratchetTree,
    startedBy: input.starter,
    tsCreated: now(),
    pending: [],
    joins: [],
  };
  const mine = await kv().get<string>(keys.secretChatWith(input.starter, input.peer));
  const theirs = await kv().get<string>(keys.secretChatWith(input.peer, input.starter));
  const op = kv().atomic()
    .check(mine, theirs)
    .set(keys.secretChat(chat.id), chat)
    .set(keys.secretChatWith(input.starter, input.peer), chat.id)
    .set(keys.secretChatWith(input.peer, input.starter), chat.id);
  // The other member's open conversation learns at once that a secret chat is there to open.
  addEvent(op, chat.members, { type: "secret", chatId: chat.id, what: "chat" });
  if (!(await op.commit()).ok) return null;
  // The chat it replaces can be read by no device any more: its pictures leave the server.
  if (mine.value) await deleteSecretPictures(mine.value);
  return chat;
}

/** The secret chats of a member, newest first. */
export async function listSecretChats(profileId: string): Promise<SecretChat[]> {
  const ids: string[] = [];
  for await (const e of kv().list<string>({ prefix: keys.secretChatsOf(profileId) })) ids.push(e.value);
  const out: SecretChat[] = [];
  for (let i = 0; i < ids.length; i += 10) {
    for (const e of await kv().getMany<SecretChat[]>(ids.slice(i, i + 10).map(keys.secretChat))) {
      if (e.value) out.push(e.value);
    }
  }
  return out.sort((a, b) => b.tsCreated - a.tsCreated);
}

/**
 * Stores a secret message (ciphertext and commitment), and tells the other member with a
 * notification (not for a control: a request from one device to the others, e.g. unsend) that says only 'New secret message', in the reader's language (it may show on a lock screen).
 */
export async function addSecretMessage(
  chat: SecretChat,
  sender: { profileId: string; deviceId: string },
  ciphertext: string,
  commitment: string,
  epoch: number,
  kind: "text" | "control" = "text",
): Promise<SecretMessage> {
  const m: SecretMessage = {
    id: newId(),
    chatId: chat.id,
    senderProfileId: sender.profileId,
    senderDeviceId: sender.deviceId,
    ciphertext,
    commitment,
    epoch,
    tsCreated: now(),
    kind,
  };
  const recipient = chat.members.find((p) => p !== sender.profileId)!;
  for (let attempt = 0; attempt < 5; attempt++) {
    const op = kv().atomic().check({ key: keys.secretMessage(chat.id, m.id), versionstamp: null })
      .set(keys.secretMessage(chat.id, m.id), m);
    // Both members' open secret screens (the sender's other devices too) fetch it at once.
    addEvent(op, chat.members, { type: "secret", chatId: chat.id, what: "message" });
    // One notification per chat until the member reads it (as conversations have one each). A
    // control (a device's request to another: unsend, viewed) is no new message: no notification.
    const notified = await kv().get<string>(keys.secretNotified(chat.id, recipient));
    if (!notified.value && kind === "text") {
      const note = addNotification(op, recipient, notificationOf("secretMessage", "/chat/personal"));
      op.check(notified).set(notified.key, note.id, { expireIn: NOTIFICATION_TTL_MS });
    }
    if ((await op.commit()).ok) return m;
  }
  throw new Error("secret message not stored");
}

/** Adds a member's device to the chat's join requests (once); null when the chat changed meanwhile too often. */
export async function requestJoin(chatId: string, profileId: string, deviceId: string): Promise<SecretChat | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv().get<SecretChat>(keys.secretChat(chatId));
    if (!entry.value) return null;
    const chat = entry.value;
    if (chat.pending.some((d) => d.deviceId === deviceId)) return chat;
    const next = { ...chat, pending: [...chat.pending, { profileId, deviceId, removed: false }] };
    const op = kv().atomic().check(entry).set(entry.key, next);
    // The member's devices already in the chat show the request at once.
    addEvent(op, [profileId], { type: "secret", chatId, what: "chat" });
    if ((await op.commit()).ok) return next;
  }
  return null;
}

/** Takes one key package of a device (each used once); null when it has none left. */
export async function claimKeyPackageOf(profileId: string, deviceId: string): Promise<string | null> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const [first] = await Array.fromAsync(
      kv().list<string>({ prefix: keys.secretKeyPackagesOf(profileId, deviceId) }, { limit: 1 }),
    );
    if (!first) return null;
    if ((await kv().atomic().check(first).delete(first.key).commit()).ok) return first.value;
  }
  return null;
}

/** An MLS commit a device sent to the chat (the other devices apply it in order), as a message of the chat. */
function commitMessage(
  chatId: string,
  sender: { profileId: string; deviceId: string },
  commit: string,
  epoch: number,
): SecretMessage {
  return {
    id: newId(),
    chatId,
    senderProfileId: sender.profileId,
    senderDeviceId: sender.deviceId,
    ciphertext: commit,
    commitment: "",
    epoch,
    tsCreated: now(),
    kind: "commit",
  };
}
/**
 * A device of the chat added a pending device of the same member: the commit goes into the chat's
 * messages (the other devices apply it in order), the device joins the chat with its Welcome.
 * Null when the chat changed meanwhile (another approval won).
 */
export async function approveDevice(
  chat: SecretChat,
  approver: { profileId: string; deviceId: string },
  added: string,
  commit: string,
  welcome: string,
  ratchetTree: string,
  epoch: number,
): Promise<{ chat: SecretChat; message: SecretMessage } | null> {
  const entry = await kv().get<SecretChat>(keys.secretChat(chat.id));
  if (!entry.value) return null;
  const m = commitMessage(chat.id, approver, commit, epoch);
  const next: SecretChat = {
    ...entry.value,
    epoch,
    devices: [...entry.value.devices, { profileId: approver.profileId, deviceId: added, removed: false }],
    pending: entry.value.pending.filter((d) => d.deviceId !== added),
    joins: [...entry.value.joins, { deviceId: added, welcome, ratchetTree, after: m.id }],
  };
  const op = kv().atomic().check(entry)
    .check({ key: keys.secretMessage(chat.id, m.id), versionstamp: null })
    .set(entry.key, next)
    .set(keys.secretMessage(chat.id, m.id), m);
  addEvent(op, next.members, { type: "secret", chatId: chat.id, what: "chat" });
  const res = await op.commit();
  return res.ok ? { chat: next, message: m } : null;
}

/**
 * A device of the chat removed devices whose sessions ended from the MLS group (a commit of Remove
 * proposals): the commit goes into the chat's messages (the other devices apply it in order) and
 * the devices are marked evicted. Null when the chat moved on meanwhile (another device's commit
 * won: the caller applies it and looks again).
 */
export async function evictDevices(
  chat: SecretChat,
  remover: { profileId: string; deviceId: string },
  evicted: readonly string[],
  commit: string,
  epoch: number,
): Promise<{ chat: SecretChat; message: SecretMessage } | null> {
  const entry = await kv().get<SecretChat>(keys.secretChat(chat.id));
  if (!entry.value || entry.value.epoch + 1 !== epoch) return null;
  const m = commitMessage(chat.id, remover, commit, epoch);
  const next: SecretChat = {
    ...entry.value,
    epoch,
    devices: entry.value.devices.map((d) => evicted.includes(d.deviceId) ? { ...d, evicted: true } : d),
  };
  const op = kv().atomic().check(entry)
    .check({ key: keys.secretMessage(chat.id, m.id), versionstamp: null })
    .set(entry.key, next)
    .set(keys.secretMessage(chat.id, m.id), m);
  addEvent(op, next.members, { type: "secret", chatId: chat.id, what: "chat" });
  return (await op.commit()).ok ? { chat: next, message: m } : null;
}

/** A chat's messages after `after` (an id), oldest first, at most a page. */
export async function listSecretMessages(chatId: string, after?: string): Promise<SecretMessage[]> {
  const out: SecretMessage[] = [];
  const prefix = keys.secretMessagesIn(chatId);
  const selector = after ? { prefix, start: [...prefix, after + "\u0000"] } : { prefix };
  for await (const e of kv().list<SecretMessage>(selector, { limit: SECRET_MESSAGES_PAGE })) out.push(e.value);
  return out;
}

/**
 * Marks the chat read by `profileId` up to message `id` (a receipt only moves forward); the
 * chat's members (`tell`: the sender's open screen shows the receipt) learn of it live.
 */
export async function markSecretRead(
  chatId: string,
  profileId: string,
  id: string,
  tell: readonly string[] = [],
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const old = await kv().get<string>(keys.secretRead(chatId, profileId));
    if (old.value && old.value >= id) return;
    const op = kv().atomic().check(old).set(old.key, id);
    if (tell.length) addEvent(op, tell, { type: "secret", chatId, what: "read" });
    if ((await op.commit()).ok) break;
  }
  // Read: the chat's notification goes, as a read conversation's does.
  const notified = await kv().get<string>(keys.secretNotified(chatId, profileId));
  if (notified.value) {
    await deleteNotification(profileId, notified.value);
    await kv().atomic().check(notified).delete(notified.key).commit();
  }
}

/** Those of `partners` with whom `me` has a secret chat (for the conversations list's marker). */
export async function secretChatPartners(me: string, partners: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  // getMany reads at most 10 keys at once.
  for (let i = 0; i < partners.length; i += 10) {
    const batch = partners.slice(i, i + 10);
    const found = await kv().getMany<string[]>(batch.map((p) => keys.secretChatWith(me, p)));
    found.forEach((e, j) => e.value && out.push(batch[j]!));
  }
  return out;
}

/** The newest message of the chat that `profileId` has read, or null. */
export async function secretReadUpTo(chatId: string, profileId: string): Promise<string | null> {
  return (await kv().get<string>(keys.secretRead(chatId, profileId))).value;
}

/** One secret message, or null. */
export async function getSecretMessage(chatId: string, id: string): Promise<SecretMessage | null> {
  return (await kv().get<SecretMessage>(keys.secretMessage(chatId, id))).value;
}

/**
 * Files the report of a secret message whose franking verified: the admin queue shows the text
 * the reporter revealed, marked as verified, and which message it was about is kept beside it.
 */
export async function saveSecretReport(
  reporter: string,
  m: SecretMessage,
  reason: string,
  text: string,
): Promise<Report> {
  const r = await saveReport(reporter, m.senderProfileId, reason, `${SECRET_TEXTS.verifiedReportPrefix} ${text}`);
  await kv().set(keys.secretReport(r.id), { chatId: m.chatId, messageId: m.id, verified: true });
  return r;
}

/**
 * Every secret-chat record of a member, for their account's deletion: their devices with each
 * device's session index and key packages, and each chat they are in with its ciphertext, reads
 * and notices, under both members. The server can read none of it, so the export shows none:
 * the decrypted copies live on the members' devices.
 */
export async function secretKeysOf(profileId: string): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [];
  for await (const e of kv().list<StoredDevice>({ prefix: keys.secretDevicesOf(profileId) })) {
    out.push(e.key, keys.secretDeviceBySession(e.value.sessionId));
    for await (const p of kv().list({ prefix: keys.secretKeyPackagesOf(profileId, e.value.deviceId) })) out.push(p.key);
  }
  for await (const e of kv().list<string>({ prefix: keys.secretChatsOf(profileId) })) {
    const other = e.key[2] as string, chatId = e.value;
    out.push(e.key, keys.secretChatWith(other, profileId), keys.secretChat(chatId));
    for (const who of [profileId, other]) out.push(keys.secretRead(chatId, who), keys.secretNotified(chatId, who));
    for await (const m of kv().list({ prefix: keys.secretMessagesIn(chatId) })) out.push(m.key);
    // Their blobs go first (deleteSecretPicturesOf); a record left by a crash in between goes here.
    for await (const p of kv().list({ prefix: keys.secretPicturesIn(chatId) })) out.push(p.key);
  }
  return out;
}

// --- pictures: encrypted on the sender's device, stored as opaque blobs

/** A picture sent in a secret chat, as the store keeps it: whose, how big, when; never its key. */
export interface SecretPicture {
  id: string;
  chatId: string;
  ownerProfileId: string;
  size: number;
  tsCreated: number;
}

/** A secret chat keeps at most this many pictures on the server. */
export const SECRET_PICTURES_PER_CHAT = 500;

/** The blob that holds a secret picture's encrypted bytes. */
export const secretPictureBlobId = (chatId: string, id: string): string => `secret-pic-${chatId}-${id}`;

/**
 * Stores a picture's encrypted bytes (opaque: AES-GCM under a key that travels inside an MLS
 * message, domain/secretPictures.ts) for a chat: the blob first, its record last, so a picture is
 * visible only once whole. Null when the chat holds `SECRET_PICTURES_PER_CHAT` already.
 */
export async function addSecretPicture(
  chatId: string,
  ownerProfileId: string,
  bytes: Uint8Array,
): Promise<SecretPicture | null> {
  let n = 0;
  for await (const _ of kv().list({ prefix: keys.secretPicturesIn(chatId) })) n++;
  if (n >= SECRET_PICTURES_PER_CHAT) return null;
  const p: SecretPicture = { id: newId(), chatId, ownerProfileId, size: bytes.byteLength, tsCreated: now() };
  await putBlob(secretPictureBlobId(chatId, p.id), bytes, { type: "application/octet-stream" });
  await kv().set(keys.secretPicture(chatId, p.id), p);
  return p;
}

/** A secret picture's record, or null. */
export async function getSecretPicture(chatId: string, id: string): Promise<SecretPicture | null> {
  return (await kv().get<SecretPicture>(keys.secretPicture(chatId, id))).value;
}

/** A secret picture's encrypted bytes, or null. */
export async function secretPictureBytes(p: SecretPicture): Promise<Uint8Array | null> {
  return (await getBlob(secretPictureBlobId(p.chatId, p.id)))?.bytes ?? null;
}

/** Deletes one secret picture: its record first (a reader finds none at once), then its blob. */
export async function deleteSecretPicture(p: SecretPicture): Promise<void> {
  await kv().delete(keys.secretPicture(p.chatId, p.id));
  await deleteBlob(secretPictureBlobId(p.chatId, p.id));
}

/**
 * Deletes the pictures of a chat, or only those `owner` sent: the record first (a reader finds
 * none at once), then the blob. How many went.
 */
export async function deleteSecretPictures(chatId: string, owner?: string): Promise<number> {
  let n = 0;
  for await (const e of kv().list<SecretPicture>({ prefix: keys.secretPicturesIn(chatId) })) {
    if (owner && e.value.ownerProfileId !== owner) continue;
    await deleteSecretPicture(e.value);
    n++;
  }
  return n;
}

/** Deletes every picture of every secret chat of a member (their account's deletion): both members' pictures. */
export async function deleteSecretPicturesOf(profileId: string): Promise<void> {
  for await (const e of kv().list<string>({ prefix: keys.secretChatsOf(profileId) })) {
    await deleteSecretPictures(e.value);
  }
}

/**
 * A member deleted their conversation with `other`: the pictures they sent in their secret chat
 * leave the server (the devices that opened them keep what they decrypted).
 */
export async function deleteMySecretPicturesWith(me: string, other: string): Promise<number> {
  const id = (await kv().get<string>(keys.secretChatWith(me, other))).value;
  return id ? await deleteSecretPictures(id, me) : 0;
}
