/** The shapes of secret chats as the API answers them (domain/contractSecret.ts checks them). */

/** A device of a member that takes part in secret chats (public facts only). */
export interface SecretDevice {
  deviceId: string;
  profileId: string;
  tsCreated: number;
  removed: boolean;
}

/** A device in a secret chat; `removed` once its session ended. */
export interface SecretChatDevice {
  profileId: string;
  deviceId: string;
  removed: boolean;
}

/** A secret conversation: members, devices, MLS epoch, and the public Welcome the added devices join with. */
export interface SecretChat {
  id: string;
  /** The MLS group id (hex). */
  groupId: string;
  members: [string, string];
  devices: SecretChatDevice[];
  epoch: number;
  /** Base64 MLS Welcome (public: it opens only with a device's private key). */
  welcome: string;
  /** Base64 MLS ratchet tree (public keys). */
  ratchetTree: string;
  startedBy: string;
  tsCreated: number;
  /** Devices of a member asking to join, until a device of theirs already in the chat adds them. */
  pending: SecretChatDevice[];
  /** Devices added later: the Welcome each joins with, and the commit that added it (what it reads after). */
  joins: { deviceId: string; welcome: string; ratchetTree: string; after: string }[];
}

/** A secret message: ciphertext and franking commitment, nothing readable. */
export interface SecretMessage {
  id: string;
  chatId: string;
  senderProfileId: string;
  senderDeviceId: string;
  /** Base64 MLS private message. */
  ciphertext: string;
  /** Base64 HMAC-SHA256 commitment to the text (domain/franking.ts). */
  commitment: string;
  epoch: number;
  tsCreated: number;
  /** A text, or an MLS commit that added a device (no franking: it carries no text). */
  kind: "text" | "commit";
}
