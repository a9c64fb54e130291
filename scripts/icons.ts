/**
 * Makes the installed app's PNG icons from one drawing (the λ as shapes, so no font is needed):
 * 192 and 512 px with rounded corners, and a maskable 512 px whose background fills the square
 * and whose glyph stays inside the 80% safe zone; the same for discreet mode's neutral "Notes".
 *
 * Run: `deno run -A scripts/icons.ts` (writes static/icons/*.png; commit them).
 */

import sharp from "sharp";

const LAMBDA = `<path d="M18 12h9l21 40h-9z M29.5 29.5l4 7.5-9 15h-9z" fill="#c2185b"/>`;
const NOTES = `<path d="M20 16h24v32H20z" fill="#ffffff" stroke="#9e9e9e" stroke-width="2"/>` +
  `<path d="M25 25h14M25 31h14M25 37h10" stroke="#9e9e9e" stroke-width="2.5" stroke-linecap="round"/>`;

function svg(glyph: string, bg: string, maskable: boolean): string {
  // A maskable icon's glyph is drawn at 70%, centred: every mask shape keeps it whole.
  const inner = maskable ? `<g transform="translate(9.6 9.6) scale(0.7)">${glyph}</g>` : glyph;
  const back = maskable
    ? `<rect width="64" height="64" fill="${bg}"/>`
    : `<rect width="64" height="64" rx="14" fill="${bg}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">${back}${inner}</svg>`;
}

await Deno.mkdir(new URL("../static/icons/", import.meta.url), { recursive: true });
for (const [name, glyph, bg] of [["icon", LAMBDA, "#1d1330"], ["neutral", NOTES, "#f2f2f2"]] as const) {
  for (
    const [suffix, size, maskable] of [["192", 192, false], ["512", 512, false], ["maskable-512", 512, true]] as const
  ) {
    const out = new URL(`../static/icons/${name}-${suffix}.png`, import.meta.url).pathname;
    await sharp(new TextEncoder().encode(svg(glyph, bg, maskable)), { density: 72 * size / 64 })
      .resize(size, size)
      .png({ compressionLevel: 9 })
      .toFile(out);
    console.log(out);
  }
}
