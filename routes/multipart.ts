/**
 * A bounded, streaming multipart/form-data reader for uploads. `Request.formData()` buffers the
 * whole body before anyone can look at it; this reads the body stream chunk by chunk, counts
 * every byte, and refuses (413) the moment a file part passes its limit or the body passes the
 * file limit plus a small allowance for the other fields, cancelling the rest of the stream.
 * A declared Content-Length above that is refused before a byte is read.
 */

import { badRequest, tooLarge, unsupported } from "./errors.ts";

/** Limits of one multipart body. */
export interface MultipartLimits {
  /** The most bytes one file part may hold. */
  maxFileBytes: number;
  /** The most bytes one plain field may hold. */
  maxFieldBytes: number;
  /** The most parts the body may have. */
  maxParts: number;
}

/** A file part, read whole (at most `maxFileBytes`). */
export interface UploadedFile {
  filename: string;
  type: string;
  bytes: Uint8Array;
}

/** What the body held: text fields and file parts by name (the first of each name counts). */
export interface MultipartBody {
  fields: Map<string, string>;
  files: Map<string, UploadedFile>;
}

/** Bytes allowed beyond `maxFileBytes` for boundaries, part headers and the other fields. */
export const MULTIPART_ALLOWANCE = 64 * 1024;
const MAX_HEADER_BYTES = 8 * 1024;

const enc = new TextEncoder();
const dec = new TextDecoder();
const CRLFCRLF = enc.encode("\r\n\r\n");

/** The first index of `needle` in `hay` at or after `from`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = hay.length - needle.length;
  outer: for (let i = hay.indexOf(first, from); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** The chunks as one array of `size` bytes (their total): a lone chunk as it is. */
export function joinChunks(chunks: Uint8Array[], size: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The boundary of a multipart/form-data content type, or null. */
export function boundaryOf(contentType: string | null | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return null;
  const m = contentType.match(/;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i);
  return m ? (m[1] ?? m[2]) : null;
}

interface PartHead {
  name: string;
  filename?: string;
  type: string;
}

function parseHead(text: string): PartHead {
  let name: string | undefined;
  let filename: string | undefined;
  let type = "text/plain";
  for (const line of text.split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon < 0) continue;
    const header = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (header === "content-disposition") {
      name = value.match(/;\s*name="([^"]*)"/i)?.[1] ?? value.match(/;\s*name=([^;\s]+)/i)?.[1];
      filename = value.match(/;\s*filename="([^"]*)"/i)?.[1] ?? value.match(/;\s*filename=([^;\s]+)/i)?.[1];
    } else if (header === "content-type") type = value;
  }
  if (name === undefined) throw badRequest("A part of the form has no name.");
  return { name, filename, type };
}

/**
 * Reads a multipart/form-data request within `limits`. Throws 415 when the body is not
 * multipart/form-data, 413 as soon as a limit is passed (the rest is not read), 400 when the
 * body is malformed or truncated.
 */
export async function readMultipart(req: Request, limits: MultipartLimits): Promise<MultipartBody> {
  const boundary = boundaryOf(req.headers.get("content-type"));
  if (!boundary) throw unsupported("The upload must be sent as multipart/form-data.");
  const maxTotal = limits.maxFileBytes + MULTIPART_ALLOWANCE;
  const fileLimit = `The file is larger than the limit of ${limits.maxFileBytes.toLocaleString("en-US")} bytes.`;
  const declared = Number(req.headers.get("content-length") ?? NaN);
  if (declared > maxTotal) throw tooLarge(fileLimit);
  if (!req.body) throw badRequest("The upload is empty.");

  const reader = req.body.getReader();
  const delim = enc.encode(`\r\n--${boundary}`);
  const out: MultipartBody = { fields: new Map(), files: new Map() };
  // A leading CRLF lets the first boundary match the same delimiter as the others.
  let buf: Uint8Array = enc.encode("\r\n");
  let total = 0;
  let finished = false;

  const pull = async (): Promise<void> => {
    const { done, value } = await reader.read();
    if (done) throw badRequest("The upload ended before the form was complete.");
    total += value.length;
    if (total > maxTotal) throw tooLarge(fileLimit);
    buf = concat(buf, value);
  };

  try {
    // Preamble: skip to the first boundary.
    let start: number;
    while ((start = indexOf(buf, delim)) < 0) {
      buf = buf.subarray(Math.max(0, buf.length - delim.length + 1));
      await pull();
    }
    buf = buf.subarray(start + delim.length);
    for (let parts = 0;; parts++) {
      while (buf.length < 2) await pull();
      if (buf[0] === 0x2d && buf[1] === 0x2d) break; // "--": the closing boundary
      let headEnd: number;
      while ((headEnd = indexOf(buf, CRLFCRLF)) < 0) {
        if (buf.length > MAX_HEADER_BYTES) throw badRequest("A part of the form has too long a header.");
        await pull();
      }
      if (parts >= limits.maxParts) throw badRequest("The form has too many parts.");
      // The boundary line may carry transport padding before its CRLF.
      const head = parseHead(dec.decode(buf.subarray(0, headEnd)).replace(/^[ \t]*\r\n/, ""));
      buf = buf.subarray(headEnd + CRLFCRLF.length);
      const isFile = head.filename !== undefined;
      const max = isFile ? limits.maxFileBytes : limits.maxFieldBytes;
      const chunks: Uint8Array[] = [];
      let size = 0;
      const take = (bytes: Uint8Array) => {
        if (bytes.length === 0) return;
        size += bytes.length;
        if (size > max) throw isFile ? tooLarge(fileLimit) : badRequest(`The field ${head.name} is too long.`);
        chunks.push(bytes);
      };
      let end: number;
      while ((end = indexOf(buf, delim)) < 0) {
        // Keep what could be the start of a delimiter split across chunks.
        const safe = buf.length - delim.length + 1;
        if (safe > 0) {
          take(buf.subarray(0, safe));
          buf = buf.subarray(safe);
        }
        await pull();
      }
      take(buf.subarray(0, end));
      buf = buf.subarray(end + delim.length);
      const bytes = joinChunks(chunks, size);
      if (isFile) {
        if (!out.files.has(head.name)) out.files.set(head.name, { filename: head.filename!, type: head.type, bytes });
      } else if (!out.fields.has(head.name)) out.fields.set(head.name, dec.decode(bytes));
    }
    finished = true;
    return out;
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
