import assert from "node:assert/strict";
import { closeKv, kv, openKv } from "../kv/db.ts";
import { seed } from "./seed.ts";
import { getAccountByEmail } from "../kv/accounts.ts";
import { getProfile } from "../kv/profiles.ts";
import { getPic } from "../kv/pictures.ts";
import { loadVariant } from "../workers/pictures.ts";
import { CHARACTERISTIC_VALUES } from "../domain/characteristics.ts";

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
