/**
 * What the secret chats' routes read (domain/requests.ts spreads it into REQUESTS): their JSON
 * bodies and queries, by "METHOD /path". Everything readable stays on the devices: the server
 * sees base64 MLS messages and keys, their sizes checked here.
 */

import * as z from "zod";
import { b64, idSchema } from "./requestParts.ts";
import { KEY_PACKAGE_STOCK } from "./secretChats.ts";
import { MAX_TEXT, REPORT_REASONS } from "./texts.ts";
import { SECRET_PICTURE_MAX_BYTES } from "./secretPictures.ts";

/** The smallest encrypted picture: AES-GCM's 16-byte tag and one byte. */
const SEALED_PICTURE_MIN_BYTES = 17;

const secretDeviceBody = z.object({
  deviceId: idSchema,
  keyPackages: z.array(b64(4096)).max(KEY_PACKAGE_STOCK),
});
const secretKeyPackagesBody = z.object({ keyPackages: z.array(b64(4096)).min(1).max(KEY_PACKAGE_STOCK) });
const secretClaimBody = z.object({ deviceId: idSchema, peerProfileId: idSchema });
const secretChatBody = z.object({
  deviceId: idSchema,
  peerProfileId: idSchema,
  peerDevices: z.array(idSchema).min(1).max(10),
  groupId: z.string().regex(/^[0-9a-f]{32}$/, "must be 16 bytes of hex"),
  welcome: b64(65_536),
  ratchetTree: b64(65_536),
});
const secretMessageBody = z.object({
  deviceId: idSchema,
  /** A control is a device's request to the others (unsend, viewed): stored alike, notified to no one. */
  kind: z.enum(["text", "control"]).optional(),
  ciphertext: b64(4 * MAX_TEXT + 4096),
  commitment: b64(44),
  epoch: z.number().int().min(0).max(2 ** 31),
});
const secretReadBody = z.object({ messageId: idSchema });
const secretJoinBody = z.object({ deviceId: idSchema });
const secretApproveBody = z.object({
  deviceId: idSchema,
  newDeviceId: idSchema,
  commit: b64(65_536),
  welcome: b64(65_536),
  ratchetTree: b64(65_536),
  epoch: z.number().int().min(1).max(2 ** 31),
});
const secretEvictBody = z.object({
  deviceId: idSchema,
  evicted: z.array(idSchema).min(1).max(10),
  commit: b64(65_536),
  epoch: z.number().int().min(2).max(2 ** 31),
});
const secretPictureQuery = z.object({ chatId: idSchema, deviceId: idSchema });
const secretMessagesQuery = z.object({ after: idSchema.optional() });
const secretReportBody = z.object({
  reason: z.enum(REPORT_REASONS.map((r) => r.id) as [string, ...string[]]),
  text: z.string().max(MAX_TEXT),
  frankingKey: b64(44),
});

/** The request schemas of secret chats. */
export const SECRET_REQUESTS = {
  "POST /api/secret/devices": { body: secretDeviceBody },
  "POST /api/secret/devices/:deviceId/key-packages": { body: secretKeyPackagesBody },
  "POST /api/secret/key-packages/claim": { body: secretClaimBody },
  "POST /api/secret/chats": { body: secretChatBody },
  "GET /api/secret/chats/:chatId/messages": { query: secretMessagesQuery },
  "POST /api/secret/chats/:chatId/read": { body: secretReadBody },
  "POST /api/secret/chats/:chatId/messages": { body: secretMessageBody },
  "POST /api/secret/chats/:chatId/join": { body: secretJoinBody },
  "POST /api/secret/chats/:chatId/approve": { body: secretApproveBody },
  "POST /api/secret/chats/:chatId/evict": { body: secretEvictBody },
  "POST /api/secret/pictures": {
    query: secretPictureQuery,
    bytes: {
      type: "application/octet-stream",
      minBytes: SEALED_PICTURE_MIN_BYTES,
      maxBytes: SECRET_PICTURE_MAX_BYTES,
      what: "a picture encrypted on the device (AES-GCM: its bytes and 16-byte tag)",
    },
  },
  "POST /api/secret/chats/:chatId/messages/:messageId/report": { body: secretReportBody },
} as const;
