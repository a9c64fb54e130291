/** The API contract of secret chats (domain/contract.ts spreads it into RESPONSES). */

import * as z from "zod";

const ts = z.number();

const SecretDevice = z.strictObject({
  deviceId: z.string(),
  profileId: z.string(),
  tsCreated: ts,
  removed: z.boolean(),
});
const SecretChat = z.strictObject({
  id: z.string(),
  groupId: z.string(),
  members: z.tuple([z.string(), z.string()]),
  devices: z.array(z.strictObject({ profileId: z.string(), deviceId: z.string(), removed: z.boolean() })),
  epoch: z.number(),
  welcome: z.string(),
  ratchetTree: z.string(),
  startedBy: z.string(),
  tsCreated: ts,
  pending: z.array(z.strictObject({ profileId: z.string(), deviceId: z.string(), removed: z.boolean() })),
  joins: z.array(
    z.strictObject({ deviceId: z.string(), welcome: z.string(), ratchetTree: z.string(), after: z.string() }),
  ),
});
const SecretMessage = z.strictObject({
  id: z.string(),
  chatId: z.string(),
  senderProfileId: z.string(),
  senderDeviceId: z.string(),
  ciphertext: z.string(),
  commitment: z.string(),
  epoch: z.number(),
  tsCreated: ts,
  kind: z.enum(["text", "commit"]),
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
  "POST /api/secret/chats/:chatId/messages": { 201: z.strictObject({ message: SecretMessage }) },
  "POST /api/secret/chats/:chatId/messages/:messageId/report": {
    201: z.strictObject({ id: z.string(), verified: z.literal(true) }),
  },
} as const;
