/**
 * Values of the device's secret-chat store as bytes, and back: what store.ts encrypts at rest.
 * JSON, with the two kinds of value JSON lacks tagged: bytes (`{"$b": base64}`) and big integers
 * (`{"$n": "123"}`, MLS lifetimes and epochs). Pure, so it is tested in Deno (codec_test.ts).
 */

import { fromBase64, toBase64 } from "../../domain/franking.ts";

const utf8 = new TextEncoder();
const fromUtf8 = new TextDecoder();

/** A value (objects, arrays, strings, numbers, booleans, null, bytes, bigints) as bytes. */
export function encodeValue(value: unknown): Uint8Array {
  return utf8.encode(JSON.stringify(value, function (key, v) {
    // JSON.stringify has already turned a Uint8Array into an object of indexes: read the original.
    const raw = (this as Record<string, unknown>)[key];
    if (raw instanceof Uint8Array) return { $b: toBase64(raw) };
    if (typeof raw === "bigint") return { $n: raw.toString() };
    return v;
  }));
}

/** The value `encodeValue` made these bytes from. */
export function decodeValue<T>(bytes: Uint8Array): T {
  return JSON.parse(fromUtf8.decode(bytes), (_key, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === "$b" && typeof v.$b === "string") {
        return fromBase64(v.$b) ?? new Uint8Array();
      }
      if (keys.length === 1 && keys[0] === "$n" && typeof v.$n === "string") return BigInt(v.$n);
    }
    return v;
  }) as T;
}
