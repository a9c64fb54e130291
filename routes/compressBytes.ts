/**
 * One answer's bytes compressed at once (zlib's native code, no streams): a JSON answer in Brotli,
 * gzip or Zstandard at the fast end of their levels, where it already shrinks to a fifth or less (a
 * by-bounds page of 800 members: about 225 KB to under 60 KB) for about a millisecond or less; a
 * page's HTML at `PAGE_LEVELS`.
 */

import { brotliCompressSync, constants, gzipSync, zstdCompressSync } from "node:zlib";

/** The encodings the app compresses answers with. */
export type Encoding = "br" | "gzip" | "zstd";

/** Brotli's quality (0 to 11): 1 compresses JSON about as well as gzip's default, at a third of its cost. */
export const BROTLI_QUALITY = 1;
/**
 * Brotli's quality for answers of `LARGE_BYTES` or more: 0 costs half of 1 and still brings a
 * by-bounds page of 800 members (about 225 KB) under 60 KB.
 */
export const BROTLI_QUALITY_LARGE = 0;
/**
 * From this size an answer is compressed at `BROTLI_QUALITY_LARGE` (decision 0173): a map view of
 * 600 members (about 55 KB of rows) then costs about 0.55 ms of CPU to compress instead of about
 * 0.95 ms, for a fifth more bytes (about 22 KB instead of 18); a short list (nearest 30, about
 * 10 KB) keeps quality 1, where the two differ by tens of microseconds.
 */
export const LARGE_BYTES = 16 * 1024;
/** gzip's level (1 to 9): 1 is the fastest; JSON still shrinks to about a quarter. */
export const GZIP_LEVEL = 1;
/**
 * Zstandard's level for answers of `LARGE_BYTES` or more, to callers that name `zstd` (current
 * Chromium and Firefox; decision 0181): 1 compresses a page of briefs about a third smaller than
 * Brotli 0, for about two thirds of its CPU.
 */
export const ZSTD_LEVEL = 1;

/**
 * What an answer is: a JSON answer (an API call's, asked again and again), or a page's HTML (asked
 * once a load, and its first screen waits for it).
 */
export type AnswerKind = "json" | "page";

/**
 * A page's levels (decision 0310): Zstandard 3 for callers that name it, gzip at its default level
 * for the others (the bytes a gzip stream made of pages before, at half or less of its CPU),
 * Brotli 4 for a caller that takes nothing else. A grid page of 53 KB goes in about 7 KB in each.
 */
export const PAGE_LEVELS = { br: 4, gzip: 6, zstd: 3 } as const;

/** `bytes` of a `kind` answer compressed with `encoding`, in a buffer of their own. */
export function compressBytes(
  bytes: Uint8Array,
  encoding: Encoding,
  kind: AnswerKind = "json",
): Uint8Array<ArrayBuffer> {
  const page = kind === "page";
  const out = encoding === "br"
    ? brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: page
          ? PAGE_LEVELS.br
          : bytes.byteLength >= LARGE_BYTES
          ? BROTLI_QUALITY_LARGE
          : BROTLI_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    })
    : encoding === "zstd"
    ? zstdCompressSync(bytes, {
      params: { [constants.ZSTD_c_compressionLevel]: page ? PAGE_LEVELS.zstd : ZSTD_LEVEL },
    })
    : gzipSync(bytes, { level: page ? PAGE_LEVELS.gzip : GZIP_LEVEL });
  // A view of the whole buffer (it may be transferred to another thread), else a copy of its own.
  const whole = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength;
  return whole ? new Uint8Array(out.buffer as ArrayBuffer) : new Uint8Array(out);
}
