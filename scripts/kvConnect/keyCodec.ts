/**
 * Deno KV's key encoding (FoundationDB's tuple layer, limited to Uint8Array, string, number, bigint
 * and boolean parts): the bytes a KV Connect client sends for a key, and back. Ported from denokv's
 * npm client (npm/src/kv_key.ts, MIT licence: scripts/kvConnect/LICENSE-denokv.txt). The KV Connect
 * test server keeps each key as the same parts in its backing Deno KV, which encodes them with this
 * very codec: the order of keys there is the order of their bytes.
 */

const enum Code {
  Bytes = 0x01,
  String = 0x02,
  IntArbitraryNegative = 0x0b,
  IntOneNegative = 0x13,
  IntZero = 0x14,
  IntOnePositive = 0x15,
  IntArbitraryPositive = 0x1d,
  Double = 0x21,
  False = 0x26,
  True = 0x27,
}

const decoder = new TextDecoder("utf-8", { fatal: true });
const encoder = new TextEncoder();

function escapeZeros(bytes: Uint8Array): number[] {
  const out: number[] = [];
  for (const b of bytes) b === 0 ? out.push(0, 0xff) : out.push(b);
  return out;
}

function flip(arr: Uint8Array | number[], start = 0): void {
  for (let i = start; i < arr.length; i++) arr[i] = 0xff - arr[i];
}

function bytesOf(abs: bigint): number {
  let n = 0;
  while (abs !== 0n) {
    abs >>= 8n;
    n++;
  }
  return n;
}

/** The bytes of one key part. */
function encodePart(part: Deno.KvKeyPart): number[] {
  if (part instanceof Uint8Array) return [Code.Bytes, ...escapeZeros(part), 0];
  if (typeof part === "string") return [Code.String, ...escapeZeros(encoder.encode(part)), 0];
  if (part === false) return [Code.False];
  if (part === true) return [Code.True];
  if (typeof part === "bigint") {
    const neg = part < 0n;
    const abs = neg ? -part : part;
    const n = bytesOf(abs);
    const code = neg
      ? (n <= 8 ? Code.IntOneNegative - n + 1 : Code.IntArbitraryNegative)
      : (n <= 8 ? Code.IntOnePositive + n - 1 : Code.IntArbitraryPositive);
    const out = [code];
    if (n > 8) out.push(neg ? 0xff - n : n);
    for (let i = n - 1; i >= 0; i--) out.push(Number((abs >> BigInt(8 * i)) & 0xffn));
    if (neg) flip(out, n > 8 ? 2 : 1);
    return out;
  }
  if (typeof part === "number") {
    const sub = new Uint8Array(8);
    new DataView(sub.buffer).setFloat64(0, -Math.abs(part), false);
    if (part < 0) flip(sub);
    return [Code.Double, ...sub];
  }
  throw new Error(`not a key part: ${typeof part}`);
}

/** A key's bytes. */
export function encodeKey(key: Deno.KvKey): Uint8Array {
  return new Uint8Array(key.flatMap((p) => encodePart(p)));
}

/** The key whose bytes these are; null when they are not exactly one key's bytes. */
export function decodeKey(bytes: Uint8Array): Deno.KvKey | null {
  const parts: Deno.KvKeyPart[] = [];
  let pos = 0;
  try {
    while (pos < bytes.length) {
      const code = bytes[pos++];
      if (code === Code.Bytes || code === Code.String) {
        const out: number[] = [];
        let closed = false;
        while (pos < bytes.length) {
          const b = bytes[pos++];
          if (b === 0 && bytes[pos] === 0xff) pos++;
          else if (b === 0) {
            closed = true;
            break;
          }
          out.push(b);
        }
        if (!closed) return null;
        parts.push(code === Code.String ? decoder.decode(new Uint8Array(out)) : new Uint8Array(out));
      } else if (code >= Code.IntArbitraryNegative && code <= Code.IntArbitraryPositive) {
        const neg = code < Code.IntZero;
        const arbitrary = code === Code.IntArbitraryNegative || code === Code.IntArbitraryPositive;
        if (arbitrary && pos >= bytes.length) return null;
        const n = arbitrary ? (neg ? 0xff - bytes[pos++] : bytes[pos++]) : Math.abs(code - Code.IntZero);
        if (pos + n > bytes.length) return null;
        let v = 0n;
        for (let i = 0; i < n; i++) v = (v << 8n) | BigInt(neg ? 0xff - bytes[pos++] : bytes[pos++]);
        parts.push(neg ? -v : v);
      } else if (code === Code.Double) {
        if (pos + 8 > bytes.length) return null;
        const sub = new Uint8Array(bytes.subarray(pos, pos + 8));
        pos += 8;
        const neg = sub[0] < 128;
        if (neg) flip(sub);
        const abs = -new DataView(sub.buffer).getFloat64(0, false);
        parts.push(neg ? -abs : abs);
      } else if (code === Code.False) parts.push(false);
      else if (code === Code.True) parts.push(true);
      else return null;
    }
  } catch {
    return null; // a string that is not UTF-8
  }
  // Only bytes this codec writes back the same (no other spelling of a number, say).
  return sameBytes(encodeKey(parts), bytes) ? parts : null;
}

/** Do two byte strings hold the same bytes? */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && compareBytes(a, b) === 0;
}

/** Byte order (shorter first on a common prefix). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}
