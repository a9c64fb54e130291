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
}
