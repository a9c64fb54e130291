import assert from "node:assert/strict";
import { brotliDecompressSync, zstdDecompressSync } from "node:zlib";
import { testApp } from "../tests/api.ts";
import { createAccount } from "../kv/accounts.ts";
import { updateProfile } from "../kv/profiles.ts";
import { importPositions, reportPosition } from "../kv/positions/mod.ts";
import { forgetKeptAnswers, keptAnswerCounts } from "./keptAnswers.ts";
import { stopCompressThread } from "./compression.ts";

const PHX = { lat: 33.4484, lon: -112.074 };
const BOX = "latMin=33&lonMin=-113&latMax=34&lonMax=-111";

/** The body of `res` decoded as its Content-Encoding says. */
async function decoded(res: Response): Promise<string> {
  const enc = res.headers.get("content-encoding");
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (enc === "br") return new TextDecoder().decode(brotliDecompressSync(bytes));
  if (enc === "zstd") return new TextDecoder().decode(zstdDecompressSync(bytes));
  assert.equal(enc, null);
  return new TextDecoder().decode(bytes);
}

Deno.test("kept answers - a view asked again is the same answer while nobody in it changed, and shows every change at once", async () => {
  const t = await testApp();
  forgetKeptAnswers();
  try {
    const viewer = await t.member(), other = await t.member();
    const crowd: string[] = [];
    for (let i = 0; i < 40; i++) {
      crowd.push((await createAccount({ email: `kept${i}@test.invalid`, name: `Kept ${i}` }))!.defaultProfileId);
    }
    await importPositions([viewer.profileId, other.profileId, ...crowd].map((profileId, i) => ({
      profileId,
      lat: PHX.lat + (i % 7) * 0.01,
      lon: PHX.lon + Math.floor(i / 7) * 0.01,
      use: "OVERRIDE" as const,
      hide: false,
    })));
    /** What `who` is sent for `path` in `accept`, decoded, beside the same call answered uncompressed. */
    const ask = async (who: { cookie: string }, path: string, accept = "gzip, deflate, br") => {
      const headers = { cookie: who.cookie, "accept-encoding": accept };
      const res = await t.app.request(`http://localhost${path}`, { headers });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("vary") ?? "", /accept-encoding/i);
      assert.equal(res.headers.get("content-type"), "application/json");
      const body = JSON.parse(await decoded(res));
      const plain = await t.call("GET", path, { cookie: who.cookie });
      assert.deepEqual(body, plain.data, `${path} in ${accept}: the same as sent uncompressed`);
      return { body, encoding: res.headers.get("content-encoding") };
    };
    const map = `/api/profile-briefs/map?${BOX}`;
    const ids = (v: { rows: string[][] }) => v.rows.map((r) => r[0]);

    const first = await ask(viewer, map);
    assert.equal(first.encoding, "br");
    assert.equal(first.body.rows.length, 41, "everyone but the viewer");
    assert.deepEqual(keptAnswerCounts(), { views: 1, sent: 0 });
    // Asked again, in Brotli and in Zstandard: the same view, kept once for this viewer.
    assert.deepEqual((await ask(viewer, map)).body, first.body);
    const zstd = await ask(viewer, map, "gzip, deflate, br, zstd");
    assert.equal(zstd.encoding, "br", "under 16 KB a view goes in Brotli 1 even to a caller that names zstd");
    assert.deepEqual(zstd.body, first.body);
    assert.deepEqual(keptAnswerCounts(), { views: 1, sent: 2 });
    // Another viewer's view of the same box is their own: without them, with the first viewer.
    const theirs = await ask(other, map);
    assert.ok(!ids(theirs.body).includes(other.profileId));
    assert.ok(ids(theirs.body).includes(viewer.profileId));
    assert.deepEqual(keptAnswerCounts(), { views: 2, sent: 2 });

    // A move, a rename, a hidden member and a block show in the next answer.
    await reportPosition(crowd[0], { lat: PHX.lat + 0.5, lon: PHX.lon + 0.5, use: "OVERRIDE", hide: false });
    await updateProfile(crowd[1], { profilename: "Renamed" });
    await reportPosition(crowd[2], { lat: PHX.lat, lon: PHX.lon, use: "OVERRIDE", hide: true });
    const block = await t.call("PUT", "/api/profile-like", {
      cookie: other.cookie,
      json: { likerProfileId: other.profileId, likedProfileId: viewer.profileId, likeType: "LIKE", blocked: true },
    });
    assert.equal(block.status, 200, block.text);
    const later = (await ask(viewer, map)).body;
    const row = (id: string) => later.rows.find((r: string[]) => r[0] === id);
    // Shown points are near the reported one, never on it.
    assert.ok(Math.abs(row(crowd[0])[2] - (PHX.lat + 0.5)) < 0.02);
    assert.equal(row(crowd[1])[1], "Renamed");
    assert.equal(row(crowd[2]), undefined, "a hidden member is never listed");
    assert.equal(row(other.profileId), undefined, "blocked both ways");
    assert.ok(!ids((await ask(other, map)).body).includes(viewer.profileId));
    // A change outside what a row shows (a description) keeps the view as it was.
    await updateProfile(crowd[3], { description: "New words." });
    const sentBefore = keptAnswerCounts().sent;
    assert.deepEqual((await ask(viewer, map)).body, later);
    assert.equal(keptAnswerCounts().sent, sentBefore + 1);

    // by-bounds as objects and as rows: each form its own answer, each with distances from its viewer.
    const bounds = `/api/profile-briefs/by-bounds?${BOX}&size=800`;
    const objects = await ask(viewer, bounds, "gzip, deflate, br, zstd");
    const rows = await ask(viewer, `${bounds}&form=rows`, "gzip, deflate, br, zstd");
    assert.deepEqual((await ask(viewer, bounds, "gzip, deflate, br, zstd")).body, objects.body);
    assert.deepEqual((await ask(viewer, `${bounds}&form=rows`, "gzip, deflate, br, zstd")).body, rows.body);
    assert.deepEqual(
      rows.body.rows.map((r: unknown[]) => r[0]),
      objects.body.items.map((b: { profileId: string }) => b.profileId),
    );
    await reportPosition(crowd[4], { lat: PHX.lat + 0.4, lon: PHX.lon + 0.4, use: "OVERRIDE", hide: false });
    const moved = (await ask(viewer, bounds)).body.items.find((b: { profileId: string }) => b.profileId === crowd[4]);
    assert.ok(Math.abs(moved.lat - (PHX.lat + 0.4)) < 0.02);
    assert.ok(moved.distanceMeters > 40_000);
  } finally {
    forgetKeptAnswers();
    stopCompressThread();
    t.close();
  }
});
