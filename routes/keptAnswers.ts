/**
 * Large discovery answers kept compressed, one for each viewer's view (decision 0192): the map asks
 * a member's view again every 15 s (islands/queries/map.ts), and while nobody in it moved or
 * changed what the view shows of them, the answer is the same text. Its bytes as compressed for
 * the caller are kept with its signature (kv/briefSignatures.ts: every member's version and every
 * figure of the answer, in order); an answer of the same signature to the same viewer and address
 * is those bytes again, without writing, encoding or compressing its JSON. Any difference in the
 * signature (a member moved, renamed, blocked, hidden, a day older) makes the answer anew.
 *
 * Memory: at most `KEPT_ANSWERS_MB` of bytes and signatures, the views asked least lately dropped
 * first.
 */

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { answerEncoding, whenCompressed } from "./compression.ts";
import type { Encoding } from "./compressBytes.ts";
import { sameSignature } from "../kv/briefSignatures.ts";
import { config } from "../config/config.ts";

/**
 * The most this instance keeps of answers' bytes and signatures (`KEPT_ANSWERS_MB`): a map view
 * of 600 members about 40 KB, a by-bounds page of 800 about 90 KB in one encoding.
 */
const KEPT_ANSWERS_BYTES = config.keptAnswersMb * 1024 * 1024;

interface KeptAnswer {
  signature: Float64Array;
  /** The answer's JSON's length in UTF-8 (what the encoding is chosen by). */
  length: number;
  /** Its bytes in each encoding sent so far. */
  encoded: Partial<Record<Encoding, Uint8Array<ArrayBuffer>>>;
  /** Bytes it holds. */
  size: number;
}

/** By viewer and address, the views asked least lately first. */
const kept = new Map<string, KeptAnswer>();
let keptSize = 0;
let sent = 0;

function drop(key: string): void {
  const k = kept.get(key);
  if (!k) return;
  kept.delete(key);
  keptSize -= k.size;
}

/** Which view of which viewer `c` asks: the viewer's profile id and the address asked. */
export function viewKey(c: Context, viewerId: string): string {
  return `${viewerId} ${c.req.url}`;
}

/**
 * The answer kept for `key` as the caller of `c` takes it, if its signature is `signature` and it
 * was sent in that encoding before; else null (the caller writes it anew).
 */
export function keptAnswer(
  c: Context,
  key: string,
  signature: Float64Array,
  status: ContentfulStatusCode,
): Response | null {
  const k = kept.get(key);
  if (k === undefined || c.req.method !== "GET") return null;
  if (!sameSignature(k.signature, signature)) {
    drop(key);
    return null;
  }
  const encoding = answerEncoding(c, k.length);
  const bytes = encoding && k.encoded[encoding];
  if (!bytes) return null;
  kept.delete(key);
  kept.set(key, k);
  sent++;
  return c.body(bytes, status, {
    "Content-Type": "application/json",
    "Content-Encoding": encoding,
    "Vary": "Accept-Encoding",
  });
}

/** Keeps `res` (a JSON answer of the view `key`, signed `signature`) once it is compressed, for `keptAnswer`. */
export function keepAnswer(res: Response, key: string, signature: Float64Array): Response {
  if (KEPT_ANSWERS_BYTES === 0) return res;
  whenCompressed(res, (encoding, out, length) => {
    let k = kept.get(key);
    if (k !== undefined && !sameSignature(k.signature, signature)) {
      drop(key);
      k = undefined;
    }
    if (k === undefined) {
      k = { signature, length, encoded: {}, size: signature.byteLength + key.length };
      kept.set(key, k);
      keptSize += k.size;
    }
    if (k.encoded[encoding] === undefined) {
      k.encoded[encoding] = out;
      k.size += out.byteLength;
      keptSize += out.byteLength;
    }
    // Asked now: the newest, the last to be dropped.
    kept.delete(key);
    kept.set(key, k);
    while (keptSize > KEPT_ANSWERS_BYTES && kept.size > 0) drop(kept.keys().next().value!);
  });
  return res;
}

/** How many views are kept, and how many answers were sent as kept so far (tests). */
export function keptAnswerCounts(): { views: number; sent: number } {
  return { views: kept.size, sent };
}

/** Forgets every kept answer (tests). */
export function forgetKeptAnswers(): void {
  kept.clear();
  keptSize = 0;
  sent = 0;
}
