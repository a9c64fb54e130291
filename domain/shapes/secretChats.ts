/**
 * The shapes of secret chats as the server stores and the API answers them, inferred from the
 * contract (domain/contractSecret.ts): nothing in them is readable, only ciphertext and public keys.
 */

import type { ApiAnswer } from "../contract.ts";

/** A device of a member that takes part in secret chats (public facts only). */
export type SecretDevice = ApiAnswer<"POST /api/secret/devices">["device"];

/** A secret conversation: members, devices, MLS epoch, and the public Welcome the added devices join with. */
export type SecretChat = ApiAnswer<"POST /api/secret/chats">["chat"];

/** A device in a secret chat; `removed` once its session ended. */
export type SecretChatDevice = SecretChat["devices"][number];

/** A secret message: ciphertext and franking commitment, nothing readable. */
export type SecretMessage = ApiAnswer<"POST /api/secret/chats/:chatId/messages">["message"];
