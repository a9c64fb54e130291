/** Sortable random ids: 12 hex digits of milliseconds, then 16 random hex digits. */

import { now } from "./clock.ts";

/** A new id that sorts after every id made earlier (to the millisecond). */
export function newId(at: number = now()): string {
  const time = Math.floor(at).toString(16).padStart(12, "0");
  const rand = crypto.getRandomValues(new Uint8Array(8));
  return time + Array.from(rand, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The creation time of an id made by `newId`. */
export function idTime(id: string): number {
  return parseInt(id.slice(0, 12), 16);
}

/** True for a string shaped like an id from `newId`. */
export function isId(id: unknown): id is string {
  return typeof id === "string" && /^[0-9a-f]{28}$/.test(id);
}

/** `n` random bytes as base64url: secrets (session tokens, login links). */
export function randomToken(bytes = 32): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** SHA-256 of a secret as hex: what is stored instead of the secret. */
export async function sha256Hex(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(d), (b) => b.toString(16).padStart(2, "0")).join("");
}
