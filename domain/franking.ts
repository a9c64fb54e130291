/**
 * Message franking for secret chats: each secret message carries a commitment, HMAC-SHA256 of its
 * text under a fresh key (the franking key) that travels only inside the encrypted message. The
 * server keeps the commitment beside the ciphertext; a member who reports a message reveals the
 * text and the key, and the server recomputes the commitment: a report whose text or key was
 * altered does not match and is refused. WebCrypto only (the browser's and Deno's).
 */

/** Bytes of a franking key (a fresh one per message). */
export const FRANKING_KEY_BYTES = 32;

/** Standard base64 of bytes. */
export function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Bytes of standard base64; undefined when the text is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) return undefined;
  try {
    return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** A fresh random franking key. */
export function newFrankingKey(): Uint8Array<ArrayBuffer> {
  return crypto.getRandomValues(new Uint8Array(FRANKING_KEY_BYTES));
}

/** The commitment to `text` under `key`: HMAC-SHA256 of its UTF-8 bytes (32 bytes). */
export async function frankingCommitment(key: Uint8Array<ArrayBuffer>, text: string): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(text)));
}

/**
 * Does the revealed text and key match the commitment kept with the message? Verified with
 * WebCrypto's HMAC verify (a comparison that does not leak where the bytes differ).
 */
export async function frankingVerifies(
  key: Uint8Array<ArrayBuffer>,
  text: string,
  commitment: Uint8Array<ArrayBuffer>,
): Promise<boolean> {
  if (key.length !== FRANKING_KEY_BYTES || commitment.length !== 32) return false;
  const k = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  return await crypto.subtle.verify("HMAC", k, commitment, new TextEncoder().encode(text));
}
