/**
 * Picture processing with sharp (libvips): check an upload by its bytes, make it safe to keep
 * (upright, at most 2048 px, no metadata, cheaply re-encoded), make the master, render the
 * served sizes, crop/rotate. Pure functions over bytes: storage and HTTP are the caller's.
 *
 * Untrusted bytes meet these rules, in this order: a byte limit (413), a type from the magic
 * bytes only (415), dimensions from the header without decoding (a pixel flood is refused
 * with 413 before any pixel is decoded), then a decode that libvips itself also bounds with
 * `limitInputPixels`. The original bytes are never kept: only what `prepareUpload` (or
 * `normalizeUpload`) outputs is, and no output of this module carries any metadata.
 *
 * Two steps, so that the request stays cheap (bench/images.ts has the figures):
 * - `prepareUpload` runs in the request: check, decode, turn upright, sRGB, cap at 2048 px,
 *   re-encode as JPEG q97 4:4:4 (WebP when the picture has transparency) with no metadata. About a
 *   sixth of the CPU of a WebP master, and the member still gets 413/415/422 at once.
 * - `makeMaster` runs in a job: the prepared copy re-encoded as the WebP master that every
 *   served size and `?orig=1` come from. `normalizeUpload` does both steps at once (seeds, tests).
 */

import type { JpegOptions, Metadata, Sharp, SharpOptions, WebpOptions } from "sharp";
import { MAX_UPLOAD_BYTES, PIC_SIZES, type PicSize } from "../domain/pictures.ts";
import { firstUse } from "../domain/firstUse.ts";
import type { CropBox } from "../domain/shapes/pictures.ts";

/** The largest upload accepted, in bytes (the spec's number; defined beside the client's checks). */
export { MAX_UPLOAD_BYTES };

/** The served widths and the crop box are rules the store and the islands share (domain/pictures.ts). */
export { type CropBox, PIC_SIZES, type PicSize };

/**
 * sharp (libvips), loaded at the first picture this process handles rather than with the app
 * (domain/firstUse.ts): most processes start without handling one.
 */
const sharpModule = firstUse(() => import("sharp"));
/** sharp's constructor, once loaded. */
const vips = async () => (await sharpModule.load()).default;

/** The most pixels (width × height, as the header declares them) an upload may have. */
export const MAX_PIXELS = 40_000_000;

/** The longest side of a normalized picture. */
export const NORMALIZED_MAX_SIDE = 2048;

/** The content types an upload may have. */
export type PicType = "image/png" | "image/jpeg" | "image/webp";

/** The content type of masters and of every served size. */
export const OUTPUT_TYPE = "image/webp" as const;

/** The content types this module outputs: WebP, and JPEG for a prepared upload without transparency. */
export type OutputType = typeof OUTPUT_TYPE | "image/jpeg";

/** Encoded picture bytes with their type and pixel size. */
export type Picture = {
  bytes: Uint8Array;
  type: OutputType;
  width: number;
  height: number;
};

/**
 * An upload made safe to keep (`prepareUpload`): upright, sRGB, at most 2048 px, no metadata,
 * re-encoded; not yet the master. Its size is the master's size.
 */
export type PreparedUpload = Picture & { stage: "upload" };

/** A master decoded once, to cut several sizes from (`decodeMaster`, `renderVariant`). */
export type DecodedPicture = {
  raw: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
};

/** What `inspectUpload` concludes: accepted with its upright size, or refused with reasons. */
export type UploadCheck =
  | { ok: true; type: PicType; width: number; height: number }
  | { ok: false; status: 413 | 415 | 422; reasons: string[] };

/** Thrown by the processing functions for input they refuse; `status` and `reasons` are for the API. */
export class PictureRejected extends Error {
  override name = "PictureRejected";
  constructor(readonly status: 413 | 415 | 422, readonly reasons: string[]) {
    super(reasons.join(" "));
  }
}

/** sharp options for bytes we did not make: bounded pixels, and truncated or broken data fails. */
const UNTRUSTED: SharpOptions = {
  limitInputPixels: MAX_PIXELS,
  failOn: "error",
  autoOrient: true,
};

/**
 * Encoder settings, chosen by measure (bench/images.ts: CPU, bytes and SSIM against a lossless
 * reference, on a photo-like 12 MP scene and on a noisy 2048 × 2560 picture):
 * - The prepared upload is JPEG q97 4:4:4 without mozjpeg, SSIM 0.97-0.99 against the lossless
 *   resize, and without optimised Huffman tables: those change no pixel, save about 6 % of the
 *   bytes of a file kept only until the job has run, and cost nearly as much CPU as the decode, turn
 *   and resize together (bench/upload.ts). With transparency it is WebP q94 at effort 0 instead
 *   (JPEG has no alpha).
 * - The master is WebP q94 at effort 2 without smartSubsample: the SSIM of the old setting
 *   (q90, effort 4, smartSubsample) within 0.002 at about a quarter of its CPU (≥ 7 masters per
 *   second per core instead of 2), for 10-35% more bytes. Effort 4 alone doubles the CPU;
 *   smartSubsample (sharper chroma edges, which a luma SSIM does not see) costs 2.5×.
 * - Served sizes are WebP q80 at effort 4: at 256-1024 px effort 4 costs little over effort 2
 *   (decoding the master dominates) and gives 4-15% fewer bytes at a higher SSIM.
 * - A blurred size is the same without smartSubsample: it keeps sharp chroma edges, and a blurred
 *   picture has none. Measured on its blurred pixels, luma and both chroma SSIM stay within 0.0002
 *   and the bytes within 5 % (mostly fewer), for about a third of the encoder's CPU (decision 0268).
 */
export const SETTINGS = {
  /** The prepared upload (request). */
  upload: { quality: 97, chromaSubsampling: "4:4:4", optimiseCoding: false } as JpegOptions,
  /** The prepared upload of a picture with transparency (JPEG has no alpha). */
  uploadWithAlpha: { quality: 97, effort: 0 } as WebpOptions,
  /** The master (job). */
  master: { quality: 94, effort: 2 } as WebpOptions,
  /** A served size (job, or on the fly until the job has run). */
  variant: (width: PicSize): WebpOptions =>
    width >= 2048 ? { quality: 80, effort: 2 } : { quality: 80, effort: 4, smartSubsample: true },
  /** A blurred served size (job, or on the fly until the job has run). */
  blurred: (width: PicSize): WebpOptions => width >= 2048 ? { quality: 80, effort: 2 } : { quality: 80, effort: 4 },
};

/** The settings of the previous pipeline (master made in the request), for bench/images.ts and the quality test. */
export const PREVIOUS_SETTINGS = {
  master: { quality: 90, effort: 4, smartSubsample: true } as WebpOptions,
  variant: { quality: 80, effort: 2 } as WebpOptions,
};

/** The blurred variant keeps only this many pixels across: nothing finer survives to be unblurred. */
const BLUR_SOURCE_WIDTH = 16;

const fmt = (n: number) => n.toLocaleString("en-US");

function ascii(bytes: Uint8Array, at: number, text: string): boolean {
  if (bytes.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) {
    if (bytes[at + i] !== text.charCodeAt(i)) return false;
  }
  return true;
}

/** The picture type from the magic bytes alone (png, jpeg, webp), or null; the file name never counts. */
export function sniffType(bytes: Uint8Array): PicType | null {
  if (
    bytes.length >= 8 && bytes[0] === 0x89 && ascii(bytes, 1, "PNG") &&
    bytes[4] === 0x0d &&
    bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a
  ) return "image/png";
  if (
    bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 &&
    bytes[2] === 0xff
  ) {
    return "image/jpeg";
  }
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WEBP")) return "image/webp";
  return null;
}

/**
 * Width and height as stored (before EXIF orientation), read from the header only; null when
 * the header is missing or malformed. Costs microseconds whatever the declared size.
 */
export function headerSize(
  bytes: Uint8Array,
  type: PicType,
): { width: number; height: number } | null {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const n = bytes.length;
  let width = 0;
  let height = 0;
  if (type === "image/png") {
    // Signature, then the IHDR chunk must come first: length, "IHDR", width, height.
    if (n < 24 || !ascii(bytes, 12, "IHDR")) return null;
    width = dv.getUint32(16);
    height = dv.getUint32(20);
  } else if (type === "image/jpeg") {
    let i = 2;
    for (;;) {
      if (i >= n || bytes[i] !== 0xff) return null;
      while (i < n && bytes[i] === 0xff) i++; // fill bytes
      if (i >= n) return null;
      const marker = bytes[i++];
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) continue; // no length
      if (marker === 0xd9 || marker === 0xda) return null; // end or scan before any frame header
      if (i + 2 > n) return null;
      const len = dv.getUint16(i);
      if (len < 2) return null;
      const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 &&
        marker !== 0xc8 &&
        marker !== 0xcc;
      if (isSof) {
        if (i + 7 > n) return null;
        height = dv.getUint16(i + 3);
        width = dv.getUint16(i + 5);
        break;
      }
      i += len;
    }
  } else {
    if (n < 30) return null;
    if (ascii(bytes, 12, "VP8 ")) {
      // Lossy: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height.
      if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) {
        return null;
      }
      width = dv.getUint16(26, true) & 0x3fff;
      height = dv.getUint16(28, true) & 0x3fff;
    } else if (ascii(bytes, 12, "VP8L")) {
      // Lossless: signature 0x2f, then width-1 and height-1 in 14 bits each.
      if (bytes[20] !== 0x2f) return null;
      const bits = dv.getUint32(21, true);
      width = (bits & 0x3fff) + 1;
      height = ((bits >>> 14) & 0x3fff) + 1;
    } else if (ascii(bytes, 12, "VP8X")) {
      // Extended: canvas width-1 and height-1 in 24 bits each.
      width = 1 + (bytes[24] | (bytes[25] << 8) | (bytes[26] << 16));
      height = 1 + (bytes[27] | (bytes[28] << 8) | (bytes[29] << 16));
    } else return null;
  }
  if (!width || !height) return null;
  return { width, height };
}

/**
 * Decides whether `bytes` may be processed, without decoding pixels: size (413), type by
 * magic bytes (415), header dimensions against `MAX_PIXELS` (413), readable header (422).
 * On success `width`/`height` are the upright size (EXIF orientation applied).
 */
export async function inspectUpload(bytes: Uint8Array): Promise<UploadCheck> {
  return (await inspect(bytes)).check;
}

/** `inspectUpload`, with whether the picture has an alpha channel (read from the same header). */
async function inspect(bytes: Uint8Array): Promise<{ check: UploadCheck; hasAlpha: boolean }> {
  const refuse = (check: UploadCheck) => ({ check, hasAlpha: false });
  if (bytes.length > MAX_UPLOAD_BYTES) {
    return refuse({
      ok: false,
      status: 413,
      reasons: [
        `The file is ${fmt(bytes.length)} bytes; the limit is ${fmt(MAX_UPLOAD_BYTES)} bytes.`,
      ],
    });
  }
  if (bytes.length === 0) {
    return refuse({ ok: false, status: 422, reasons: ["The file is empty."] });
  }
  const type = sniffType(bytes);
  if (!type) {
    return refuse({
      ok: false,
      status: 415,
      reasons: [
        "The file is not a PNG, JPEG or WebP picture (its content was checked, not its name).",
      ],
    });
  }
  const damaged: UploadCheck = {
    ok: false,
    status: 422,
    reasons: ["The picture could not be read; the file may be damaged."],
  };
  const size = headerSize(bytes, type);
  if (!size) return refuse(damaged);
  if (size.width * size.height > MAX_PIXELS) {
    const mp = (size.width * size.height / 1e6).toFixed(1);
    return refuse({
      ok: false,
      status: 413,
      reasons: [
        `The picture is ${fmt(size.width)} × ${fmt(size.height)} pixels (${mp} megapixels); ` +
        `the limit is ${MAX_PIXELS / 1e6} megapixels.`,
      ],
    });
  }
  // libvips reads the header only here; it must agree with ours (no disguised second format).
  let meta: Metadata;
  const sharp = await vips();
  try {
    meta = await sharp(bytes, UNTRUSTED).metadata();
  } catch {
    return refuse(damaged);
  }
  if (
    `image/${meta.format}` !== type || meta.width !== size.width ||
    meta.height !== size.height
  ) return refuse(damaged);
  return {
    check: { ok: true, type, width: meta.autoOrient.width, height: meta.autoOrient.height },
    hasAlpha: meta.hasAlpha,
  };
}

function asBytes(b: Uint8Array): Uint8Array {
  return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
}

const CAP = {
  width: NORMALIZED_MAX_SIDE,
  height: NORMALIZED_MAX_SIDE,
  fit: "inside",
  withoutEnlargement: true,
} as const;

const DAMAGED = "The picture could not be decoded; the file may be damaged.";

/** Ends a pipeline as a master: at most NORMALIZED_MAX_SIDE (never enlarged), WebP, no metadata. */
function asMaster(pipeline: Sharp, webp: WebpOptions = SETTINGS.master): Promise<Picture> {
  return asWebp(pipeline.resize(CAP), webp);
}

/** Ends a pipeline as WebP with `webp`'s settings: the bytes and their size. */
async function asWebp(pipeline: Sharp, webp: WebpOptions): Promise<Picture> {
  const { data, info } = await pipeline.webp(webp).toBuffer({ resolveWithObject: true });
  return { bytes: asBytes(data), type: OUTPUT_TYPE, width: info.width, height: info.height };
}

/** Checks an upload (throws `PictureRejected` 413/415/422); whether it has an alpha channel. */
async function accept(bytes: Uint8Array): Promise<{ hasAlpha: boolean }> {
  const { check, hasAlpha } = await inspect(bytes);
  if (!check.ok) throw new PictureRejected(check.status, check.reasons);
  return { hasAlpha };
}

/**
 * The request's step: an upload checked by `inspectUpload` (throws `PictureRejected`), turned
 * upright from EXIF orientation, converted to sRGB, longest side capped at 2048 (never
 * enlarged), re-encoded cheaply (JPEG q97 4:4:4; WebP when it has transparency) with every metadata
 * block (EXIF incl. GPS, XMP, ICC, IPTC) dropped. Safe to store and to serve to its owner;
 * `makeMaster` turns it into the master later, at the same size.
 */
export async function prepareUpload(bytes: Uint8Array): Promise<PreparedUpload> {
  const { hasAlpha } = await accept(bytes);
  const sharp = await vips();
  try {
    // sharp writes no metadata unless asked (keepExif/withMetadata...), and converts to sRGB.
    const capped = sharp(bytes, UNTRUSTED).resize(CAP);
    const encoded = hasAlpha ? capped.webp(SETTINGS.uploadWithAlpha) : capped.jpeg(SETTINGS.upload);
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
    return {
      bytes: asBytes(data),
      type: hasAlpha ? OUTPUT_TYPE : "image/jpeg",
      width: info.width,
      height: info.height,
      stage: "upload",
    };
  } catch {
    throw new PictureRejected(422, [DAMAGED]);
  }
}

/**
 * The job's step: a prepared upload (or any picture this module made) re-encoded as the master,
 * WebP without metadata, at most 2048 px. `webp` overrides the encoder settings (bench).
 */
export async function makeMaster(preparedBytes: Uint8Array, webp: WebpOptions = SETTINGS.master): Promise<Picture> {
  return await asMaster((await vips())(preparedBytes, UNTRUSTED), webp);
}

/**
 * Both steps at once, for seeds and tests: an upload checked by `inspectUpload` (throws
 * `PictureRejected`), turned upright, converted to sRGB, capped at 2048 (never enlarged), and
 * encoded as the WebP master with every metadata block dropped. `webp` overrides the encoder
 * settings (bench).
 */
export async function normalizeUpload(bytes: Uint8Array, webp: WebpOptions = SETTINGS.master): Promise<Picture> {
  await accept(bytes);
  const sharp = await vips();
  try {
    return await asMaster(sharp(bytes, UNTRUSTED), webp);
  } catch {
    throw new PictureRejected(422, [DAMAGED]);
  }
}

/** Decodes a master once into raw pixels, so that several sizes can be cut without decoding it again. */
export async function decodeMaster(bytes: Uint8Array): Promise<DecodedPicture> {
  const { data, info } = await (await vips())(bytes, UNTRUSTED).raw().toBuffer({ resolveWithObject: true });
  return { raw: asBytes(data), width: info.width, height: info.height, channels: info.channels };
}

/** A sharp pipeline over encoded bytes or decoded pixels, and the upright size of the picture. */
async function open(src: Uint8Array | DecodedPicture): Promise<{ img: () => Sharp; width: number; height: number }> {
  const sharp = await vips();
  if (src instanceof Uint8Array) {
    const meta = await sharp(src, UNTRUSTED).metadata();
    return { img: () => sharp(src, UNTRUSTED), width: meta.autoOrient.width, height: meta.autoOrient.height };
  }
  const { raw, width, height, channels } = src;
  return { img: () => sharp(raw, { raw: { width, height, channels } }), width, height };
}

/**
 * One served size of a master (encoded, or decoded once by `decodeMaster`): `width` wide
 * (Lanczos), aspect kept, never enlarged (a source narrower than `width` comes back at its own
 * width: `scale_x` is a maximum), WebP, no metadata. With `blur`, the picture is first reduced
 * to 16 px across and then enlarged and smoothed, so the blurred version (served for NSFW on the
 * plain URL) carries no detail to recover, and is the same information at every size. `webp`
 * overrides the encoder settings (bench).
 */
export async function renderVariant(
  master: Uint8Array | DecodedPicture,
  width: PicSize,
  opts: { blur?: boolean; webp?: WebpOptions } = {},
): Promise<Picture> {
  if (!(PIC_SIZES as readonly number[]).includes(width)) {
    throw new RangeError(
      `renderVariant: width must be one of ${PIC_SIZES.join(", ")}`,
    );
  }
  const webp = opts.webp ?? (opts.blur ? SETTINGS.blurred(width) : SETTINGS.variant(width));
  const src = await open(master);
  if (!opts.blur) return asWebp(src.img().resize({ width, withoutEnlargement: true }), webp);
  const srcW = src.width;
  const srcH = src.height;
  const outW = Math.min(width, srcW);
  const outH = Math.max(1, Math.round(srcH * outW / srcW));
  const tiny = await src.img()
    .resize({
      width: Math.min(BLUR_SOURCE_WIDTH, srcW),
      withoutEnlargement: true,
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const blurred = (await vips())(tiny.data, {
    raw: {
      width: tiny.info.width,
      height: tiny.info.height,
      channels: tiny.info.channels,
    },
  })
    .resize({ width: outW, height: outH, fit: "fill", kernel: "cubic" })
    .blur(Math.max(2, outW / 64));
  return asWebp(blurred, webp);
}

/**
 * The editor's Save: rotates the normalized picture by `rotate` degrees clockwise (multiples of
 * 90 are exact; other angles enlarge the canvas with transparent corners), then cuts the box,
 * whose coordinates are pixels of the rotated picture at its stored size (fractions are rounded).
 * A missing `rotate` is 0. A box outside the picture is refused with `PictureRejected` 422. The
 * aspect ratio is the UI's business. The result is WebP without metadata, longest side at most 2048.
 */
export async function cropPicture(
  normalizedBytes: Uint8Array,
  box: Omit<CropBox, "rotate"> & { rotate?: number },
): Promise<Picture> {
  const reasons: string[] = [];
  for (const k of ["x", "y", "width", "height"] as const) {
    if (typeof box[k] !== "number" || !Number.isFinite(box[k])) {
      reasons.push(`The crop ${k} must be a number.`);
    }
  }
  const rotateIn = box.rotate ?? 0;
  if (typeof rotateIn !== "number" || !Number.isFinite(rotateIn)) {
    reasons.push("The rotation must be a number of degrees.");
  }
  if (reasons.length) throw new PictureRejected(422, reasons);

  const angle = ((rotateIn % 360) + 360) % 360;
  const x = Math.round(box.x);
  const y = Math.round(box.y);
  const w = Math.round(box.width);
  const h = Math.round(box.height);

  // Exact quarter turns run in one pipeline; a free angle needs libvips' own canvas size first.
  let src: Sharp;
  let W: number;
  let H: number;
  const sharp = await vips();
  if (angle % 90 === 0) {
    const meta = await sharp(normalizedBytes, UNTRUSTED).metadata();
    const quarter = angle === 90 || angle === 270;
    W = quarter ? meta.autoOrient.height : meta.autoOrient.width;
    H = quarter ? meta.autoOrient.width : meta.autoOrient.height;
    src = sharp(normalizedBytes, UNTRUSTED).rotate(angle);
  } else {
    const rotated = await sharp(normalizedBytes, UNTRUSTED)
      .ensureAlpha()
      .rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .raw()
      .toBuffer({ resolveWithObject: true });
    W = rotated.info.width;
    H = rotated.info.height;
    src = sharp(rotated.data, {
      raw: { width: W, height: H, channels: rotated.info.channels },
    });
  }

  if (w < 1 || h < 1) {
    reasons.push("The crop must be at least 1 pixel wide and high.");
  }
  if (x < 0 || y < 0 || x + w > W || y + h > H) {
    reasons.push(
      `The crop ${w} × ${h} at (${x}, ${y}) is not inside the picture, which is ${W} × ${H}.`,
    );
  }
  if (reasons.length) throw new PictureRejected(422, reasons);

  // extract() after rotate() cuts the rotated picture (sharp keeps the call order for these).
  return await asMaster(src.extract({ left: x, top: y, width: w, height: h }));
}

/**
 * A 64-bit perceptual hash (dHash) of a picture: its grey 9 × 8 thumbnail, one bit per pixel
 * brighter than its right neighbour. Re-encoding, resizing and small edits change few bits, so two
 * hashes within `SAME_PICTURE_BITS` (domain/identify.ts) of each other are taken for the same picture.
 */
export async function perceptualHash(bytes: Uint8Array): Promise<bigint> {
  const { data, info } = await (await vips())(bytes, UNTRUSTED).rotate().toColourspace("b-w")
    .resize(9, 8, { fit: "fill" }).raw().toBuffer({ resolveWithObject: true });
  const ch = info.channels;
  let h = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const i = (y * 9 + x) * ch;
      h = (h << 1n) | (data[i] > data[i + ch] ? 1n : 0n);
    }
  }
  return h;
}
