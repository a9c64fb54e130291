import assert from "node:assert/strict";
import sharp from "sharp";
import { ORIGIN, testApp } from "../../tests/api.ts";
import {
  assertNoMetadata,
  assertQuadrants,
  BLUE,
  fromRaw,
  GREEN,
  meanColour,
  near,
  phoneJpeg,
  pngClaiming,
  quadrants,
  RED,
  WHITE,
} from "../../tests/fixtures/pictures.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { MAX_UPLOAD_BYTES, PIC_SIZES } from "../../images/pipeline.ts";
import { getBlobMeta } from "../../kv/blobs.ts";
import { getPic, grantPictureAccess, variantBlobId } from "../../kv/pictures.ts";
import { renderGeneration } from "../../workers/pictures.ts";
import { block, cpuMs, getBytes, makeAdmin, png, stored, upload } from "../../tests/fixtures/picturesApi.ts";

Deno.test("pictures - a phone JPEG with EXIF GPS and orientation 6 is served upright with no metadata at every size", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const up = await upload(t, m, await phoneJpeg(), { name: "IMG_0001.jpg" });
    assert.equal(up.status, 201, up.text);
    assert.deepEqual([up.data.width, up.data.height], [1024, 2048]);
    const id = up.data.id as string;
    const check = async (bytes: Uint8Array, width: number) => {
      const meta = await sharp(bytes).metadata();
      assert.equal(meta.format, "webp");
      assert.deepEqual([meta.width, meta.height], [width, width * 2]);
      // Orientation 6 turns the stored picture 90° clockwise: blue top-left, red top-right.
      await assertQuadrants(bytes, BLUE, RED, WHITE, GREEN);
      await assertNoMetadata(bytes);
    };
    // Before the job has run, sizes are scaled on the fly; after, they come from the store.
    for (const pass of ["on the fly", "stored"]) {
      for (const size of PIC_SIZES) {
        const r = await getBytes(t, `/api/profile-pic/${id}?scale_x=${size}`, m.cookie);
        assert.equal(r.status, 200, `${pass} ${size}`);
        assert.equal(r.headers.get("content-type"), "image/webp");
        await check(r.bytes, Math.min(size, 1024));
      }
      const orig = await getBytes(t, `/api/profile-pic/${id}?orig=1`, m.cookie);
      assert.equal(orig.status, 200);
      await check(orig.bytes, 1024);
      const meta = await t.call("GET", `/api/profile/pic/${id}`, { cookie: m.cookie });
      assert.equal(meta.data.ready, pass === "stored");
      if (pass === "on the fly") assert.ok((await runDueJobs(handlers)) >= 1);
    }
    // 1024 and 2048 both show the 1024-wide master: stored once.
    const pic = (await getPic(id))!;
    assert.ok(await getBlobMeta(variantBlobId(id, pic.gen, { size: 1024, blur: false })));
    assert.equal(await getBlobMeta(variantBlobId(id, pic.gen, { size: 2048, blur: false })), null);
    // The job is idempotent: a second run renders nothing.
    assert.equal(await renderGeneration(id, pic.gen), 0);
  } finally {
    t.close();
  }
});

Deno.test("pictures - a file that is not png/jpeg/webp is refused with 415 whatever its name; nothing is stored", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const before = await stored();
    const gif = new Uint8Array(await fromRaw(quadrants(32, 32), 32, 32).gif().toBuffer());
    const text = new TextEncoder().encode("<svg xmlns='http://www.w3.org/2000/svg'/> not a photo");
    for (const [bytes, name] of [[gif, "cat.png"], [text, "me.jpg"], [text, "me.webp"]] as const) {
      const r = await upload(t, m, bytes, { name });
      assert.equal(r.status, 415, name);
      assert.equal(r.data.error.code, "unsupported_type");
      assert.match(r.data.error.message, /not a PNG, JPEG or WebP/);
    }
    assert.deepEqual(await stored(), before);
  } finally {
    t.close();
  }
});

Deno.test("pictures - 8,192,001 bytes is refused with 413 while streaming; 8,192,000 is accepted", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const jpg = new Uint8Array(await fromRaw(quadrants(64, 64), 64, 64).jpeg().toBuffer());
    // Bytes after a JPEG's end marker are ignored by decoders: the padded file is still a JPEG.
    const padded = (n: number) => {
      const b = new Uint8Array(n);
      b.set(jpg);
      return b;
    };
    const before = await stored();

    // Streamed without a length, in 64 KiB chunks; count what the server pulls.
    const boundary = "----test" + crypto.randomUUID();
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="authorProfileId"\r\n\r\n${m.profileId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="picfile"; filename="big.jpg"\r\n` +
        `Content-Type: image/jpeg\r\n\r\n`,
    );
    const tail = new TextEncoder().encode(`\r\n--${boundary}--\r\n`);
    const streamed = (file: Uint8Array, extra = 0) => {
      let pulled = 0;
      const parts = [
        head,
        ...Array.from({ length: Math.ceil(file.length / 65536) }, (_, i) => file.subarray(i * 65536, (i + 1) * 65536)),
        ...Array.from({ length: extra }, () => new Uint8Array(65536)),
        tail,
      ];
      const body = new ReadableStream<Uint8Array>({
        pull(ctl) {
          const next = parts.shift();
          if (!next) return ctl.close();
          pulled += next.length;
          ctl.enqueue(next);
        },
      }, { highWaterMark: 0 });
      const total = parts.reduce((s, p) => s + p.length, 0);
      return { body, pulled: () => pulled, total };
    };
    const send = (body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) =>
      t.app.request(ORIGIN + "/api/profile-pic", {
        method: "POST",
        body,
        headers: {
          cookie: m.cookie,
          origin: ORIGIN,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          ...headers,
        },
      });

    const over = streamed(padded(MAX_UPLOAD_BYTES + 1));
    const t0 = performance.now();
    const res = await send(over.body);
    assert.equal(res.status, 413);
    assert.match((await res.json()).error.message, /limit of 8,192,000 bytes/);
    console.log(`  8,192,001 bytes refused after ${(performance.now() - t0).toFixed(0)} ms`);

    // A body far over the limit (40 MB) is cut off just past the limit.
    const huge = streamed(padded(MAX_UPLOAD_BYTES), 500);
    assert.equal((await send(huge.body)).status, 413);
    assert.ok(huge.pulled() < MAX_UPLOAD_BYTES + 64 * 1024 + 65536 * 2, `pulled ${huge.pulled()} of ${huge.total}`);

    // A declared length over the limit is refused before a byte of the body is read.
    const declared = streamed(padded(jpg.length + 100));
    assert.equal((await send(declared.body, { "content-length": String(50_000_000) })).status, 413);
    assert.equal(declared.pulled(), 0);
    assert.deepEqual(await stored(), before, "nothing stored after a refused upload");

    const atLimit = await upload(t, m, padded(MAX_UPLOAD_BYTES));
    assert.equal(atLimit.status, 201, atLimit.text);
  } finally {
    t.close();
  }
});

Deno.test("pictures - a tiny PNG claiming 30,000 × 30,000 pixels is refused quickly, without decoding", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const before = await stored();
    const c0 = cpuMs(), t0 = performance.now();
    const r = await upload(t, m, pngClaiming(30_000, 30_000), { name: "bomb.png", type: "image/png" });
    const cpu = cpuMs() - c0, ms = performance.now() - t0;
    assert.equal(r.status, 413);
    assert.match(r.data.error.message, /30,000 × 30,000 pixels/);
    // Judged by the CPU the process spent, which a busy machine does not stretch as it does the
    // wall time: decoding 900 million pixels would take seconds of it.
    assert.ok(cpu < 500, `took ${cpu.toFixed(0)} ms of CPU (${ms.toFixed(0)} ms)`);
    assert.deepEqual(await stored(), before);
  } finally {
    t.close();
  }
});

Deno.test("pictures - WebP and PNG are accepted; a damaged file is 422; bad forms are 400/403/415", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const other = await t.member();
    const webp = new Uint8Array(await fromRaw(quadrants(400, 500), 400, 500).webp().toBuffer());
    const w = await upload(t, m, webp, { name: "a.webp", type: "image/webp" });
    assert.equal(w.status, 201, w.text);
    assert.deepEqual([w.data.width, w.data.height], [400, 500]);
    assert.equal((await upload(t, m, await png(), { name: "b.png" })).status, 201);
    const before = await stored();
    const jpg = new Uint8Array(await fromRaw(quadrants(256, 256), 256, 256).jpeg().toBuffer());
    const truncated = await upload(t, m, jpg.subarray(0, jpg.length / 2));
    assert.equal(truncated.status, 422);
    assert.equal(truncated.data.error.code, "unreadable_picture");
    // Someone else's profile as the author: 403.
    assert.equal((await upload(t, m, webp, { author: other.profileId })).status, 403);
    // No file, no author, not multipart, a bad replace_id.
    const noFile = await t.call("POST", "/api/profile-pic", {
      cookie: m.cookie,
      form: { authorProfileId: m.profileId },
    });
    assert.equal(noFile.status, 400);
    const noAuthor = await t.call("POST", "/api/profile-pic", {
      cookie: m.cookie,
      form: { picfile: new File([webp], "a.webp") },
    });
    assert.equal(noAuthor.status, 400);
    const json = await t.call("POST", "/api/profile-pic", { cookie: m.cookie, json: { authorProfileId: m.profileId } });
    assert.equal(json.status, 415);
    assert.equal((await upload(t, m, webp, { replaceId: "nope" })).status, 400);
    assert.deepEqual(await stored(), before, "nothing stored after bad input");
    // Anonymous: 401, before anything is read.
    const anon = await t.call("POST", "/api/profile-pic", { form: { authorProfileId: m.profileId } });
    assert.equal(anon.status, 401);
  } finally {
    t.close();
  }
});

Deno.test("pictures - public pictures: owner, other member and admin may see them; anonymous 401; a block hides them", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    const admin = await t.member("admin-pics@example.com");
    await makeAdmin(admin.email);
    const id = (await upload(t, owner, await png())).data.id;
    for (const who of [owner, other, admin]) {
      assert.equal((await getBytes(t, `/api/profile-pic/${id}?scale_x=256`, who.cookie)).status, 200);
      assert.equal((await getBytes(t, `/api/profile-pic/nsfw/${id}?scale_x=256`, who.cookie)).status, 200);
      const meta = await t.call("GET", `/api/profile/pic/${id}`, { cookie: who.cookie });
      assert.equal(meta.status, 200);
      assert.equal(meta.data.profileId, owner.profileId);
      assert.equal(meta.data.private, false);
      assert.equal("crop" in meta.data, who === owner, "the crop and source size are the owner's");
    }
    for (const path of [`/api/profile-pic/${id}`, `/api/profile-pic/nsfw/${id}`, `/api/profile/pic/${id}`]) {
      assert.equal((await getBytes(t, path)).status, 401, path);
    }
    assert.equal((await getBytes(t, `/api/profile-pic/${id}/source`, other.cookie)).status, 403);
    assert.equal((await getBytes(t, `/api/profile-pic/${id}/source`, admin.cookie)).status, 403);
    assert.equal((await getBytes(t, `/api/profile-pic/${id}/source`, owner.cookie)).status, 200);
    // Bad sizes and ids.
    assert.equal((await getBytes(t, `/api/profile-pic/${id}?scale_x=300`, other.cookie)).status, 400);
    assert.equal((await getBytes(t, `/api/profile-pic/not-an-id`, other.cookie)).status, 400);
    assert.equal((await getBytes(t, `/api/profile-pic/${"0".repeat(28)}`, other.cookie)).status, 404);

    await block(owner.profileId, other.profileId);
    assert.equal((await getBytes(t, `/api/profile-pic/${id}?scale_x=256`, other.cookie)).status, 404);
    assert.equal((await t.call("GET", `/api/profile/pic/${id}`, { cookie: other.cookie })).status, 404);
    assert.equal((await getBytes(t, `/api/profile-pic/${id}?scale_x=256`, owner.cookie)).status, 200);
  } finally {
    t.close();
  }
});

Deno.test("pictures - private pictures: only the owner and members they were sent to", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const friend = await t.member();
    const stranger = await t.member();
    const admin = await t.member("admin-private@example.com");
    await makeAdmin(admin.email);
    const a = (await upload(t, owner, await png())).data.id;
    const b = (await upload(t, owner, await png())).data.id;
    const moved = await t.call("PUT", "/api/profile", {
      cookie: owner.cookie,
      json: { profilePicIds: [a], profilePicIdsPrivate: [b] },
    });
    assert.equal(moved.status, 200, moved.text);
    const paths = [
      `/api/profile-pic/${b}?scale_x=256`,
      `/api/profile-pic/nsfw/${b}?scale_x=512`,
      `/api/profile-pic/${b}?orig=1`,
      `/api/profile/pic/${b}`,
    ];
    for (const who of [friend, stranger, admin]) {
      for (const p of paths) assert.equal((await getBytes(t, p, who.cookie)).status, 404, p);
    }
    for (const p of paths) assert.equal((await getBytes(t, p, owner.cookie)).status, 200, p);
    // Others never see the private list or its pictures on the profile.
    const seen = await t.call("GET", `/api/profile/${owner.profileId}`, { cookie: stranger.cookie });
    assert.deepEqual(seen.data.profilePicIdsPrivate, []);
    assert.deepEqual(seen.data.pictures.map((p: { id: string }) => p.id), [a]);

    await grantPictureAccess(b, friend.profileId);
    for (const p of paths) assert.equal((await getBytes(t, p, friend.cookie)).status, 200, p);
    for (const p of paths) assert.equal((await getBytes(t, p, stranger.cookie)).status, 404, p);
    // A block outweighs the grant.
    await block(friend.profileId, owner.profileId);
    assert.equal((await getBytes(t, paths[0], friend.cookie)).status, 404);
  } finally {
    t.close();
  }
});

Deno.test("pictures - a picture sent in a chat stays visible to its recipient when made private, until locked or deleted", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const friend = await t.member();
    const stranger = await t.member();
    const p = (await upload(t, owner, await png())).data.id;
    const url = `/api/profile-pic/${p}?scale_x=256`;
    const sent = await t.call("POST", "/api/message", {
      cookie: owner.cookie,
      json: {
        senderProfileId: owner.profileId,
        recipientProfileId: friend.profileId,
        bodyText: "me",
        profilePicIds: [p],
      },
    });
    assert.equal(sent.status, 201, sent.text);
    assert.equal((await getBytes(t, url, friend.cookie)).status, 200);
    // The owner moves the picture to Private Pics: the chat's picture does not break for the friend.
    const moved = await t.call("PUT", "/api/profile", {
      cookie: owner.cookie,
      json: { profilePicIds: [], profilePicIdsPrivate: [p] },
    });
    assert.equal(moved.status, 200, moved.text);
    assert.equal((await getBytes(t, url, friend.cookie)).status, 200, "still visible to the recipient");
    assert.equal((await t.call("GET", `/api/profile/pic/${p}`, { cookie: friend.cookie })).status, 200);
    assert.equal((await getBytes(t, url, stranger.cookie)).status, 404, "but to nobody else");
    // "Lock my private pictures" for the friend ends it; the owner's other grants stay.
    const other = await t.member();
    await t.call("POST", "/api/message", {
      cookie: owner.cookie,
      json: { senderProfileId: owner.profileId, recipientProfileId: other.profileId, bodyText: "", profilePicIds: [p] },
    });
    const lock = await t.call("DELETE", `/api/profile-pic-grants/${friend.profileId}`, { cookie: owner.cookie });
    assert.deepEqual([lock.status, lock.data], [200, { ended: 1 }]);
    assert.equal((await getBytes(t, url, friend.cookie)).status, 404);
    assert.equal((await getBytes(t, url, other.cookie)).status, 200);
    assert.equal((await t.call("DELETE", `/api/profile-pic-grants/nope`, { cookie: owner.cookie })).status, 400);
    assert.equal((await t.call("DELETE", `/api/profile-pic-grants/${friend.profileId}`)).status, 401);
    // Deleting the picture ends it for everyone.
    assert.equal((await t.call("DELETE", `/api/profile-pic/${p}`, { cookie: owner.cookie })).status, 200);
    assert.equal((await getBytes(t, url, other.cookie)).status, 404);
  } finally {
    t.close();
  }
});

Deno.test("pictures - NSFW: only the owner flags it; the plain URL serves it blurred, the NSFW route as it is", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    // Scaled down to 512, the quadrant border stays a step sharper than 100 (at its own size, re-encoded, it is not).
    const id = (await upload(t, owner, await png(640, 800))).data.id;
    const admin = await t.member("admin-nsfw@example.com");
    await makeAdmin(admin.email);
    for (const who of [other, admin]) {
      const r = await t.call("PUT", `/api/profile-pic/${id}`, { cookie: who.cookie, json: { nsfw: true } });
      assert.equal(r.status, 403);
    }
    assert.equal((await t.call("PUT", `/api/profile-pic/${id}`, { json: { nsfw: true } })).status, 401);
    assert.equal(
      (await t.call("PUT", `/api/profile-pic/${id}`, { cookie: owner.cookie, json: { nsfw: "yes" } })).status,
      400,
    );
    const flagged = await t.call("PUT", `/api/profile-pic/${id}`, { cookie: owner.cookie, json: { nsfw: true } });
    assert.equal(flagged.status, 200);
    assert.equal(flagged.data.nsfw, true);
    const view = await t.call("GET", `/api/profile/${owner.profileId}`, { cookie: other.cookie });
    assert.equal(view.data.pictures[0].nsfw, true);

    /** The largest step between neighbouring pixels of a row: 255 across the real quadrant border. */
    const contrast = async (bytes: Uint8Array) => {
      const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const row = Math.floor(info.height / 4) * info.width * 3;
      let max = 0;
      for (let x = 1; x < info.width; x++) max = Math.max(max, Math.abs(data[row + x * 3] - data[row + x * 3 - 3]));
      return max;
    };
    for (const pass of ["on the fly", "stored"]) {
      for (const who of [other, owner]) {
        const plain = await getBytes(t, `/api/profile-pic/${id}?scale_x=512`, who.cookie);
        const orig = await getBytes(t, `/api/profile-pic/${id}?orig=1`, who.cookie);
        const real = await getBytes(t, `/api/profile-pic/nsfw/${id}?scale_x=512`, who.cookie);
        assert.equal(plain.status, 200);
        assert.ok((await contrast(real.bytes)) > 100, `${pass}: the NSFW route is sharp`);
        assert.ok((await contrast(plain.bytes)) < 20, `${pass}: the plain URL is blurred`);
        assert.ok((await contrast(orig.bytes)) < 20, `${pass}: orig=1 on the plain URL is blurred too`);
        assert.ok(near(await meanColour(real.bytes, 0.1, 0.1, 0.3, 0.3), RED));
      }
      await runDueJobs(handlers);
    }
    const pic = (await getPic(id))!;
    assert.ok(await getBlobMeta(variantBlobId(id, pic.gen, { size: 256, blur: true })), "blurred sizes stored");
  } finally {
    t.close();
  }
});
