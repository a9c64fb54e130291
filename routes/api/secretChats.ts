/**
 * Secret chats (docs/secret-chats.md): end-to-end encrypted 1:1 conversations. The server keeps
 * per-device public MLS key packages, the conversation's members and devices, and ciphertexts with
 * their franking commitments; it never receives a private key or a text, except the text a member
 * reveals in a report, which it files only when the commitment verifies. Every call checks that
 * the caller is the device's member (and the device is their current session's) or the chat's.
 *
 * - `POST /api/secret/devices` registers the caller's device with key packages;
 *   `POST /api/secret/devices/:deviceId/key-packages` replenishes its stock.
 * - `POST /api/secret/key-packages/claim` takes one key package of each of the other member's devices.
 * - `POST /api/secret/chats` stores a started chat; `GET /api/secret/chats` lists the caller's.
 * - `GET|POST /api/secret/chats/:chatId/messages` reads and sends ciphertexts (with the other's read
 *   receipt); `POST /api/secret/chats/:chatId/read` marks the received messages read.
 * - `POST /api/secret/chats/:chatId/messages/:messageId/report` reveals a text and its franking key.
 * - A member's later device asks to join (`POST .../join`); a device of theirs already in the chat
 *   takes its key package (`POST .../pending/:deviceId/key-package`) and adds it with an MLS commit
 *   (`POST .../approve`): the approval happens on a device the member already trusts.
 */

import { Hono } from "hono";
import type { AppEnv } from "../env.ts";
import { ApiError, badRequest, conflict, forbidden, notFound, tooMany } from "../errors.ts";
import { bodyOf, bytesOf, idParam, queryOf } from "../validate.ts";
import { ownTowards } from "../policy.ts";
import { clientAddress, requireCaller } from "../middleware.ts";
import { answer } from "../answer.ts";
import { hit, hitNewMember } from "../../kv/ratelimit.ts";
import { sendingPause } from "../../kv/moderation.ts";
import { isBlockedEither } from "../../kv/blocks.ts";
import { hasConversation } from "../../kv/messages.ts";
import { getProfile, isVerified } from "../../kv/profiles.ts";
import { onlyVerifiedMessages } from "../../kv/games/identify.ts";
import { MODERATION_TEXTS } from "../../domain/moderation.ts";
import { VERIFIED_TEXTS } from "../../domain/verified.ts";
import { onSessionsEnded } from "../../kv/sessions.ts";
import { reviewIfReported } from "../../kv/moderation.ts";
import {
  addKeyPackages,
  addSecretMessage,
  addSecretPicture,
  approveDevice,
  claimKeyPackageOf,
  claimKeyPackages,
  createSecretChat,
  deleteSecretPicture,
  deviceLive,
  evictDevices,
  getSecretChat,
  getSecretMessage,
  getSecretPicture,
  listSecretChats,
  listSecretMessages,
  markSecretRead,
  registerDevice,
  removeDevicesOfSessions,
  requestJoin,
  saveSecretReport,
  secretPictureBytes,
  secretReadUpTo,
} from "../../kv/secretChats.ts";
import { frankingVerifies, fromBase64 } from "../../domain/franking.ts";
import { SECRET_TEXTS } from "../../domain/secretChats.ts";
import type { SecretChat } from "../../domain/shapes/secretChats.ts";
import type { Caller } from "../env.ts";
import { firstUse } from "../../domain/firstUse.ts";

/** The MLS cipher suite secret chats use (islands/secret/mls.ts). */
const CIPHER_SUITE = "MLS_128_DHKEMX25519_AES128GCM_SHA256_Ed25519";

/** ts-mls, loaded at the first key packages checked (domain/firstUse.ts): most processes never see one. */
const mls = firstUse(() => import("ts-mls"));

/** A secret picture's bytes are the members' alone: never kept by a cache, never sniffed as a type. */
const NO_STORE = { "Cache-Control": "no-store, private", "X-Content-Type-Options": "nosniff" };

/**
 * Is this base64 an MLS key package of the app's cipher suite whose credential names this member's
 * device? A device cannot hand out keys in another member's or device's name.
 */
async function keyPackageOf(b64text: string, profileId: string, deviceId: string): Promise<boolean> {
  const bytes = fromBase64(b64text);
  let m;
  try {
    m = bytes && (await mls.load()).decodeMlsMessage(bytes, 0)?.[0];
  } catch {
    return false;
  }
  if (!m || m.wireformat !== "mls_key_package") return false;
  const cred = m.keyPackage.leafNode.credential;
  return m.keyPackage.cipherSuite === CIPHER_SUITE && cred.credentialType === "basic" &&
    new TextDecoder().decode(cred.identity) === `${profileId}/${deviceId}`;
}

/** Refuses key packages that are not the caller's device's. */
async function checkKeyPackages(list: readonly string[], caller: Caller, deviceId: string): Promise<void> {
  for (const kp of list) {
    if (await keyPackageOf(kp, caller.profileId, deviceId)) continue;
    throw badRequest("A key package is not an MLS key package of this device.", "bad_key_package");
  }
}

/** The caller's device, live and of their current session; 403 otherwise. */
async function ownDevice(caller: Caller, deviceId: string) {
  const d = await deviceLive(caller.profileId, deviceId);
  if (!d || d.sessionId !== caller.sessionId) throw forbidden();
  return d;
}

/** The chat, when the caller is one of its members (404 for everyone else: no hint that it exists). */
async function ownChat(caller: Caller, chatId: string): Promise<SecretChat> {
  const chat = await getSecretChat(chatId);
  if (!chat || !chat.members.includes(caller.profileId)) throw notFound();
  return chat;
}

/**
 * The checks a message to `other` passes in a conversation apply to a secret one too, but for those
 * that read its text: not while the caller's sending is paused, not between members who blocked
 * each other, and a new conversation with a member who takes messages from verified members only
 * needs the badge.
 */
async function mayWrite(caller: Caller, other: string, starting: boolean): Promise<void> {
  const [paused, blocked, talking, verifiedOnly, me] = await Promise.all([
    sendingPause(caller.profileId),
    isBlockedEither(caller.profileId, other),
    starting ? hasConversation(caller.profileId, other) : true,
    starting ? onlyVerifiedMessages(other) : false,
    starting ? getProfile(caller.profileId) : null,
  ]);
  if (paused) throw new ApiError(403, "sending_paused", MODERATION_TEXTS.sendingPaused);
  if (blocked) throw notFound("No such member.");
  if (!talking && verifiedOnly && !(me && isVerified(me))) {
    throw new ApiError(403, "recipient_verified_only", VERIFIED_TEXTS.recipientVerifiedOnly);
  }
  const counted = await Promise.all([
    hit("messageByAccount", caller.accountId),
    hitNewMember("newMemberMessages", caller),
  ]);
  if (counted.includes(false)) throw tooMany();
}

let watchingSessions = false;
/** Ending a session (logout, 'log out elsewhere') removes its device: watched from the first call on. */
function watchSessions(): void {
  if (watchingSessions) return;
  watchingSessions = true;
  onSessionsEnded((ids) => void removeDevicesOfSessions(ids).catch(() => {}));
}

export const secretChats = new Hono<AppEnv>()
  .use("/secret/*", async (_c, next) => {
    watchSessions();
    await next();
  })
  .post("/secret/devices", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/secret/devices");
    await checkKeyPackages(body.keyPackages, caller, body.deviceId);
    const r = await registerDevice(caller, body.deviceId, body.keyPackages);
    if (r === "taken") throw conflict("This device id belongs to another session.", "device_taken");
    if (r === "removed") throw new ApiError(410, "device_removed", "This device was removed: make a new one.");
    return answer(c, "POST /api/secret/devices", r);
  })
  .post("/secret/devices/:deviceId/key-packages", async (c) => {
    const caller = requireCaller(c);
    const deviceId = idParam(c, "deviceId");
    const body = await bodyOf(c, "POST /api/secret/devices/:deviceId/key-packages");
    await ownDevice(caller, deviceId);
    await checkKeyPackages(body.keyPackages, caller, deviceId);
    return answer(c, "POST /api/secret/devices/:deviceId/key-packages", {
      stock: await addKeyPackages(caller.profileId, deviceId, body.keyPackages),
    });
  })
  .post("/secret/key-packages/claim", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/secret/key-packages/claim");
    // Whose device it is comes first: a call with another's device is refused as such, whatever else it says.
    await ownDevice(caller, body.deviceId);
    if (body.peerProfileId === caller.profileId) throw badRequest("A secret chat is with another member.");
    await ownTowards(c, caller.profileId, body.peerProfileId);
    await mayWrite(caller, body.peerProfileId, true);
    const devices = await claimKeyPackages(body.peerProfileId);
    if (!devices) throw conflict(SECRET_TEXTS.peerCannot, "peer_not_ready");
    return answer(c, "POST /api/secret/key-packages/claim", { devices });
  })
  .post("/secret/chats", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/secret/chats");
    // Whose device it is comes first: a call with another's device is refused as such, whatever else it says.
    await ownDevice(caller, body.deviceId);
    if (body.peerProfileId === caller.profileId) throw badRequest("A secret chat is with another member.");
    await ownTowards(c, caller.profileId, body.peerProfileId);
    for (const d of body.peerDevices) {
      if (!(await deviceLive(body.peerProfileId, d))) throw conflict(SECRET_TEXTS.peerCannot, "peer_not_ready");
    }
    const chat = await createSecretChat({
      starter: caller.profileId,
      starterDevice: body.deviceId,
      peer: body.peerProfileId,
      peerDevices: body.peerDevices,
      groupId: body.groupId,
      welcome: body.welcome,
      ratchetTree: body.ratchetTree,
    });
    if (!chat) throw conflict("A secret chat was started at the same time: try again.", "raced");
    return answer(c, "POST /api/secret/chats", { chat });
  })
  .get("/secret/chats", async (c) => {
    const caller = requireCaller(c);
    return answer(c, "GET /api/secret/chats", { items: await listSecretChats(caller.profileId) });
  })
  .get("/secret/chats/:chatId/messages", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const q = queryOf(c, "GET /api/secret/chats/:chatId/messages");
    const other = chat.members.find((p) => p !== caller.profileId)!;
    return answer(c, "GET /api/secret/chats/:chatId/messages", {
      items: await listSecretMessages(chat.id, q.after),
      otherReadUpTo: await secretReadUpTo(chat.id, other),
    });
  })
  .post("/secret/chats/:chatId/read", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const body = await bodyOf(c, "POST /api/secret/chats/:chatId/read");
    const m = await getSecretMessage(chat.id, body.messageId);
    if (!m || m.senderProfileId === caller.profileId) throw notFound();
    await markSecretRead(chat.id, caller.profileId, m.id, [m.senderProfileId]);
    return answer(c, "POST /api/secret/chats/:chatId/read", { ok: true });
  })
  .post("/secret/chats/:chatId/messages", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const body = await bodyOf(c, "POST /api/secret/chats/:chatId/messages");
    await ownDevice(caller, body.deviceId);
    const inChat = chat.devices.find((d) => d.profileId === caller.profileId && d.deviceId === body.deviceId);
    if (!inChat || inChat.removed) throw forbidden();
    if (fromBase64(body.commitment)?.length !== 32) throw badRequest("The commitment is 32 bytes.", "bad_commitment");
    const other = chat.members.find((p) => p !== caller.profileId)!;
    await ownTowards(c, caller.profileId, other);
    await mayWrite(caller, other, false);
    const message = await addSecretMessage(
      chat,
      { profileId: caller.profileId, deviceId: body.deviceId },
      body.ciphertext,
      body.commitment,
      body.epoch,
      body.kind ?? "text",
    );
    return answer(c, "POST /api/secret/chats/:chatId/messages", { message });
  })
  .post("/secret/chats/:chatId/join", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const body = await bodyOf(c, "POST /api/secret/chats/:chatId/join");
    await ownDevice(caller, body.deviceId);
    if (chat.devices.some((d) => d.deviceId === body.deviceId && !d.removed)) {
      throw conflict("This device is in the chat already.", "already_in_chat");
    }
    const next = await requestJoin(chat.id, caller.profileId, body.deviceId);
    if (!next) throw conflict("The chat changed meanwhile: try again.", "raced");
    return answer(c, "POST /api/secret/chats/:chatId/join", { chat: next });
  })
  .post("/secret/chats/:chatId/pending/:deviceId/key-package", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const deviceId = idParam(c, "deviceId");
    // Only the member's own pending device, claimed for an approval from one of their devices.
    if (!chat.pending.some((d) => d.deviceId === deviceId && d.profileId === caller.profileId)) throw notFound();
    if (!(await deviceLive(caller.profileId, deviceId))) throw notFound();
    const keyPackage = await claimKeyPackageOf(caller.profileId, deviceId);
    if (!keyPackage) throw conflict(SECRET_TEXTS.peerCannot, "device_not_ready");
    return answer(c, "POST /api/secret/chats/:chatId/pending/:deviceId/key-package", { keyPackage });
  })
  .post("/secret/chats/:chatId/approve", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const body = await bodyOf(c, "POST /api/secret/chats/:chatId/approve");
    await ownDevice(caller, body.deviceId);
    const approver = chat.devices.find((d) => d.profileId === caller.profileId && d.deviceId === body.deviceId);
    if (!approver || approver.removed) throw forbidden();
    if (!chat.pending.some((d) => d.deviceId === body.newDeviceId && d.profileId === caller.profileId)) {
      throw notFound();
    }
    if (!(await deviceLive(caller.profileId, body.newDeviceId))) throw notFound();
    const r = await approveDevice(
      chat,
      { profileId: caller.profileId, deviceId: body.deviceId },
      body.newDeviceId,
      body.commit,
      body.welcome,
      body.ratchetTree,
      body.epoch,
    );
    if (!r) throw conflict("The chat changed meanwhile: try again.", "raced");
    return answer(c, "POST /api/secret/chats/:chatId/approve", r);
  })
  // A device that stays removes the devices whose sessions ended (logout, 'log out elsewhere') from
  // the chat's MLS group: either member's device may, and only devices the server marked removed.
  .post("/secret/chats/:chatId/evict", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const body = await bodyOf(c, "POST /api/secret/chats/:chatId/evict");
    await ownDevice(caller, body.deviceId);
    const remover = chat.devices.find((d) => d.profileId === caller.profileId && d.deviceId === body.deviceId);
    if (!remover || remover.removed) throw forbidden();
    for (const id of body.evicted) {
      const d = chat.devices.find((x) => x.deviceId === id);
      if (!d) throw notFound();
      if (!d.removed) throw conflict("Only a device whose session ended is removed this way.", "device_live");
      if (d.evicted) throw conflict("This device was removed from the chat already.", "already_evicted");
    }
    const r = await evictDevices(
      chat,
      { profileId: caller.profileId, deviceId: body.deviceId },
      body.evicted,
      body.commit,
      body.epoch,
    );
    if (!r) throw conflict("The chat changed meanwhile: try again.", "raced");
    return answer(c, "POST /api/secret/chats/:chatId/evict", r);
  })
  // A picture encrypted on the device: opaque bytes (no image processing here: the server cannot
  // see it). The sender's device must be in the chat; the key travels in the message that follows.
  .post("/secret/pictures", async (c) => {
    const caller = requireCaller(c);
    const q = queryOf(c, "POST /api/secret/pictures");
    const chat = await ownChat(caller, q.chatId);
    await ownDevice(caller, q.deviceId);
    const inChat = chat.devices.find((d) => d.profileId === caller.profileId && d.deviceId === q.deviceId);
    if (!inChat || inChat.removed) throw forbidden();
    const other = chat.members.find((p) => p !== caller.profileId)!;
    await ownTowards(c, caller.profileId, other);
    if (await sendingPause(caller.profileId)) throw new ApiError(403, "sending_paused", MODERATION_TEXTS.sendingPaused);
    if (!(await hit("uploadByAccount", caller.accountId)) || !(await hit("uploadByAddress", clientAddress(c)))) {
      throw tooMany();
    }
    const bytes = await bytesOf(c, "POST /api/secret/pictures");
    const picture = await addSecretPicture(chat.id, caller.profileId, bytes);
    if (!picture) throw conflict("This secret chat holds as many pictures as it can.", "too_many_pictures");
    return answer(c, "POST /api/secret/pictures", { picture: { id: picture.id, size: picture.size } });
  })
  // Checked on every read: the caller is one of the chat's two members and the picture is of that chat.
  .get("/secret/chats/:chatId/pictures/:pictureId", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const p = await getSecretPicture(chat.id, idParam(c, "pictureId"));
    if (!p || !chat.members.includes(p.ownerProfileId)) throw notFound();
    const bytes = await secretPictureBytes(p);
    if (!bytes) throw notFound();
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, { "Content-Type": "application/octet-stream", ...NO_STORE });
  })
  // Its sender's device deletes a picture from the server: unsent, or a view-once picture viewed.
  .delete("/secret/chats/:chatId/pictures/:pictureId", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const p = await getSecretPicture(chat.id, idParam(c, "pictureId"));
    if (!p) throw notFound();
    if (p.ownerProfileId !== caller.profileId) throw forbidden();
    await deleteSecretPicture(p);
    return answer(c, "DELETE /api/secret/chats/:chatId/pictures/:pictureId", { deleted: true });
  })
  .post("/secret/chats/:chatId/messages/:messageId/report", async (c) => {
    const caller = requireCaller(c);
    const chat = await ownChat(caller, idParam(c, "chatId"));
    const m = await getSecretMessage(chat.id, idParam(c, "messageId"));
    if (!m) throw notFound();
    if (m.senderProfileId === caller.profileId || m.kind !== "text") {
      throw badRequest("Report a message you received.");
    }
    const body = await bodyOf(c, "POST /api/secret/chats/:chatId/messages/:messageId/report");
    if (!(await hit("reportByAccount", caller.accountId)) || !(await hit("reportByAddress", clientAddress(c)))) {
      throw tooMany();
    }
    const key = fromBase64(body.frankingKey);
    const commitment = fromBase64(m.commitment);
    if (!key || !commitment || !(await frankingVerifies(key, body.text, commitment))) {
      throw new ApiError(422, "franking_mismatch", SECRET_TEXTS.notVerified);
    }
    const r = await saveSecretReport(caller.profileId, m, body.reason, body.text);
    await reviewIfReported(m.senderProfileId);
    return answer(c, "POST /api/secret/chats/:chatId/messages/:messageId/report", { id: r.id, verified: true });
  });
