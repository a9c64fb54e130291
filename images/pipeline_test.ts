import assert from "node:assert/strict";
import sharp from "sharp";
import { ssim } from "ssim.js";
import {
  cropPicture,
  decodeMaster,
  headerSize,
  inspectUpload,
  makeMaster,
  MAX_UPLOAD_BYTES,
  normalizeUpload,
  PIC_SIZES,
  PictureRejected,
  prepareUpload,
  PREVIOUS_SETTINGS,
  renderVariant,
  sniffType,
} from "./pipeline.ts";
import {
  assertNoMetadata,
  assertQuadrants,
  BLUE,
  fromRaw,
  gpsLatitude,
  GREEN,
  meanColour,
  meanSsim,
  metadataFound,
  near,
  PHONE_SMALL,
  phoneJpeg,
  photoScene,
  pngClaiming,
  quadrants,
  RED,
  ssimOf,
  WHITE,
} from "../tests/fixtures/pictures.ts";

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
  const noise = new Uint8Array(512 * 640 * 3);
  for (let i = 0; i < noise.length; i += 65_536) {
    crypto.getRandomValues(noise.subarray(i, i + 65_536));
  }
  const master = await normalizeUpload(
    await fromRaw(noise, 512, 640).png().toBuffer(),
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

Deno.test("images - a blurred size is encoded without smart subsampling (it has no chroma edges to keep sharp); a plain one with it", async () => {
  // Upright 320 × 640: cut to 256, and to 512 (which keeps its 320 px): a blurred size is made alike at each.
  const decoded = await decodeMaster(
    (await makeMaster((await prepareUpload(await phoneJpeg(PHONE_SMALL))).bytes)).bytes,
  );
  for (const size of [256, 512] as const) {
    const encoded = (blur: boolean, smartSubsample: boolean) =>
      renderVariant(decoded, size, { blur, webp: { quality: 80, effort: 4, smartSubsample } }).then((p) => p.bytes);
    const blurred = (await renderVariant(decoded, size, { blur: true })).bytes;
    assert.deepEqual(blurred, await encoded(true, false), `${size}: blurred`);
    assert.notDeepEqual(blurred, await encoded(true, true), `${size}: smart subsampling changes the bytes`);
    assert.deepEqual((await renderVariant(decoded, size)).bytes, await encoded(false, true), `${size}: plain`);
  }
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

// --- the two steps: prepareUpload in the request, makeMaster in a job

Deno.test("images - prepareUpload turns a phone JPEG upright, caps it at 2048 and strips all metadata, as a JPEG of the master's size", async () => {
  const input = await phoneJpeg();
  const prepared = await prepareUpload(input);
  assert.equal(prepared.stage, "upload");
  assert.equal(prepared.type, "image/jpeg");
  assert.equal(sniffType(prepared.bytes), "image/jpeg");
  assert.deepEqual([prepared.width, prepared.height], [1024, 2048]);
  const m = await sharp(prepared.bytes).metadata();
  assert.deepEqual([m.width, m.height, m.chromaSubsampling], [1024, 2048, "4:4:4"]);
  await assertQuadrants(prepared.bytes, BLUE, RED, WHITE, GREEN);
  await assertNoMetadata(prepared.bytes);
  assert.deepEqual(metadataFound(prepared.bytes), []);

  const master = await makeMaster(prepared.bytes);
  assert.equal(master.type, "image/webp");
  assert.deepEqual([master.width, master.height], [prepared.width, prepared.height], "the size the upload announced");
  await assertQuadrants(master.bytes, BLUE, RED, WHITE, GREEN);
  await assertNoMetadata(master.bytes);
});

Deno.test("images - prepareUpload keeps transparency (as WebP), refuses what inspectUpload refuses, and a damaged file with 422", async () => {
  const rgba = new Uint8Array(400 * 500 * 4).map((_, i) => (i % 4 === 3 ? 128 : i % 251));
  const withAlpha = await prepareUpload(await fromRaw(rgba, 400, 500, 4).png().toBuffer());
  assert.equal(withAlpha.type, "image/webp");
  assert.equal((await sharp(withAlpha.bytes).metadata()).hasAlpha, true);
  assert.equal((await sharp((await makeMaster(withAlpha.bytes)).bytes).metadata()).hasAlpha, true);

  const refused = async (bytes: Uint8Array, status: number) => {
    await assert.rejects(() => prepareUpload(bytes), (e) => e instanceof PictureRejected && e.status === status);
  };
  await refused(pngClaiming(30_000, 30_000), 413);
  await refused(new TextEncoder().encode("not a picture"), 415);
  await refused(new Uint8Array(), 422);
  const jpg = new Uint8Array(await fromRaw(quadrants(256, 256), 256, 256).jpeg().toBuffer());
  await refused(jpg.subarray(0, jpg.length / 2), 422);
});

Deno.test("images - a size cut from a master decoded once is the same picture as one cut from its bytes", async () => {
  // Upright 640 × 1280: cut to 256 it shrinks by 2.5, enough for libvips to shrink while decoding.
  const master = await makeMaster((await prepareUpload(await phoneJpeg({ width: 1280, height: 640 }))).bytes);
  const decoded = await decodeMaster(master.bytes);
  assert.deepEqual([decoded.width, decoded.height], [640, 1280]);
  for (const blur of [false, true]) {
    const fromBytes = await renderVariant(master.bytes, 256, { blur });
    const fromDecoded = await renderVariant(decoded, 256, { blur });
    assert.deepEqual([fromDecoded.width, fromDecoded.height], [fromBytes.width, fromBytes.height]);
    await assertQuadrants(fromDecoded.bytes, BLUE, RED, WHITE, GREEN, blur ? 110 : 40);
    // From bytes, libvips may shrink while decoding; the two differ by resampling only.
    const { data, info } = await sharp(fromBytes.bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const score = await ssimOf(
      { raw: new Uint8Array(data), width: info.width, height: info.height },
      fromDecoded.bytes,
    );
    assert.ok(score.y > 0.98, `${blur ? "blurred" : "plain"}: SSIM ${score.y}`);
  }
});

Deno.test("images - meanSsim (the quality case's SSIM) is ssim.js's Gaussian-window SSIM", async () => {
  const [w, h] = [120, 150];
  const raw = await photoScene(w, h);
  const luma = (rgb: Uint8Array) => {
    const y = new Uint8ClampedArray(w * h);
    for (let i = 0, j = 0; j < w * h; i += 3, j++) y[j] = 0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2];
    return y;
  };
  const rgba = (grey: Uint8ClampedArray) => ({
    data: Uint8ClampedArray.from({ length: grey.length * 4 }, (_, i) => (i % 4 === 3 ? 255 : grey[i >> 2])),
    width: w,
    height: h,
  });
  const reference = luma(raw);
  for (const quality of [20, 90]) {
    const encoded = await fromRaw(raw, w, h).webp({ quality }).removeAlpha().raw().toBuffer();
    const decoded = luma(new Uint8Array(encoded));
    const theirs = ssim(rgba(reference), rgba(decoded), { ssim: "fast", downsample: false }).mssim;
    const mine = meanSsim(reference, decoded, w, h);
    assert.ok(Math.abs(mine - theirs) < 1e-9, `q${quality}: ${mine} against ssim.js's ${theirs}`);
  }
  assert.equal(meanSsim(reference, reference, w, h), 1);
});

Deno.test("images - the new master and served sizes keep the previous settings' SSIM (ssim.js, luma) within 0.005 at no more than 1.4× the bytes", async () => {
  const [w, h] = [1200, 1500];
  const raw = await photoScene(w, h);
  const upload = new Uint8Array(await fromRaw(raw, w, h).jpeg({ quality: 95 }).toBuffer());
  const reference = async (width: number) => {
    const r = await fromRaw(raw, w, h).resize({ width }).raw().toBuffer({ resolveWithObject: true });
    return { raw: new Uint8Array(r.data), width: r.info.width, height: r.info.height };
  };
  const previousMaster = await normalizeUpload(upload, PREVIOUS_SETTINGS.master);
  const master = await makeMaster((await prepareUpload(upload)).bytes);
  const rows: string[] = [];
  const compare = async (what: string, width: number, before: Uint8Array, after: Uint8Array) => {
    const ref = await reference(width);
    const [b, a] = [(await ssimOf(ref, before)).y, (await ssimOf(ref, after)).y];
    rows.push(`${what}: SSIM ${b.toFixed(4)} → ${a.toFixed(4)}, ${before.length} → ${after.length} bytes`);
    assert.ok(a >= b - 0.005, `${what}: SSIM ${a.toFixed(4)}, was ${b.toFixed(4)}`);
    assert.ok(after.length <= before.length * 1.4, `${what}: ${after.length} bytes, was ${before.length}`);
  };
  await compare("master", w, previousMaster.bytes, master.bytes);
  for (const size of [256, 512, 1024] as const) {
    const before = await renderVariant(previousMaster.bytes, size, { webp: PREVIOUS_SETTINGS.variant });
    await compare(`${size}`, size, before.bytes, (await renderVariant(master.bytes, size)).bytes);
  }
  console.log("  " + rows.join("\n  "));
});
