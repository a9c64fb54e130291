/**
 * JSON text made ahead of time: an answer assembled from ready pieces (the parts of a member's
 * brief that change only with their profile, joined per answer) instead of an object serialised
 * whole on every request. The type says what the text decodes to, so a route that sends it is
 * checked against its contract as one that sends the object would be.
 */

/** JSON text that `JSON.parse` turns into a `T`. */
export type JsonText<T> = string & { readonly __decodesTo?: T };

/** `value` as JSON text of its type. */
export function jsonText<T>(value: T): JsonText<T> {
  return JSON.stringify(value) as JsonText<T>;
}

/** A number as JSON writes it (null for NaN and the infinities). */
export function jsonNumber(n: number | null): string {
  return n !== null && Number.isFinite(n) ? "" + n : "null";
}
