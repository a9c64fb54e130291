import assert from "node:assert/strict";
import sharp from "sharp";
import { ORIGIN, testApp } from "../../tests/api.ts";
import process from "node:process";
import {
  assertNoMetadata,
  assertQuadrants,
  BLUE,
  exifApp1,
  fromRaw,
  GREEN,
  insertAfterSoi,
  meanColour,
  metadataFound,
  near,
  PHONE_SMALL,
  phoneJpeg,
  pngClaiming,
  quadrants,
  RED,
  WHITE,
} from "../../tests/fixtures/pictures.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { MAX_UPLOAD_BYTES, PIC_SIZES } from "../../images/pipeline.ts";
import { claimDueJobs, type JobRecord, LEASE_MS, listDeadJobs } from "../../kv/jobs.ts";
import { shiftClock } from "../../kv/clock.ts";
import { keys } from "../../kv/keys.ts";
import { eventBus } from "../../kv/events.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { blockIndexOps } from "../../kv/blocks.ts";
import { kv } from "../../kv/db.ts";
import { getBlob, getBlobMeta } from "../../kv/blobs.ts";
import {
  getPic,
  grantPictureAccess,
  masterBlobId,
  MAX_PICS_PER_PROFILE,
  type ProfilePic,
  sourceBlobId,
  storedSizes,
  variantBlobId,
} from "../../kv/pictures.ts";
import type { MemberEvent } from "../../domain/shapes/events.ts";
import { ensureMaster, renderGeneration } from "../../workers/pictures.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

/** A quadrants PNG; small unless a case needs its pixels (sizes, blur, crop boxes): any picture serves access rules. */
const png = (w = 64, h = 80) => fromRaw(quadrants(w, h), w, h).png().toBuffer().then((b) => new Uint8Array(b));

/** CPU time (ms) this process has spent, every thread (sharp's too). */
function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}
/** Uploads bytes through the HTTP API as a browser would (multipart, the spec's three fields). */
function upload(
  t: T,
  m: Member,
  bytes: Uint8Array,
  opts: { name?: string; author?: string; replaceId?: string; type?: string } = {},
) {
  const name = opts.name ?? "me.jpg";
  const q = opts.replaceId ? `?replace_id=${opts.replaceId}` : "";
  return t.call("POST", `/api/profile-pic${q}`, {
    cookie: m.cookie,
    form: {
      authorProfileId: opts.author ?? m.profileId,
      picfile: new File([bytes as Uint8Array<ArrayBuffer>], name, { type: opts.type ?? "image/jpeg" }),
      picfilename: name,
    },
  });
}

/** GETs raw bytes (the test kit's `call` reads text). */
async function getBytes(t: T, path: string, cookie?: string, headers: Record<string, string> = {}) {
  const res = await t.app.request(ORIGIN + path, { headers: { ...headers, ...(cookie ? { cookie } : {}) } });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** How many keys the store holds under each picture-related prefix. */
async function stored() {
  const count = async (prefix: Deno.KvKey) => {
    let n = 0;
    for await (const _ of kv().list({ prefix })) n++;
    return n;
  };
  return {
    pics: await count(["pics"]),
    blobs: await count(["blobs"]),
    chunks: await count(["blob_chunks"]),
    grants: await count(["pic_grants"]),
  };
}

async function makeAdmin(email: string) {
  await setRoles((await getAccountByEmail(email))!.id, ["USER", "ADMIN"]);
}

async function block(blocker: string, blocked: string) {
  const op = kv().atomic();
  blockIndexOps(op, blocker, blocked, true, Date.now());
  await op.commit();
}

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

Deno.test("pictures - ETag and private cache headers; 304 on If-None-Match; versioned URLs are immutable", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const up = (await upload(t, m, await png())).data;
    const first = await getBytes(t, `/api/profile-pic/${up.id}?scale_x=256`, m.cookie);
    const etag = first.headers.get("etag")!;
    assert.match(etag, /^"[0-9a-f]{28}\.[0-9a-f]{28}\.w256"$/);
    assert.equal(first.headers.get("cache-control"), "private, no-cache");
    const again = await getBytes(t, `/api/profile-pic/${up.id}?scale_x=256`, m.cookie, { "if-none-match": etag });
    assert.equal(again.status, 304);
    assert.equal(again.bytes.length, 0);
    const versioned = await getBytes(t, `/api/profile-pic/${up.id}?scale_x=256&v=${up.v}`, m.cookie);
    assert.equal(versioned.headers.get("cache-control"), "private, max-age=31536000, immutable");
    assert.doesNotMatch(versioned.headers.get("cache-control")!, /public/);
    // The stored variant has the same ETag as the one scaled on the fly.
    await runDueJobs(handlers);
    assert.equal((await getBytes(t, `/api/profile-pic/${up.id}?scale_x=256`, m.cookie)).headers.get("etag"), etag);
  } finally {
    t.close();
  }
});

Deno.test("pictures - delete: owner only; the record, list entry, blobs and grants all go", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    const admin = await t.member("admin-del@example.com");
    await makeAdmin(admin.email);
    const empty = await stored();
    const id = (await upload(t, owner, await png())).data.id;
    await runDueJobs(handlers);
    await grantPictureAccess(id, other.profileId);
    assert.equal((await t.call("DELETE", `/api/profile-pic/${id}`)).status, 401);
    assert.equal((await t.call("DELETE", `/api/profile-pic/${id}`, { cookie: other.cookie })).status, 403);
    assert.equal((await t.call("DELETE", `/api/profile-pic/${id}`, { cookie: admin.cookie })).status, 403);
    assert.equal((await t.call("DELETE", `/api/profile-pic/bad`, { cookie: owner.cookie })).status, 400);
    assert.equal((await getBytes(t, `/api/profile-pic/${id}?scale_x=256`, other.cookie)).status, 200);
    assert.equal((await t.call("DELETE", `/api/profile-pic/${id}`, { cookie: owner.cookie })).status, 200);
    assert.equal((await t.call("DELETE", `/api/profile-pic/${id}`, { cookie: owner.cookie })).status, 404);
    assert.equal((await getBytes(t, `/api/profile-pic/${id}?scale_x=256`, owner.cookie)).status, 404);
    const mine = await t.call("GET", "/api/profiles/mine", { cookie: owner.cookie });
    assert.deepEqual(mine.data[0].profilePicIds, []);
    await runDueJobs(handlers);
    assert.deepEqual(await stored(), empty, "no record, blob, chunk or grant is left");
  } finally {
    t.close();
  }
});

Deno.test("pictures - replace_id puts the new picture in the old one's place; only one's own", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    const [a, b, c] = [
      (await upload(t, owner, await png())).data.id,
      (await upload(t, owner, await png())).data.id,
      (await upload(t, owner, await png())).data.id,
    ];
    await t.call("PUT", "/api/profile", {
      cookie: owner.cookie,
      json: { profilePicIds: [a, c], profilePicIdsPrivate: [b] },
    });
    const theirs = (await upload(t, other, await png())).data.id;
    const before = await stored();
    assert.equal((await upload(t, owner, await png(), { replaceId: theirs })).status, 403);
    assert.equal((await upload(t, owner, await png(), { replaceId: "0".repeat(28) })).status, 404);
    assert.deepEqual(await stored(), before, "a refused replace stores nothing");
    const r = await upload(t, owner, await png(300, 300), { replaceId: b });
    assert.equal(r.status, 201, r.text);
    const mine = (await t.call("GET", "/api/profiles/mine", { cookie: owner.cookie })).data[0];
    assert.deepEqual(mine.profilePicIds, [a, c]);
    assert.deepEqual(mine.profilePicIdsPrivate, [r.data.id], "the replacement keeps the private place");
    assert.equal(await getPic(b), null);
    await runDueJobs(handlers);
    assert.equal(await getBlobMeta(sourceBlobId(b)), null, "the replaced picture's bytes are gone");
  } finally {
    t.close();
  }
});

Deno.test("pictures - crop: owner only, from the whole upload, a new generation; a box outside is 422", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    const up = (await upload(t, owner, await png(800, 400))).data;
    await runDueJobs(handlers);
    const box = { x: 400, y: 0, width: 160, height: 200 };
    assert.equal((await t.call("PUT", `/api/profile-pic/${up.id}/crop`, { json: box })).status, 401);
    const admin = await t.member("admin-crop@example.com");
    await makeAdmin(admin.email);
    for (const who of [other, admin]) {
      const r = await t.call("PUT", `/api/profile-pic/${up.id}/crop`, { cookie: who.cookie, json: box });
      assert.equal(r.status, 403);
    }
    const before = await stored();
    for (const bad of [{ ...box, x: 700 }, { ...box, width: 0 }, { ...box, rotate: 45 }, { ...box, x: "1" }]) {
      const r = await t.call("PUT", `/api/profile-pic/${up.id}/crop`, { cookie: owner.cookie, json: bad });
      assert.ok(r.status === 400 || r.status === 422, `${JSON.stringify(bad)}: ${r.status}`);
    }
    assert.deepEqual(await stored(), before, "a refused crop stores nothing");
    assert.equal((await getPic(up.id))!.gen, up.v);

    const cropped = await t.call("PUT", `/api/profile-pic/${up.id}/crop`, { cookie: owner.cookie, json: box });
    assert.equal(cropped.status, 200, cropped.text);
    assert.notEqual(cropped.data.v, up.v, "a new generation");
    assert.deepEqual([cropped.data.width, cropped.data.height], [160, 200]);
    const img = await getBytes(t, `/api/profile-pic/${up.id}?scale_x=256`, other.cookie);
    assert.ok(near(await meanColour(img.bytes, 0.1, 0.1, 0.9, 0.9), GREEN), "the top-right quadrant");
    // Cropping again starts from the whole upload, not from the last crop; rotation too.
    const turned = await t.call("PUT", `/api/profile-pic/${up.id}/crop`, {
      cookie: owner.cookie,
      json: { x: 0, y: 0, width: 200, height: 250, rotate: 90 },
    });
    assert.equal(turned.status, 200, turned.text);
    const img2 = await getBytes(t, `/api/profile-pic/${up.id}?scale_x=256`, owner.cookie);
    assert.ok(near(await meanColour(img2.bytes, 0.1, 0.1, 0.9, 0.9), BLUE), "turned: blue top-left");
    const meta = await t.call("GET", `/api/profile/pic/${up.id}`, { cookie: owner.cookie });
    assert.deepEqual(meta.data.crop, { x: 0, y: 0, width: 200, height: 250, rotate: 90 });
    assert.deepEqual([meta.data.sourceWidth, meta.data.sourceHeight], [800, 400]);
    await runDueJobs(handlers);
    const pic = (await getPic(up.id))!;
    assert.equal(await getBlobMeta(variantBlobId(up.id, up.v, { size: 256, blur: false })), null, "old sizes gone");
    assert.ok(await getBlobMeta(variantBlobId(up.id, pic.gen, { size: 256, blur: false })), "new sizes stored");
  } finally {
    t.close();
  }
});

Deno.test("pictures - a profile holds at most 30 pictures", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const tiny = await png(16, 20);
    for (let i = 0; i < MAX_PICS_PER_PROFILE; i++) assert.equal((await upload(t, m, tiny)).status, 201);
    const full = await upload(t, m, tiny);
    assert.equal(full.status, 409);
    assert.equal(full.data.error.code, "too_many_pictures");
  } finally {
    t.close();
  }
});

Deno.test("pictures - another's picture is 403 'not yours' only to who may see it: 404 (as none) to a member its owner blocked, and for a private one", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    const blocked = await t.member();
    const pub = (await upload(t, owner, await png())).data.id;
    const priv = (await upload(t, owner, await png())).data.id;
    const moved = await t.call("PUT", "/api/profile", {
      cookie: owner.cookie,
      json: { profilePicIds: [pub], profilePicIdsPrivate: [priv] },
    });
    assert.equal(moved.status, 200, moved.text);
    const block = await t.call("PUT", "/api/profile-like", {
      cookie: owner.cookie,
      json: { likerProfileId: owner.profileId, likedProfileId: blocked.profileId, likeType: "DISLIKE", blocked: true },
    });
    assert.equal(block.status, 200, block.text);
    const before = await stored();
    const tries = (id: string) =>
      [
        ["DELETE", `/api/profile-pic/${id}`, undefined],
        ["PUT", `/api/profile-pic/${id}`, { nsfw: true }],
        ["PUT", `/api/profile-pic/${id}/crop`, { x: 0, y: 0, width: 40, height: 50 }],
        ["GET", `/api/profile-pic/${id}/source`, undefined],
      ] as const;
    for (
      const [who, id, status] of [[other, pub, 403], [other, priv, 404], [blocked, pub, 404], [
        blocked,
        priv,
        404,
      ]] as const
    ) {
      for (const [method, path, json] of tries(id)) {
        const r = await t.call(method, path, { cookie: who.cookie, json });
        assert.equal(r.status, status, `${method} ${path} as ${who === other ? "other" : "blocked"}: ${r.text}`);
      }
    }
    assert.deepEqual(await stored(), before);
    assert.equal((await t.call("DELETE", `/api/profile-pic/${priv}`, { cookie: owner.cookie })).status, 200);
  } finally {
    t.close();
  }
});

// --- the master is made by a job, off the request

/** Every picture byte in the store: each blob read whole, every other value as it is stored; what betrays metadata. */
async function metadataInStore(): Promise<string[]> {
  const found: string[] = [];
  const json = (v: unknown) =>
    new TextEncoder().encode(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? String(x) : x)));
  for await (const e of kv().list<unknown>({ prefix: [] })) {
    const bytes = e.value instanceof Uint8Array ? e.value : json(e.value);
    for (const m of metadataFound(bytes)) found.push(`${e.key.join("/")}: ${m}`);
    if (new TextDecoder("latin1").decode(bytes).includes("IMG_0001")) found.push(`${e.key.join("/")}: the file name`);
    if (e.key[0] === "blobs") {
      const blob = await getBlob(String(e.key[1]));
      for (const m of metadataFound(blob!.bytes)) found.push(`blob ${String(e.key[1])}: ${m}`);
    }
  }
  return found;
}

async function jobsWaiting(): Promise<JobRecord["job"][]> {
  const out: JobRecord["job"][] = [];
  for await (const e of kv().list<JobRecord>({ prefix: keys.job("").slice(0, 1) })) out.push(e.value.job);
  return out;
}

async function sizesStored(pic: ProfilePic): Promise<number[]> {
  const out: number[] = [];
  for (const size of storedSizes(pic)) {
    if (await getBlobMeta(variantBlobId(pic.id, pic.gen, { size, blur: false }))) out.push(size);
  }
  return out;
}

Deno.test("pictures - an upload answers before its master exists; the picture-master job makes the master, then every size, and the picture stops processing", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const up = await upload(t, m, await phoneJpeg(PHONE_SMALL), { name: "IMG_0001.jpg" });
    assert.equal(up.status, 201, up.text);
    assert.deepEqual([up.data.width, up.data.height], [320, 640], "the master's size is known before it exists");
    assert.equal(up.data.processing, true);
    const id = up.data.id as string;
    const pic = (await getPic(id))!;

    // Stored: only the stripped, upright copy; no master, no size; one picture-master job waits.
    const copy = (await getBlobMeta(sourceBlobId(id)))!;
    assert.deepEqual([copy.type, copy.stage], ["image/jpeg", "upload"]);
    assert.deepEqual(await sizesStored(pic), []);
    assert.deepEqual(await jobsWaiting(), [{ type: "picture-master", picId: id, gen: pic.gen }]);
    const before = await t.call("GET", `/api/profile/pic/${id}`, { cookie: m.cookie });
    assert.equal(before.data.ready, false);
    assert.equal(before.data.processing, true);
    const total = 1 + storedSizes(pic).length;
    assert.deepEqual(before.data.progress, { done: 0, total });
    const view = await t.call("GET", `/api/profile/${m.profileId}`, { cookie: m.cookie });
    assert.equal(view.data.pictures[0].processing, true, "the editor shows it as processing");
    await eventBus().start();
    const events: MemberEvent[] = [];
    const unsubscribe = eventBus().subscribe(m.profileId, (e) => events.push(e));

    assert.equal(await runDueJobs(handlers), 1);
    const master = (await getBlob(masterBlobId(pic)))!;
    assert.deepEqual([master.type, master.meta.stage], ["image/webp", "master"], "the copy is replaced by the master");
    const mm = await sharp(master.bytes).metadata();
    assert.deepEqual([mm.format, mm.width, mm.height], ["webp", 320, 640]);
    await assertQuadrants(master.bytes, BLUE, RED, WHITE, GREEN);
    await assertNoMetadata(master.bytes);
    assert.deepEqual(await sizesStored(pic), storedSizes(pic));
    const after = await t.call("GET", `/api/profile/pic/${id}`, { cookie: m.cookie });
    assert.equal(after.data.ready, true);
    assert.equal("processing" in after.data, false);
    assert.deepEqual(after.data.progress, { done: total, total });
    await eventBus().tail();
    unsubscribe();
    assert.deepEqual(events, [{ type: "picture", id }], "the owner's pages hear of it through the event stream");
    assert.deepEqual(await jobsWaiting(), []);
    // At least once: a second run changes nothing.
    assert.equal(await renderGeneration(id, pic.gen), 0);
    assert.equal((await getBlob(masterBlobId(pic)))!.etag, master.etag);
  } finally {
    t.close();
  }
});

Deno.test("pictures - an EXIF-GPS phone JPEG leaves no EXIF, GPS, XMP, ICC or file name in any KV value: after the upload, the jobs, an NSFW flag and a crop", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const photo = await phoneJpeg(PHONE_SMALL);
    assert.deepEqual(
      metadataFound(photo).sort(),
      ["EXIF", "GPS latitude", "ICC profile", "XMP", "XMP text"],
      "the scan finds them in the upload itself",
    );
    const up = await upload(t, m, photo, { name: "IMG_0001.jpg" });
    assert.equal(up.status, 201, up.text);
    const id = up.data.id as string;
    assert.deepEqual(await metadataInStore(), [], "after the upload, before any job");
    await runDueJobs(handlers);
    assert.deepEqual(await metadataInStore(), [], "after the master job");
    assert.equal(
      (await t.call("PUT", `/api/profile-pic/${id}`, { cookie: m.cookie, json: { nsfw: true } })).status,
      200,
    );
    await runDueJobs(handlers);
    const crop = { x: 0, y: 0, width: 200, height: 250, rotate: 90 };
    assert.equal((await t.call("PUT", `/api/profile-pic/${id}/crop`, { cookie: m.cookie, json: crop })).status, 200);
    assert.deepEqual(await metadataInStore(), [], "after a crop");
    await runDueJobs(handlers);
    assert.deepEqual(await metadataInStore(), [], "after every job");
  } finally {
    t.close();
  }
});

Deno.test("pictures - a worker that crashes after the master, or dies holding the job, is retried and still ends with the master and every size", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    // A crash after the master was stored, before any size.
    const crashing = {
      ...handlers,
      "picture-master": async (job: { picId: string }) => {
        await ensureMaster((await getPic(job.picId))!);
        throw new Error("the worker crashed");
      },
    };
    const a = (await upload(t, m, await phoneJpeg(PHONE_SMALL))).data.id as string;
    assert.equal(await runDueJobs(crashing), 1);
    const picA = (await getPic(a))!;
    assert.equal((await getBlobMeta(masterBlobId(picA)))!.stage, "master");
    assert.deepEqual(await sizesStored(picA), []);
    assert.equal(picA.processing, true);
    assert.equal(await runDueJobs(handlers), 0, "the retry waits for its backoff");
    shiftClock(60_000);
    assert.equal(await runDueJobs(handlers), 1);
    assert.deepEqual(await sizesStored(picA), storedSizes(picA));
    assert.equal((await getPic(a))!.processing, undefined);

    // A worker that claimed the job and died: the job is taken again once its lease runs out.
    const b = (await upload(t, m, await png())).data.id as string;
    const held = await claimDueJobs(4);
    assert.deepEqual(held.map((c) => c.rec.job.type), ["picture-master"]);
    assert.equal(await runDueJobs(handlers), 0, "leased: not taken again yet");
    shiftClock(LEASE_MS + 1_000);
    assert.equal(await runDueJobs(handlers), 1);
    const picB = (await getPic(b))!;
    assert.equal((await getBlobMeta(masterBlobId(picB)))!.stage, "master");
    assert.deepEqual(await sizesStored(picB), storedSizes(picB));
    assert.equal(picB.processing, undefined);
    assert.deepEqual(await listDeadJobs(), []);
    assert.deepEqual(await jobsWaiting(), []);
  } finally {
    t.close();
  }
});

Deno.test("pictures - before the master exists every size, orig=1, the NSFW route and the owner's source are served upright with no metadata", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const other = await t.member();
    const id = (await upload(t, owner, await phoneJpeg())).data.id as string;
    assert.equal(
      (await t.call("PUT", `/api/profile-pic/${id}`, { cookie: owner.cookie, json: { nsfw: true } })).status,
      200,
    );
    const pic = (await getPic(id))!;
    assert.equal((await getBlobMeta(masterBlobId(pic)))!.stage, "upload", "no job has run");
    for (const size of PIC_SIZES) {
      for (const path of [`/api/profile-pic/${id}?scale_x=${size}`, `/api/profile-pic/nsfw/${id}?scale_x=${size}`]) {
        const r = await getBytes(t, path, other.cookie);
        assert.equal(r.status, 200, path);
        assert.equal(r.headers.get("content-type"), "image/webp");
        const meta = await sharp(r.bytes).metadata();
        assert.deepEqual([meta.width, meta.height], [Math.min(size, 1024), Math.min(size, 1024) * 2], path);
        await assertNoMetadata(r.bytes);
        if (path.includes("nsfw")) await assertQuadrants(r.bytes, BLUE, RED, WHITE, GREEN);
      }
    }
    const orig = await getBytes(t, `/api/profile-pic/nsfw/${id}?orig=1`, other.cookie);
    assert.equal(orig.status, 200);
    assert.equal((await sharp(orig.bytes).metadata()).format, "webp");
    await assertQuadrants(orig.bytes, BLUE, RED, WHITE, GREEN);
    await assertNoMetadata(orig.bytes);
    const source = await getBytes(t, `/api/profile-pic/${id}/source`, owner.cookie);
    assert.equal(source.status, 200);
    assert.equal(source.headers.get("content-type"), "image/jpeg", "the stripped copy, until the master replaces it");
    await assertQuadrants(source.bytes, BLUE, RED, WHITE, GREEN);
    await assertNoMetadata(source.bytes);
    await runDueJobs(handlers);
    const later = await getBytes(t, `/api/profile-pic/${id}/source`, owner.cookie, {
      "if-none-match": source.headers.get("etag")!,
    });
    assert.equal(later.status, 200, "the source changed to the master: the old ETag no longer matches");
    assert.equal(later.headers.get("content-type"), "image/webp");
  } finally {
    t.close();
  }
});

Deno.test("pictures - the upload of a 12 MP phone JPEG costs under 300 ms of CPU in the request", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const w = 4032, h = 3024;
    const noise = new Uint8Array(w * h * 3);
    for (let i = 0; i < noise.length; i += 65536) crypto.getRandomValues(noise.subarray(i, i + 65536));
    const photo = insertAfterSoi(
      new Uint8Array(await fromRaw(noise, w, h).blur(3).jpeg({ quality: 90 }).toBuffer()),
      exifApp1(6),
    );
    assert.equal((await upload(t, m, await png(64, 80))).status, 201, "warm-up");
    await runDueJobs(handlers);
    const c0 = cpuMs(), t0 = performance.now();
    const up = await upload(t, m, photo, { name: "IMG_0001.jpg" });
    const c1 = cpuMs(), t1 = performance.now();
    assert.equal(up.status, 201, up.text);
    assert.deepEqual([up.data.width, up.data.height], [1536, 2048]);
    assert.equal(await runDueJobs(handlers), 1);
    const c2 = cpuMs(), t2 = performance.now();
    console.log(
      `  ${(photo.length / 1e6).toFixed(1)} MB ${w}×${h} JPEG: request ${(c1 - c0).toFixed(0)} ms CPU ` +
        `(${(t1 - t0).toFixed(0)} ms), picture-master job (master and every size) ${(c2 - c1).toFixed(0)} ms CPU ` +
        `(${(t2 - t1).toFixed(0)} ms); load ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`,
    );
    assert.ok(c1 - c0 < 300, `the request took ${(c1 - c0).toFixed(0)} ms of CPU`);
  } finally {
    t.close();
  }
});
