/** Sortable random ids: 12 hex digits of milliseconds, then 16 random hex digits. */

import { createHash } from "node:crypto";
import { now } from "./clock.ts";

let lastTime = -1;
/** The random part of the last id, as its high and low 32 bits (the high one drawn with its top bit clear). */
let lastHigh = 0, lastLow = 0;

/** Random 32-bit words, drawn 256 at a time (one call to the system's generator, not one per id). */
const pool = new Uint32Array(256);
let poolAt = pool.length;

function randomWord(): number {
  if (poolAt === pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  return pool[poolAt++];
}

const HEX8 = (n: number) => n.toString(16).padStart(8, "0");

/**
 * A new id that sorts after every id this process made before (ULID-style monotonic: within one
 * millisecond the random part counts up), so messages sent in a burst keep their order.
 */
export function newId(at: number = now()): string {
  let time = Math.floor(at);
  if (time <= lastTime) {
    time = lastTime;
    // The 64-bit random part counts up by one (wrapping, as it never does: its top bit starts clear).
    lastLow = (lastLow + 1) >>> 0;
    if (lastLow === 0) lastHigh = (lastHigh + 1) >>> 0;
  } else {
    // The top bit stays clear so a burst can count up without overflowing.
    lastHigh = randomWord() & 0x7fffffff;
    lastLow = randomWord();
  }
  lastTime = time;
  return time.toString(16).padStart(12, "0") + HEX8(lastHigh) + HEX8(lastLow);
}

/** The creation time of an id made by `newId`. */
export function idTime(id: string): number {
  return parseInt(id.slice(0, 12), 16);
}

export { isId } from "../domain/ids.ts";

/** `n` random bytes as base64url: secrets (session tokens, login links). */
export function randomToken(bytes = 32): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * SHA-256 of a secret as hex: what is stored instead of the secret. node:crypto's hash, not
 * `crypto.subtle.digest`: every call with a session cookie hashes its token, and the Web Crypto
 * digest costs about 69 µs a call here against 1.7 (an async op and its conversions).
 */
export function sha256Hex(text: string): Promise<string> {
  return Promise.resolve(createHash("sha256").update(text).digest("hex"));
}

/** A uniformly random order of `xs` (Fisher-Yates with the cryptographic source): the order says nothing of a choice. */
export function shuffled<T>(xs: readonly T[]): T[] {
  const out = [...xs];
  const r = crypto.getRandomValues(new Uint32Array(out.length));
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor((r[i] / 2 ** 32) * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
