/** Pictures for the picture benches, made with sharp. */

import sharp from "sharp";

/** A photo-like picture: smooth gradients under fine texture (pure noise would flatter no one), as JPEG q90 and PNG. */
export async function photoLikeScene(width: number, height: number): Promise<{ jpeg: Uint8Array; png: Uint8Array }> {
  const texture = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: "#808080",
      noise: { type: "gaussian", mean: 128, sigma: 40 },
    },
  }).blur(1.2).png().toBuffer();
  const gradient = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
      <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="#d08050"/><stop offset="1" stop-color="#3060a0"/>
      </linearGradient></defs>
      <rect width="100%" height="100%" fill="url(#g)"/>
      <circle cx="${width / 2}" cy="${height / 3}" r="${width / 4}" fill="#f0d0b0"/>
    </svg>`,
  );
  const base = sharp(gradient).composite([{
    input: texture,
    blend: "soft-light",
  }]);
  const raw = await base.removeAlpha().raw().toBuffer();
  const rawIn = { raw: { width, height, channels: 3 as const } };
  return {
    jpeg: new Uint8Array(
      await sharp(raw, rawIn).jpeg({ quality: 90 }).toBuffer(),
    ),
    png: new Uint8Array(await sharp(raw, rawIn).png().toBuffer()),
  };
}
