/**
 * Picture rules and addresses shared by the server and the islands (no sharp, no KV here):
 * the upload limits of spec §5 and §9, the served widths, the crop constants and box, and
 * versioned picture URLs.
 */

import { type PicScale, profilePicUrl } from "./format.ts";

/** The largest upload accepted, in bytes (spec §5). */
export const MAX_UPLOAD_BYTES = 8_192_000;

/** The content types an upload may have (spec §5: png, jpg/jpeg, webp). */
export const UPLOAD_TYPES = ["image/png", "image/jpeg", "image/webp"] as const;

/** The file chooser's `accept`: types and extensions. */
export const UPLOAD_ACCEPT = "image/png,image/jpeg,image/webp,.png,.jpg,.jpeg,.webp";

/** Pictures are cropped at width / height = 0.8 (spec §5, §9). */
export const CROP_ASPECT = 0.8;

/** The crop preview is 80 px wide (spec §5). */
export const CROP_PREVIEW_WIDTH = 80;

/** The most pictures one profile may have (public and private together). */
export const MAX_PICS_PER_PROFILE = 30;

/** The widths the picture URL serves (`?scale_x=`). */
export const PIC_SIZES = [256, 512, 1024, 2048] as const;

/** One of `PIC_SIZES`. */
export type PicSize = (typeof PIC_SIZES)[number];

/** What a viewer needs to show a picture (kv/pictures.ts `PicInfo`). */
export interface PicRef {
  id: string;
  nsfw: boolean;
  v: string;
}

/**
 * The address of a picture at a width. It names the picture's generation (`v`), which the
 * server answers with a long private cache; a crop makes a new generation and so a new address.
 * `showNsfw` picks the real NSFW picture (the member chose Showing NSFW); otherwise an NSFW
 * picture comes blurred.
 */
function picSrc(pic: PicRef, scale: PicScale, showNsfw: boolean): string {
  return `${profilePicUrl(pic.id, scale, showNsfw && pic.nsfw)}&v=${encodeURIComponent(pic.v)}`;
}

/**
 * `src`, `srcSet` by width and `sizes` for a profile's large pictures, shown `sizes` wide: the
 * browser takes the smallest width that fills the picture on its screen, so a phone at 1x loads
 * and decodes 512 pixels instead of 1024, and one at 3x 1024 instead of 2048 (a quarter of the
 * pixels), and the photo a tap opens paints sooner.
 */
export function largePicImgProps(pic: PicRef, sizes: string, showNsfw: boolean) {
  return {
    src: picSrc(pic, 1024, showNsfw),
    srcSet: ([512, 1024, 2048] as const).map((w) => `${picSrc(pic, w, showNsfw)} ${w}w`).join(", "),
    sizes,
  };
}

/** `src` and a 2x `srcSet` for a picture shown `scale` CSS pixels wide. */
export function picImgProps(pic: PicRef, scale: 256 | 512 | 1024, showNsfw: boolean) {
  return {
    src: picSrc(pic, scale, showNsfw),
    srcSet: `${picSrc(pic, scale, showNsfw)} 1x, ${picSrc(pic, (scale * 2) as PicScale, showNsfw)} 2x`,
  };
}

/**
 * Client-side upload checks (the server checks again, by the bytes): the reasons a file is
 * refused, empty when it may be sent.
 */
export function uploadProblems(file: { name: string; type: string; size: number }): string[] {
  const reasons: string[] = [];
  const ext = file.name.toLowerCase().match(/\.(png|jpe?g|webp)$/);
  if (!(UPLOAD_TYPES as readonly string[]).includes(file.type) && !ext) {
    reasons.push("Only PNG, JPEG and WebP pictures can be uploaded.");
  }
  if (file.size > MAX_UPLOAD_BYTES) {
    reasons.push(
      `The file is ${file.size.toLocaleString("en-US")} bytes; the limit is ${
        MAX_UPLOAD_BYTES.toLocaleString("en-US")
      } bytes.`,
    );
  }
  if (file.size === 0) reasons.push("The file is empty.");
  return reasons;
}
