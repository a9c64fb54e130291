import assert from "node:assert/strict";
import { closeKv, kv, openKv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { seed } from "./seed.ts";
import { getAccountByEmail } from "../kv/accounts.ts";
import { getProfile } from "../kv/profiles.ts";
import { getPic } from "../kv/pictures.ts";
import { loadVariant } from "../workers/pictures.ts";
import { CHARACTERISTIC_VALUES } from "../domain/characteristics.ts";
import { getShownPosition } from "../kv/positions/mod.ts";
import type { Profile } from "../domain/shapes/profiles.ts";
import { ORIGIN, testApp } from "../tests/api.ts";
import sharp from "sharp";

async function community(n: number, seedNo: number) {
  await openKv(":memory:");
  const res = await seed({ n, seed: seedNo, variants: true });
  const profiles = [];
  for (let i = 0; i < n; i++) {
    const account = await getAccountByEmail(`seed-${seedNo}-${i}@seed.invalid`);
    profiles.push((await getProfile(account!.defaultProfileId))!);
  }
  return { res, profiles };
}

Deno.test("seed - members with profiles, pictures in every size, positions and likes; the same seed, the same community", async () => {
  try {
    const { res, profiles } = await community(6, 7);
    assert.equal(res.members, 6);
    assert.equal(res.positions, 6);
    assert.ok(res.pictures >= 1 && res.likes >= 1, JSON.stringify(res));
    for (const p of profiles) {
      assert.ok(p.profilename.length > 0);
      assert.match(p.birthdate, /^\d{4}-\d{2}-\d{2}$/);
      for (const c of p.characteristics) assert.ok(CHARACTERISTIC_VALUES.has(c), c);
      for (const id of [...p.profilePicIds, ...p.profilePicIdsPrivate]) {
        const pic = (await getPic(id))!;
        assert.equal(pic.profileId, p.id);
        const served = (await loadVariant(pic, { size: 256, blur: false }))!;
        assert.equal(served.stored, true, "the variants job ran");
      }
    }
    let jobs = 0;
    for await (const _ of kv().list({ prefix: ["jobs"] })) jobs++;
    assert.equal(jobs, 0, "no job left");
    const names = profiles.map((p) => [p.profilename, p.birthdate, p.characteristics.join()]);
    closeKv();
    const again = await community(6, 7);
    assert.deepEqual(again.profiles.map((p) => [p.profilename, p.birthdate, p.characteristics.join()]), names);
    // Running again skips the members that exist.
    const rerun = await seed({ n: 6, seed: 7, variants: false });
    assert.deepEqual([rerun.members, rerun.skipped], [0, 6]);
  } finally {
    closeKv();
  }
});

Deno.test("seed --no-variants - the palette's masters alone are drawn and stored; each picture's job renders its sizes", async () => {
  await openKv(":memory:");
  try {
    const res = await seed({ n: 6, seed: 7, variants: false });
    assert.ok(res.pictures >= 1, JSON.stringify(res));
    const palette: string[] = [];
    for await (const e of kv().list({ prefix: ["blobs"] })) {
      const id = String(e.key[1]);
      if (id.startsWith("seed-palette/")) palette.push(id);
    }
    // The pictures' sizes are the jobs' to render: the palette's own would never be read.
    assert.ok(palette.length >= 1 && palette.every((id) => /^seed-palette\/\d+\/master-/.test(id)), palette.join());
    let due = 0;
    for await (const _ of kv().list({ prefix: keys.jobsDue() })) due++;
    assert.equal(due, res.pictures, "a job per picture");
  } finally {
    closeKv();
  }
});

Deno.test("seed - 50 members show in nearest and by-bounds answers, each with the pictures that serve", async () => {
  const t = await testApp();
  try {
    const res = await seed({ n: 50, seed: 3, variants: true });
    assert.equal(res.members, 50);
    const seeded = new Map<string, Profile>();
    for (let i = 0; i < 50; i++) {
      const p = (await getProfile((await getAccountByEmail(`seed-3-${i}@seed.invalid`))!.defaultProfileId))!;
      seeded.set(p.id, p);
    }
    const viewer = await t.member();
    const placed = await t.call("PUT", `/api/profile-position/${viewer.profileId}`, {
      cookie: viewer.cookie,
      json: { overrideLat: 33.4484, overrideLon: -112.074, use: "OVERRIDE", hide: false },
    });
    assert.equal(placed.status, 200, placed.text);
    // Who a member near Phoenix should find: the seeded members shown within a degree.
    const box = { latMin: 32.9, lonMin: -112.6, latMax: 33.9, lonMax: -111.5 };
    const shown = new Map<string, { lat: number; lon: number }>();
    for (const id of seeded.keys()) {
      const s = await getShownPosition(id);
      if (s && s.lat >= box.latMin && s.lat <= box.latMax && s.lon >= box.lonMin && s.lon <= box.lonMax) {
        shown.set(id, s);
      }
    }
    assert.ok(shown.size >= 10, `most live around Phoenix: ${shown.size}`);
    const q = new URLSearchParams(Object.entries({ ...box, size: "100" }).map(([k, v]) => [k, String(v)]));
    const inBox = await t.call("GET", `/api/profile-briefs/by-bounds?${q}`, { cookie: viewer.cookie });
    assert.equal(inBox.status, 200, inBox.text);
    const boxIds = inBox.data.items.map((b: { profileId: string }) => b.profileId);
    assert.deepEqual(new Set(boxIds), new Set(shown.keys()));
    const near = await t.call("GET", "/api/profile-briefs/nearest?size=100", { cookie: viewer.cookie });
    assert.equal(near.status, 200, near.text);
    const nearIds: string[] = near.data.items.map((b: { profileId: string }) => b.profileId);
    for (const id of shown.keys()) assert.ok(nearIds.includes(id), `${id} is near`);
    let served = 0;
    for (const b of near.data.items as { profileId: string; profileName: string; profilePicIds: string[] }[]) {
      const p = seeded.get(b.profileId)!;
      assert.equal(b.profileName, p.profilename);
      assert.deepEqual(b.profilePicIds, p.profilePicIds, "the public pictures");
      for (const id of b.profilePicIds) {
        const r = await t.app.request(`${ORIGIN}/api/profile-pic/${id}?scale_x=256`, {
          headers: { cookie: viewer.cookie },
        });
        assert.equal(r.status, 200);
        const bytes = new Uint8Array(await r.arrayBuffer());
        const meta = await sharp(bytes).metadata();
        assert.equal(meta.format, "webp");
        assert.deepEqual([meta.width, meta.height], [256, 320]);
        served++;
      }
    }
    assert.ok(served >= 10, `pictures served: ${served}`);
  } finally {
    t.close();
  }
});
