/** The API contract of secret chats (domain/contract.ts spreads it into RESPONSES). */

import * as z from "zod";

const ts = z.number();

/** A device of a member that takes part in secret chats (public facts only). */
const SecretDevice = z.strictObject({
  deviceId: z.string(),
  profileId: z.string(),
  tsCreated: ts,
  removed: z.boolean(),
});
/**
 * A device in a secret chat; `removed` once its session ended, `evicted` once a device that stays
 * removed it from the chat's MLS group (it can read nothing sent after).
 */
const ChatDevice = z.strictObject({
  profileId: z.string(),
  deviceId: z.string(),
  removed: z.boolean(),
  evicted: z.boolean().optional(),
});
/** A secret conversation: members, devices, MLS epoch, and the public Welcome the added devices join with. */
const SecretChat = z.strictObject({
  id: z.string(),
  /** The MLS group id (hex). */
  groupId: z.string(),
  members: z.tuple([z.string(), z.string()]),
  devices: z.array(ChatDevice),
  epoch: z.number(),
  /** Base64 MLS Welcome (public: it opens only with a device's private key). */
  welcome: z.string(),
  /** Base64 MLS ratchet tree (public keys). */
  ratchetTree: z.string(),
  startedBy: z.string(),
  tsCreated: ts,
  /** Devices of a member asking to join, until a device of theirs already in the chat adds them. */
  pending: z.array(ChatDevice),
  /** Devices added later: the Welcome each joins with, and the commit that added it (what it reads after). */
  joins: z.array(
    z.strictObject({ deviceId: z.string(), welcome: z.string(), ratchetTree: z.string(), after: z.string() }),
  ),
});
/** A secret message: ciphertext and franking commitment, nothing readable. */
const SecretMessage = z.strictObject({
  id: z.string(),
  chatId: z.string(),
  senderProfileId: z.string(),
  senderDeviceId: z.string(),
  /** Base64 MLS private message. */
  ciphertext: z.string(),
  /** Base64 HMAC-SHA256 commitment to the text (domain/franking.ts). */
  commitment: z.string(),
  epoch: z.number(),
  tsCreated: ts,
  /**
   * A text (or picture), an MLS commit that added or removed a device (no franking: it carries no
   * text), or a control: a device's request to the chat's other devices (unsend a message, a
   * view-once picture was viewed), encrypted like a text, notified to no one.
   */
  kind: z.enum(["text", "commit", "control"]),
});

export const SECRET_RESPONSES = {
  "POST /api/secret/devices": { 201: z.strictObject({ device: SecretDevice, stock: z.number() }) },
  "POST /api/secret/devices/:deviceId/key-packages": { 200: z.strictObject({ stock: z.number() }) },
  "POST /api/secret/key-packages/claim": {
    200: z.strictObject({ devices: z.array(z.strictObject({ deviceId: z.string(), keyPackage: z.string() })) }),
  },
  "POST /api/secret/chats": { 201: z.strictObject({ chat: SecretChat }) },
  "GET /api/secret/chats": { 200: z.strictObject({ items: z.array(SecretChat) }) },
  "GET /api/secret/chats/:chatId/messages": {
    200: z.strictObject({ items: z.array(SecretMessage), otherReadUpTo: z.string().nullable() }),
  },
  "POST /api/secret/chats/:chatId/read": { 200: z.strictObject({ ok: z.literal(true) }) },
  "POST /api/secret/chats/:chatId/join": { 200: z.strictObject({ chat: SecretChat }) },
  "POST /api/secret/chats/:chatId/pending/:deviceId/key-package": {
    200: z.strictObject({ keyPackage: z.string() }),
  },
  "POST /api/secret/chats/:chatId/approve": { 201: z.strictObject({ chat: SecretChat, message: SecretMessage }) },
  "POST /api/secret/chats/:chatId/evict": { 201: z.strictObject({ chat: SecretChat, message: SecretMessage }) },
  "POST /api/secret/chats/:chatId/messages": { 201: z.strictObject({ message: SecretMessage }) },
  "DELETE /api/secret/chats/:chatId/pictures/:pictureId": { 200: z.strictObject({ deleted: z.literal(true) }) },
  "POST /api/secret/pictures": {
    201: z.strictObject({ picture: z.strictObject({ id: z.string(), size: z.number() }) }),
  },
  "POST /api/secret/chats/:chatId/messages/:messageId/report": {
    201: z.strictObject({ id: z.string(), verified: z.literal(true) }),
  },
} as const;

/** Secret-chat answers that are not JSON (domain/contract.ts spreads it into NOT_JSON). */
export const SECRET_NOT_JSON = {
  "GET /api/secret/chats/:chatId/pictures/:pictureId":
    "application/octet-stream: a secret picture's encrypted bytes (no-store), to the chat's two members only",
} as const;
