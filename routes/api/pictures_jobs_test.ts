import assert from "node:assert/strict";
import sharp from "sharp";
import { testApp } from "../../tests/api.ts";
import {
  assertNoMetadata,
  assertQuadrants,
  BLUE,
  exifApp1,
  fromRaw,
  GREEN,
  insertAfterSoi,
  metadataFound,
  PHONE_SMALL,
  phoneJpeg,
  RED,
  WHITE,
} from "../../tests/fixtures/pictures.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { PIC_SIZES } from "../../images/pipeline.ts";
import { claimDueJobs, type JobRecord, LEASE_MS, listDeadJobs } from "../../kv/jobs.ts";
import { shiftClock } from "../../kv/clock.ts";
import { keys } from "../../kv/keys.ts";
import { eventBus } from "../../kv/events.ts";
import { kv } from "../../kv/db.ts";
import { getBlob, getBlobMeta } from "../../kv/blobs.ts";
import { getPic, masterBlobId, type ProfilePic, sourceBlobId, storedSizes, variantBlobId } from "../../kv/pictures.ts";
import type { MemberEvent } from "../../domain/shapes/events.ts";
import { ensureMaster, renderGeneration } from "../../workers/pictures.ts";
import { cpuMs, getBytes, png, upload } from "../../tests/fixtures/picturesApi.ts";

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
