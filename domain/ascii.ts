/**
 * Text as bytes without a call out of JavaScript: `TextEncoder` is a call into the runtime, which
 * costs more than the copy for the short ASCII texts hot paths write (ids, keys, sector keys).
 */

/**
 * Writes `text` into `out` from `at` as one byte a character; false when a character is not ASCII
 * or the text does not fit (then what was written is to be ignored).
 */
export function writeAscii(text: string, out: Uint8Array, at = 0): boolean {
  if (at + text.length > out.length) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x7f) return false;
    out[at + i] = c;
  }
  return true;
}
