import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { BLUE, GREEN, meanColour, near } from "../../tests/fixtures/pictures.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { getBlobMeta } from "../../kv/blobs.ts";
import { getPic, grantPictureAccess, MAX_PICS_PER_PROFILE, sourceBlobId, variantBlobId } from "../../kv/pictures.ts";
import { getBytes, makeAdmin, png, stored, upload } from "../../tests/fixtures/picturesApi.ts";

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
