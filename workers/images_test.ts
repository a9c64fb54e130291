import assert from "node:assert/strict";
import sharp from "sharp";
import {
  cropPicture,
  headerSize,
  inspectUpload,
  MAX_UPLOAD_BYTES,
  normalizeUpload,
  PIC_SIZES,
  PictureRejected,
  renderVariant,
  sniffType,
} from "./images.ts";

// --- fixtures: real pictures made here, and hand-built headers

type RGB = [number, number, number];
const RED: RGB = [255, 0, 0];
const GREEN: RGB = [0, 255, 0];
const BLUE: RGB = [0, 0, 255];
const WHITE: RGB = [255, 255, 255];

/** Raw RGB with four quadrants: top-left red, top-right green, bottom-left blue, bottom-right white. */
function quadrants(width: number, height: number): Uint8Array {
  const raw = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = y < height / 2;
      const left = x < width / 2;
      raw.set(
        top ? (left ? RED : GREEN) : (left ? BLUE : WHITE),
        (y * width + x) * 3,
      );
    }
  }
  return raw;
}

function fromRaw(
  raw: Uint8Array,
  width: number,
  height: number,
  channels: 3 | 4 = 3,
) {
  return sharp(raw, { raw: { width, height, channels } });
}

/** Big-endian TIFF/EXIF with Orientation and a GPS IFD (latitude 52°31'N, longitude 13°24'E). */
function exifApp1(orientation: number): Uint8Array {
  const tiff = new Uint8Array(200);
  const dv = new DataView(tiff.buffer);
  tiff.set([0x4d, 0x4d, 0x00, 0x2a, 0, 0, 0, 8]); // "MM", 42, IFD0 at 8
  // IFD0 at 8: 2 entries (12 bytes each), next-IFD 0 -> ends at 8+2+24+4 = 38
  dv.setUint16(8, 2);
  dv.setUint16(10, 0x0112); // Orientation
  dv.setUint16(12, 3); // SHORT
  dv.setUint32(14, 1);
  dv.setUint16(18, orientation);
  dv.setUint16(22, 0x8825); // GPSInfo IFD pointer
  dv.setUint16(24, 4); // LONG
  dv.setUint32(26, 1);
  dv.setUint32(30, 38);
  dv.setUint32(34, 0);
  // GPS IFD at 38: 4 entries -> ends at 38+2+48+4 = 92; rationals from 92
  dv.setUint16(38, 4);
  const entry = (
    i: number,
    tag: number,
    type: number,
    count: number,
    value: number,
  ) => {
    const at = 40 + i * 12;
    dv.setUint16(at, tag);
    dv.setUint16(at + 2, type);
    dv.setUint32(at + 4, count);
    if (type === 2) tiff[at + 8] = value; // one ASCII letter + NUL, inline
    else dv.setUint32(at + 8, value);
  };
  entry(0, 0x0001, 2, 2, "N".charCodeAt(0)); // GPSLatitudeRef
  entry(1, 0x0002, 5, 3, 92); // GPSLatitude -> 3 RATIONALs at 92
  entry(2, 0x0003, 2, 2, "E".charCodeAt(0)); // GPSLongitudeRef
  entry(3, 0x0004, 5, 3, 116); // GPSLongitude -> 3 RATIONALs at 116
  dv.setUint32(88, 0);
  [52, 31, 0].forEach((
    v,
    i,
  ) => (dv.setUint32(92 + i * 8, v), dv.setUint32(96 + i * 8, 1)));
  [13, 24, 0].forEach((
    v,
    i,
  ) => (dv.setUint32(116 + i * 8, v), dv.setUint32(120 + i * 8, 1)));
  const body = new Uint8Array([
    ...new TextEncoder().encode("Exif\0\0"),
    ...tiff.subarray(0, 140),
  ]);
  const seg = new Uint8Array(4 + body.length);
  seg.set([0xff, 0xe1, (body.length + 2) >> 8, (body.length + 2) & 0xff]);
  seg.set(body, 4);
  return seg;
}

/** Inserts a segment right after a JPEG's SOI marker. */
function insertAfterSoi(jpeg: Uint8Array, segment: Uint8Array): Uint8Array {
  return new Uint8Array([
    ...jpeg.subarray(0, 2),
    ...segment,
    ...jpeg.subarray(2),
  ]);
}

/** The GPS latitude (degrees) an EXIF block (as sharp's `metadata().exif` gives it) carries, or null. */
function gpsLatitude(exif: Uint8Array | undefined): number | null {
  if (!exif) return null;
  const t = exif.subarray(6); // skip "Exif\0\0"
  const dv = new DataView(t.buffer, t.byteOffset, t.byteLength);
  const le = t[0] === 0x49;
  const u16 = (o: number) => dv.getUint16(o, le);
  const u32 = (o: number) => dv.getUint32(o, le);
  const find = (ifd: number, tag: number) => {
    for (let i = 0, n = u16(ifd); i < n; i++) {
      const at = ifd + 2 + i * 12;
      if (u16(at) === tag) return at;
    }
    return -1;
  };
  const gpsPtr = find(u32(4), 0x8825);
  if (gpsPtr < 0) return null;
  const lat = find(u32(gpsPtr + 8), 0x0002);
  if (lat < 0) return null;
  const off = u32(lat + 8);
  const r = (i: number) => u32(off + i * 8) / u32(off + i * 8 + 4);
  return r(0) + r(1) / 60 + r(2) / 3600;
}

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF ` +
  `xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description ` +
  `xmlns:dc="http://purl.org/dc/elements/1.1/" dc:creator="secret person"/></rdf:RDF></x:xmpmeta>`;

/** A phone-like JPEG: stored 2400 × 1200 (quadrants), EXIF Orientation 6 with GPS, XMP, a P3 ICC profile. */
async function phoneJpeg(): Promise<Uint8Array> {
  const base = await fromRaw(quadrants(2400, 1200), 2400, 1200)
    .withIccProfile("p3")
    .withXmp(XMP)
    .jpeg({ quality: 90 })
    .toBuffer();
  return insertAfterSoi(new Uint8Array(base), exifApp1(6));
}

function crc32(buf: Uint8Array): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  dv.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/** A valid, tiny PNG whose header claims `width` × `height` RGB pixels (the pixel data is not there). */
function pngClaiming(width: number, height: number): Uint8Array {
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width);
  dv.setUint32(4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const idat = new Uint8Array([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]); // empty zlib
  return new Uint8Array([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...pngChunk("IHDR", ihdr),
    ...pngChunk("IDAT", idat),
    ...pngChunk("IEND", new Uint8Array()),
  ]);
}

/** The mean colour of a region given in fractions of the picture (x0, y0, x1, y1). */
async function meanColour(
  img: Uint8Array,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
) {
  const { data, info } = await sharp(img).removeAlpha().raw().toBuffer({
    resolveWithObject: true,
  });
  const sum = [0, 0, 0];
  let n = 0;
  for (
    let y = Math.floor(y0 * info.height);
    y < Math.floor(y1 * info.height);
    y++
  ) {
    for (
      let x = Math.floor(x0 * info.width);
      x < Math.floor(x1 * info.width);
      x++
    ) {
      const i = (y * info.width + x) * info.channels;
      for (let c = 0; c < 3; c++) sum[c] += data[i + c];
      n++;
    }
  }
  return sum.map((s) => s / n) as RGB;
}

function near(actual: RGB, expected: RGB, tolerance = 40): boolean {
  return actual.every((v, i) => Math.abs(v - expected[i]) <= tolerance);
}

/** Quadrant centres (inner halves, away from edges and blur) must have these colours. */
async function assertQuadrants(
  img: Uint8Array,
  tl: RGB,
  tr: RGB,
  bl: RGB,
  br: RGB,
  tol = 40,
) {
  const got = {
    tl: await meanColour(img, 0.1, 0.1, 0.4, 0.4),
    tr: await meanColour(img, 0.6, 0.1, 0.9, 0.4),
    bl: await meanColour(img, 0.1, 0.6, 0.4, 0.9),
    br: await meanColour(img, 0.6, 0.6, 0.9, 0.9),
  };
  const want = { tl, tr, bl, br };
  for (const k of ["tl", "tr", "bl", "br"] as const) {
    assert.ok(
      near(got[k], want[k], tol),
      `${k}: got ${got[k].map(Math.round)}, want ${want[k]}`,
    );
  }
}

/** No EXIF (so no GPS and no orientation), XMP, ICC or IPTC is left. */
async function assertNoMetadata(img: Uint8Array) {
  const m = await sharp(img).metadata();
  assert.equal(m.exif, undefined, "exif");
  assert.equal(m.xmp, undefined, "xmp");
  assert.equal(m.icc, undefined, "icc");
  assert.equal(m.iptc, undefined, "iptc");
  assert.equal(m.orientation, undefined, "orientation");
  const text = new TextDecoder("latin1").decode(img);
  assert.ok(
    !text.includes("secret person"),
    "no XMP text anywhere in the bytes",
  );
  assert.ok(!text.includes("Exif\0"), "no EXIF block anywhere in the bytes");
}

// --- type sniffing and limits

Deno.test("images - the type comes from the magic bytes only", async () => {
  const png = await fromRaw(quadrants(8, 8), 8, 8).png().toBuffer();
  const jpg = await fromRaw(quadrants(8, 8), 8, 8).jpeg().toBuffer();
  const webp = await fromRaw(quadrants(8, 8), 8, 8).webp().toBuffer();
  const gif = await fromRaw(quadrants(8, 8), 8, 8).gif().toBuffer();
  assert.equal(sniffType(png), "image/png");
  assert.equal(sniffType(jpg), "image/jpeg");
  assert.equal(sniffType(webp), "image/webp");
  assert.equal(sniffType(gif), null);
  assert.equal(
    sniffType(new TextEncoder().encode("hello, I am photo.jpg")),
    null,
  );
  assert.equal(
    sniffType(new TextEncoder().encode("RIFF\0\0\0\0WAVEfmt ")),
    null,
  );
  assert.equal(sniffType(new Uint8Array()), null);
});

Deno.test("images - a GIF or a text file (whatever its name) is refused with 415", async () => {
  const gif = await fromRaw(quadrants(32, 32), 32, 32).gif().toBuffer();
  const text = new TextEncoder().encode(
    "this is not a picture, even if it is called me.jpg\n",
  );
  for (const bytes of [gif, text]) {
    const r = await inspectUpload(bytes);
    assert.equal(r.ok, false);
    assert.ok(
      !r.ok && r.status === 415 && r.reasons.length === 1,
      JSON.stringify(r),
    );
    await assert.rejects(
      () => normalizeUpload(bytes),
      (e) => e instanceof PictureRejected && e.status === 415,
    );
  }
});

Deno.test("images - 8,192,001 bytes is refused with 413; 8,192,000 is not refused for size", async () => {
  const jpg = new Uint8Array(
    await fromRaw(quadrants(64, 64), 64, 64).jpeg().toBuffer(),
  );
  // Bytes after the JPEG's end marker are ignored by decoders: the file stays a valid JPEG.
  const padded = (n: number) => {
    const b = new Uint8Array(n);
    b.set(jpg);
    return b;
  };
  const over = await inspectUpload(padded(MAX_UPLOAD_BYTES + 1));
  assert.ok(!over.ok && over.status === 413, JSON.stringify(over));
  assert.match(
    over.reasons[0],
    /8,192,001 bytes; the limit is 8,192,000 bytes/,
  );
  const atLimit = await inspectUpload(padded(MAX_UPLOAD_BYTES));
  assert.deepEqual(atLimit, {
    ok: true,
    type: "image/jpeg",
    width: 64,
    height: 64,
  });
});

Deno.test("images - a tiny PNG claiming 30,000 × 30,000 is refused fast, without decoding", async () => {
  const bomb = pngClaiming(30_000, 30_000);
  assert.ok(bomb.length < 100, "the file itself is tiny");
  assert.deepEqual(headerSize(bomb, "image/png"), {
    width: 30_000,
    height: 30_000,
  });
  const t0 = performance.now();
  const r = await inspectUpload(bomb);
  const inspectMs = performance.now() - t0;
  assert.ok(!r.ok && r.status === 413, JSON.stringify(r));
  assert.match(r.reasons[0], /30,000 × 30,000 pixels/);
  assert.ok(inspectMs < 200, `inspect took ${inspectMs} ms`);

  const t1 = performance.now();
  await assert.rejects(
    () => normalizeUpload(bomb),
    (e) => e instanceof PictureRejected && e.status === 413,
  );
  assert.ok(performance.now() - t1 < 200, "normalize refuses as fast");
});

Deno.test("images - JPEG and WebP headers claiming too many pixels are refused with 413", async () => {
  // JPEG: SOI, then a baseline frame header claiming 60,000 × 60,000, then EOI.
  const jpeg = new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    0xea,
    0x60,
    0xea,
    0x60,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
    0xff,
    0xd9,
  ]);
  // WebP VP8X: canvas 16,384 × 16,384 (268 megapixels).
  const webp = new Uint8Array(30);
  webp.set(new TextEncoder().encode("RIFF"), 0);
  new DataView(webp.buffer).setUint32(4, 22, true);
  webp.set(new TextEncoder().encode("WEBPVP8X"), 8);
  new DataView(webp.buffer).setUint32(16, 10, true);
  webp.set([0xff, 0x3f, 0x00, 0xff, 0x3f, 0x00], 24);
  for (const [bytes, w] of [[jpeg, 60_000], [webp, 16_384]] as const) {
    const t0 = performance.now();
    const r = await inspectUpload(bytes);
    assert.ok(!r.ok && r.status === 413, JSON.stringify(r));
    assert.ok(
      r.reasons[0].includes(`${w.toLocaleString("en-US")} ×`),
      r.reasons[0],
    );
    assert.ok(performance.now() - t0 < 200);
  }
});

Deno.test("images - damaged or empty files are refused with 422", async () => {
  const jpg = new Uint8Array(
    await fromRaw(quadrants(256, 256), 256, 256).jpeg().toBuffer(),
  );
  const empty = await inspectUpload(new Uint8Array());
  assert.ok(!empty.ok && empty.status === 422);
  const headless = await inspectUpload(
    new Uint8Array([0xff, 0xd8, 0xff, 0xd9]),
  );
  assert.ok(!headless.ok && headless.status === 422);
  // The header is intact, so inspect accepts it; the decode finds the truncation.
  const truncated = jpg.subarray(0, Math.floor(jpg.length / 2));
  await assert.rejects(
    () => normalizeUpload(truncated),
    (e) => e instanceof PictureRejected && e.status === 422,
  );
});

// --- normalize: upright, stripped, capped

Deno.test("images - the phone fixture really carries orientation 6, GPS, XMP and ICC", async () => {
  const input = await phoneJpeg();
  const m = await sharp(input).metadata();
  assert.equal(m.orientation, 6);
  assert.equal(gpsLatitude(m.exif), 52 + 31 / 60);
  assert.ok(m.xmp && new TextDecoder().decode(m.xmp).includes("secret person"));
  assert.ok(m.icc && m.icc.length > 0);
  assert.equal(m.width, 2400);
  assert.equal(m.height, 1200);
  // Stored upside: red top-left (before orientation is applied).
  await assertQuadrants(input, RED, GREEN, BLUE, WHITE);
});

Deno.test("images - normalize turns a phone JPEG upright, caps it at 2048 and strips all metadata", async () => {
  const input = await phoneJpeg();
  const check = await inspectUpload(input);
  assert.deepEqual(check, {
    ok: true,
    type: "image/jpeg",
    width: 1200,
    height: 2400,
  });

  const out = await normalizeUpload(input);
  assert.equal(out.type, "image/webp");
  assert.equal(sniffType(out.bytes), "image/webp");
  assert.deepEqual([out.width, out.height], [1024, 2048]);
  const m = await sharp(out.bytes).metadata();
  assert.deepEqual([m.width, m.height], [1024, 2048]);
  // Orientation 6 = turn 90° clockwise: stored top-left goes to top-right, bottom-left to top-left.
  await assertQuadrants(out.bytes, BLUE, RED, WHITE, GREEN);
  await assertNoMetadata(out.bytes);
});

Deno.test("images - every variant (plain and blurred) of the phone JPEG is upright and stripped", async () => {
  const master = await normalizeUpload(await phoneJpeg());
  for (const size of PIC_SIZES) {
    const plain = await renderVariant(master.bytes, size);
    const expectW = Math.min(size, 1024); // never enlarged beyond the 1024 × 2048 master
    assert.deepEqual(
      [plain.width, plain.height],
      [expectW, expectW * 2],
      `size ${size}`,
    );
    const m = await sharp(plain.bytes).metadata();
    assert.deepEqual([m.width, m.height, m.format], [
      expectW,
      expectW * 2,
      "webp",
    ]);
    await assertQuadrants(plain.bytes, BLUE, RED, WHITE, GREEN);
    await assertNoMetadata(plain.bytes);

    const blurred = await renderVariant(master.bytes, size, { blur: true });
    assert.deepEqual([blurred.width, blurred.height], [expectW, expectW * 2]);
    // Heavily blurred, the quadrant centres still lean to their colours: still upright.
    await assertQuadrants(blurred.bytes, BLUE, RED, WHITE, GREEN, 110);
    await assertNoMetadata(blurred.bytes);
  }
});

Deno.test("images - a big PNG is capped at 2048 on its longest side; a small one is not enlarged", async () => {
  const big = await fromRaw(quadrants(3000, 1000), 3000, 1000).png().toBuffer();
  const out = await normalizeUpload(big);
  assert.deepEqual([out.width, out.height], [2048, 683]);
  await assertQuadrants(out.bytes, RED, GREEN, BLUE, WHITE);
  const small = await fromRaw(quadrants(300, 200), 300, 200).png().toBuffer();
  const s = await normalizeUpload(small);
  assert.deepEqual([s.width, s.height], [300, 200]);
});

Deno.test("images - WebP uploads (lossy, lossless, with alpha) are accepted", async () => {
  const rgba = new Uint8Array(400 * 500 * 4).map((
    _,
    i,
  ) => (i % 4 === 3 ? 128 : i % 251));
  const cases = [
    await fromRaw(quadrants(400, 500), 400, 500).webp({ quality: 80 })
      .toBuffer(),
    await fromRaw(quadrants(400, 500), 400, 500).webp({ lossless: true })
      .toBuffer(),
    await fromRaw(rgba, 400, 500, 4).webp().toBuffer(), // VP8X with an alpha chunk
  ];
  for (const webp of cases) {
    assert.deepEqual(await inspectUpload(webp), {
      ok: true,
      type: "image/webp",
      width: 400,
      height: 500,
    });
    const out = await normalizeUpload(webp);
    assert.deepEqual([out.width, out.height], [400, 500]);
    await assertNoMetadata(out.bytes);
  }
  const withAlpha = await normalizeUpload(cases[2]);
  assert.equal(
    (await sharp(withAlpha.bytes).metadata()).hasAlpha,
    true,
    "transparency is kept",
  );
});

// --- variants

Deno.test("images - the blurred variant differs from the plain one and keeps no fine detail", async () => {
  // Noise: all detail. The plain variant keeps pixel-to-pixel contrast, the blurred one none.
  const noise = new Uint8Array(1024 * 1280 * 3);
  for (let i = 0; i < noise.length; i += 65_536) {
    crypto.getRandomValues(noise.subarray(i, i + 65_536));
  }
  const master = await normalizeUpload(
    await fromRaw(noise, 1024, 1280).png().toBuffer(),
  );
  const plain = await renderVariant(master.bytes, 512);
  const blurred = await renderVariant(master.bytes, 512, { blur: true });
  assert.deepEqual([blurred.width, blurred.height], [
    plain.width,
    plain.height,
  ]);
  assert.notDeepEqual(blurred.bytes, plain.bytes);

  const neighbourContrast = async (img: Uint8Array) => {
    const { data, info } = await sharp(img).removeAlpha().raw().toBuffer({
      resolveWithObject: true,
    });
    let sum = 0;
    for (let y = 0; y < info.height; y++) {
      for (let x = 1; x < info.width; x++) {
        const i = (y * info.width + x) * 3;
        sum += Math.abs(data[i] - data[i - 3]);
      }
    }
    return sum / (info.height * (info.width - 1));
  };
  const plainContrast = await neighbourContrast(plain.bytes);
  const blurContrast = await neighbourContrast(blurred.bytes);
  assert.ok(plainContrast > 20, `plain keeps detail (${plainContrast})`);
  assert.ok(blurContrast < 1, `blurred keeps none (${blurContrast})`);
});

Deno.test("images - renderVariant refuses a width that is not a served size", async () => {
  const master = await normalizeUpload(
    await fromRaw(quadrants(64, 64), 64, 64).png().toBuffer(),
  );
  await assert.rejects(
    () => renderVariant(master.bytes, 300 as 256),
    RangeError,
  );
});

// --- crop and rotate

Deno.test("images - crop cuts a box of the picture; rotate turns it clockwise first", async () => {
  const master = await normalizeUpload(
    await fromRaw(quadrants(800, 400), 800, 400).png().toBuffer(),
  );
  assert.deepEqual([master.width, master.height], [800, 400]);

  const tr = await cropPicture(master.bytes, {
    x: 400,
    y: 0,
    width: 400,
    height: 200,
  });
  assert.deepEqual([tr.width, tr.height], [400, 200]);
  assert.ok(near(await meanColour(tr.bytes, 0.1, 0.1, 0.9, 0.9), GREEN));
  await assertNoMetadata(tr.bytes);

  // Turned 90° clockwise the picture is 400 × 800 with blue top-left, red top-right.
  const r90 = await cropPicture(master.bytes, {
    x: 0,
    y: 0,
    width: 200,
    height: 400,
    rotate: 90,
  });
  assert.deepEqual([r90.width, r90.height], [200, 400]);
  assert.ok(near(await meanColour(r90.bytes, 0.1, 0.1, 0.9, 0.9), BLUE));
  const r270 = await cropPicture(master.bytes, {
    x: 0,
    y: 0,
    width: 200,
    height: 400,
    rotate: -90,
  });
  assert.ok(
    near(await meanColour(r270.bytes, 0.1, 0.1, 0.9, 0.9), GREEN),
    "-90 is 270",
  );
  const r180 = await cropPicture(master.bytes, {
    x: 0,
    y: 0,
    width: 400,
    height: 200,
    rotate: 180,
  });
  assert.ok(near(await meanColour(r180.bytes, 0.1, 0.1, 0.9, 0.9), WHITE));

  // A free angle: the canvas grows, the centre of the picture stays where it was.
  const r30 = await cropPicture(master.bytes, {
    x: 380,
    y: 280,
    width: 80,
    height: 100,
    rotate: 30,
  });
  assert.deepEqual([r30.width, r30.height], [80, 100]);
});

Deno.test("images - a crop box outside the picture is refused with 422", async () => {
  const master = await normalizeUpload(
    await fromRaw(quadrants(800, 400), 800, 400).png().toBuffer(),
  );
  const bad = [
    { x: 700, y: 0, width: 200, height: 100 },
    { x: -1, y: 0, width: 100, height: 100 },
    { x: 0, y: 0, width: 0, height: 100 },
    { x: 0, y: 0, width: 400, height: 500 }, // fits turned, not upright
    { x: 0, y: 0, width: 100, height: 100, rotate: Number.NaN },
    { x: "0", y: 0, width: 100, height: 100 } as unknown as {
      x: number;
      y: number;
      width: number;
      height: number;
    },
  ];
  for (const box of bad) {
    await assert.rejects(
      () => cropPicture(master.bytes, box),
      (e) =>
        e instanceof PictureRejected && e.status === 422 &&
        e.reasons.length > 0,
      JSON.stringify(box),
    );
  }
  const turned = await cropPicture(master.bytes, {
    x: 0,
    y: 0,
    width: 400,
    height: 500,
    rotate: 90,
  });
  assert.deepEqual([turned.width, turned.height], [400, 500]);
});
