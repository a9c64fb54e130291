/**
 * Pictures in secret chats, sealed on the sender's device: the picture (redrawn first, so none of
 * its metadata is left) is encrypted with AES-256-GCM under a fresh random key and nonce
 * (WebCrypto); the server stores the ciphertext as an opaque blob and never sees the key, the
 * nonce or the picture. The key, the nonce and the SHA-256 of the ciphertext travel inside the MLS
 * message (islands/secret/mls.ts), so only the chat's devices can fetch, check and open it; the
 * hash is in the franked text, so a report proves which blob a member sent.
 */

import { fromBase64, toBase64 } from "./franking.ts";

/** The largest encrypted picture the server takes (the device redraws to at most 1600 px first). */
export const SECRET_PICTURE_MAX_BYTES = 3_000_000;
/** The longest side of a picture as the device redraws it before encrypting. */
export const SECRET_PICTURE_MAX_SIDE = 1600;

/** What the MLS message says about a picture: where it is, how to check and open it. */
export interface PictureRef {
  /** The picture's id on the server (within the chat). */
  id: string;
  /** Base64 AES-256-GCM key. */
  key: string;
  /** Base64 12-byte nonce. */
  iv: string;
  /** Hex SHA-256 of the encrypted bytes (what the server holds). */
  sha256: string;
  /** The picture's media type once decrypted. */
  type: string;
  width: number;
  height: number;
  /**
   * View once: the sender asks the receiving device to show it once, then delete it (a request
   * that device obeys; nothing stops a screenshot).
   */
  once?: boolean;
}

/** The picture sealed: the bytes to upload, and the key, nonce and hash for the message. */
export interface SealedPicture {
  bytes: Uint8Array;
  key: string;
  iv: string;
  sha256: string;
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

async function sha256Hex(bytes: Uint8Array): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>)));
}

/** Encrypts a picture's bytes under a fresh key and nonce. */
export async function sealPicture(plain: Uint8Array): Promise<SealedPicture> {
  const raw = crypto.getRandomValues(new Uint8Array(32));
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt"]);
  const bytes = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, key, plain as Uint8Array<ArrayBuffer>),
  );
  return { bytes, key: toBase64(raw), iv: toBase64(iv), sha256: await sha256Hex(bytes) };
}

/**
 * Checks the downloaded bytes against the hash the message carried, then decrypts them; throws
 * when either fails (a blob swapped or altered on the server opens nowhere).
 */
export async function openPicture(sealed: Uint8Array, ref: PictureRef): Promise<Uint8Array> {
  if ((await sha256Hex(sealed)) !== ref.sha256) throw new Error("the picture does not match its message");
  const raw = fromBase64(ref.key), iv = fromBase64(ref.iv);
  if (raw?.length !== 32 || iv?.length !== 12) throw new Error("not a picture key");
  const key = await crypto.subtle.importKey("raw", raw as Uint8Array<ArrayBuffer>, "AES-GCM", false, ["decrypt"]);
  return new Uint8Array(
    await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: iv as Uint8Array<ArrayBuffer> },
      key,
      sealed as Uint8Array<ArrayBuffer>,
    ),
  );
}

/** Is this a picture reference as a message must carry it? */
export function isPictureRef(p: unknown): p is PictureRef {
  if (!p || typeof p !== "object") return false;
  const r = p as Record<string, unknown>;
  return typeof r.id === "string" && typeof r.key === "string" && typeof r.iv === "string" &&
    typeof r.sha256 === "string" && /^[0-9a-f]{64}$/.test(r.sha256) && typeof r.type === "string" &&
    /^image\/[a-z0-9.+-]+$/.test(r.type) && typeof r.width === "number" && typeof r.height === "number" &&
    (r.once === undefined || typeof r.once === "boolean");
}

/**
 * The text a message's franking commitment covers: its text, and for a picture the hash of its
 * encrypted bytes (a report then proves which stored picture the member sent).
 */
export function frankedText(text: string, picture?: Pick<PictureRef, "sha256">): string {
  return picture ? `${text}\n[picture sha256:${picture.sha256}]` : text;
}
