/**
 * Pictures per second, sharp (libvips) beside imagescript, for decode + resize to each served
 * width + JPEG encode, on the same JPEG and PNG sources (imagescript cannot decode WebP).
 * Run: `deno run -A bench/images.ts`. One picture at a time (sharp still uses its libvips
 * threads inside one picture); each cell runs for about `CELL_MS`. Also times the real
 * `renderVariant` path (WebP master to WebP variant), which only sharp can run.
 */

import sharp from "sharp";
import { Image } from "imagescript";
import { normalizeUpload, PIC_SIZES, renderVariant } from "../images/pipeline.ts";
import { photoLikeScene } from "./photoScene.ts";

const CELL_MS = 1_500;
const MIN_RUNS = 2;
const QUALITY = 80;
/** The normalized master's largest shape (aspect 0.8): what variants are rendered from. */
const SRC_W = 2048;
const SRC_H = 2560;

/** Runs `fn` for about CELL_MS (at least MIN_RUNS times, after one warm-up); pictures per second. */
async function rate(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  let runs = 0;
  const t0 = performance.now();
  while (runs < MIN_RUNS || performance.now() - t0 < CELL_MS) {
    await fn();
    runs++;
  }
  return runs / ((performance.now() - t0) / 1000);
}

const withSharp = (src: Uint8Array, width: number) => () =>
  sharp(src).resize({ width, withoutEnlargement: true }).jpeg({
    quality: QUALITY,
  }).toBuffer();

const withImagescript = (src: Uint8Array, width: number) => async () => {
  const img = await Image.decode(src);
  if (width < img.width) img.resize(width, Image.RESIZE_AUTO);
  return await img.encodeJPEG(QUALITY);
};

const started = performance.now();
const { jpeg, png } = await photoLikeScene(SRC_W, SRC_H);
console.log(
  `source ${SRC_W}×${SRC_H}: JPEG q90 ${(jpeg.length / 1e6).toFixed(2)} MB, ` +
    `PNG ${(png.length / 1e6).toFixed(2)} MB; output JPEG q${QUALITY}; ` +
    `sharp ${sharp.versions.sharp} / libvips ${sharp.versions.vips}, ` +
    `sharp.concurrency ${sharp.concurrency()}, ${navigator.hardwareConcurrency} CPUs\n`,
);

const rows: string[][] = [];
for (const size of PIC_SIZES) {
  for (const [name, src] of [["JPEG", jpeg], ["PNG", png]] as const) {
    const s = await rate(withSharp(src, size));
    const i = await rate(withImagescript(src, size));
    rows.push([
      String(size),
      name,
      s.toFixed(2),
      i.toFixed(2),
      `${(s / i).toFixed(1)}×`,
    ]);
  }
}
printTable(
  ["size", "source", "sharp pics/s", "imagescript pics/s", "ratio"],
  rows,
);

// The path the app really runs: WebP master (from normalizeUpload) to a WebP variant.
const master = await normalizeUpload(jpeg);
const variantRows: string[][] = [];
for (const size of PIC_SIZES) {
  const plain = await rate(() => renderVariant(master.bytes, size));
  const blurred = await rate(() => renderVariant(master.bytes, size, { blur: true }));
  variantRows.push([String(size), plain.toFixed(2), blurred.toFixed(2)]);
}
const normalize = await rate(() => normalizeUpload(jpeg));
console.log(
  `\nrenderVariant from the ${master.width}×${master.height} WebP master (sharp only):`,
);
printTable(["size", "plain pics/s", "blurred pics/s"], variantRows);
console.log(
  `\nnormalizeUpload of the JPEG source: ${normalize.toFixed(2)} pics/s`,
);
console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);

function printTable(head: string[], body: string[][]) {
  const widths = head.map((h, c) => Math.max(h.length, ...body.map((r) => r[c].length)));
  const line = (r: string[]) => "| " + r.map((v, c) => v.padStart(widths[c])).join(" | ") + " |";
  console.log(line(head));
  console.log("|" + widths.map((w) => "-".repeat(w + 1) + ":").join("|") + "|");
  for (const r of body) console.log(line(r));
}
