import assert from "node:assert/strict";
import { closeKv, kv, openKv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { importPositions, reportPosition } from "./positions/mod.ts";
import { mapView, mapViewText, profileBriefs } from "./briefs.ts";
import { answerSignature, sameSignature } from "./briefSignatures.ts";
import { now, resetClock } from "./clock.ts";
import type { Profile } from "../domain/shapes/profiles.ts";
import type { BriefsPage } from "../domain/shapes/briefs.ts";

const BOX = { latMin: 33, latMax: 34, lonMin: -113, lonMax: -111 };

/** A member's record with every field set. */
function fullProfile(id: string): Profile {
  return {
    id,
    accountId: `acc-${id}`,
    profilename: "Sam",
    birthdate: "1990-05-01",
    height: "175",
    weight: "72",
    description: "Coffee.",
    characteristics: ["bottom"],
    profilePicIds: ["pic1", "pic2"],
    profilePicIdsPrivate: ["secret1"],
    roles: ["USER"],
    tsUpdated: now() - 1000,
    tsCreated: now() - 24 * 3_600_000,
    verifiedPicIds: ["pic1"],
    tsVerified: now() - 2000,
  };
}

/** Each field of a record changed. */
const CHANGES: Record<Exclude<keyof Profile, "id">, (p: Profile) => unknown> = {
  accountId: () => "acc-other",
  profilename: () => "Alex",
  birthdate: () => "1980-01-02",
  height: () => "190",
  weight: () => "80",
  description: () => "Tea.",
  characteristics: () => ["top"],
  profilePicIds: () => ["pic2", "pic1"],
  profilePicIdsPrivate: () => ["secret2"],
  roles: () => ["USER", "PRO"],
  tsUpdated: (p) => p.tsUpdated + 1,
  tsCreated: () => now() - 30 * 24 * 3_600_000,
  verifiedPicIds: () => [],
  tsVerified: (p) => p.tsVerified! + 1,
};

Deno.test("brief signatures - an answer signed as before is the same JSON: every field of a record changed in turn", async () => {
  await openKv(":memory:");
  resetClock();
  try {
    const viewer = newId(), member = newId(), next = newId();
    await importPositions([
      { profileId: viewer, lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false },
      { profileId: member, lat: 33.5, lon: -112.0, use: "OVERRIDE", hide: false },
      { profileId: next, lat: 33.6, lon: -111.9, use: "OVERRIDE", hide: false },
    ]);
    await kv().set(keys.profile(next), fullProfile(next));
    const base = fullProfile(member);
    assert.deepEqual(Object.keys(CHANGES).sort(), Object.keys(base).filter((k) => k !== "id").sort());
    /** The box's page, the map view and the nearest list for the viewer: their JSON and signatures. */
    const answers = async () => {
      const page = await profileBriefs(viewer, { kind: "bounds", bounds: BOX }, { size: 800 });
      const view = await mapView(viewer, BOX);
      const list = await profileBriefs(viewer, { kind: "nearest" });
      return [
        { text: JSON.stringify(page), signature: answerSignature(page)! },
        { text: mapViewText(view), signature: answerSignature(view)! },
        { text: JSON.stringify(list), signature: answerSignature(list)! },
      ];
    };
    const changedPage = new Set<string>();
    for (const [field, change] of Object.entries(CHANGES)) {
      await kv().set(keys.profile(member), base);
      const before = await answers();
      await kv().set(keys.profile(member), { ...base, [field]: change(base) });
      const after = await answers();
      for (const [i, what] of ["by-bounds page", "map view", "nearest list"].entries()) {
        assert.ok(before[i].signature && after[i].signature, `${what} signed`);
        // Equal signatures, the same JSON (a signature may change where the JSON does not: a birthdate on the map).
        if (sameSignature(before[i].signature, after[i].signature)) {
          assert.equal(after[i].text, before[i].text, `${field}: the ${what}'s signature kept, its JSON changed`);
        }
        if (what === "by-bounds page" && before[i].text !== after[i].text) changedPage.add(field);
        // The nearest list shows the same fields of a member as a page of a box.
        if (what === "nearest list") assert.equal(before[i].text !== after[i].text, changedPage.has(field), field);
      }
    }
    // What a brief shows of a record (the Verified badge from the pictures and the verified ones; the age; the new mark).
    assert.deepEqual(
      [...changedPage].sort(),
      [
        "birthdate",
        "characteristics",
        "height",
        "profilePicIds",
        "profilename",
        "tsCreated",
        "verifiedPicIds",
        "weight",
      ],
    );
    // The fields a list or a marker shows change the answers; the others leave them (and their signatures) as they were.
    await kv().set(keys.profile(member), base);
    const [page] = await answers();
    await kv().set(keys.profile(member), { ...base, description: "Other words." });
    assert.ok(sameSignature(page.signature, (await answers())[0].signature));
    await kv().set(keys.profile(member), { ...base, profilename: "Alex" });
    assert.ok(!sameSignature(page.signature, (await answers())[0].signature));
  } finally {
    closeKv();
  }
});

Deno.test("brief signatures - an empty nearest list that places no one is signed apart from one that is only empty", async () => {
  await openKv(":memory:");
  resetClock();
  try {
    const viewer = newId();
    const list = async (at: { lat: number; lon: number }) => {
      await reportPosition(viewer, { ...at, use: "OVERRIDE", hide: false });
      const page = await profileBriefs(viewer, { kind: "nearest" });
      return { text: JSON.stringify(page), signature: answerSignature(page)! };
    };
    // Nobody near either point; the second is in a country where being gay is a crime.
    const sea = await list({ lat: -30, lon: -25 });
    const nairobi = await list({ lat: -1.2864, lon: 36.8172 });
    assert.equal(sea.text, '{"items":[],"page":0,"size":30,"hasMore":false}');
    assert.equal(nairobi.text, '{"items":[],"page":0,"size":30,"hasMore":false,"nearbyOnly":true}');
    assert.ok(!sameSignature(sea.signature, nairobi.signature));
  } finally {
    closeKv();
  }
});

Deno.test("brief signatures - a page's JSON, its briefs made when read, is what its plain fields write: placed or not", async () => {
  await openKv(":memory:");
  resetClock();
  try {
    const viewer = newId(), others = [newId(), newId(), newId()];
    const plain = (p: BriefsPage) =>
      JSON.stringify({
        items: p.items.map((b) => ({ ...b })),
        page: p.page,
        size: p.size,
        hasMore: p.hasMore,
        ...(p.nearbyOnly ? { nearbyOnly: p.nearbyOnly } : {}),
      });
    for (const [i, id] of others.entries()) {
      await kv().set(keys.profile(id), { ...fullProfile(id), profilename: `Member "${i}"` });
    }
    for (const at of [{ lat: 33.45, lon: -112.07 }, { lat: -1.2864, lon: 36.8172 }]) {
      await importPositions([viewer, ...others].map((profileId, i) => ({
        profileId,
        lat: at.lat + 0.01 * i,
        lon: at.lon,
        use: "OVERRIDE" as const,
        hide: false,
      })));
      for (const q of [{}, { size: 2 }, { page: 1, size: 2 }, { page: 5, size: 2 }, { minAge: 18 }]) {
        const page = await profileBriefs(viewer, { kind: "nearest" }, q);
        assert.equal(JSON.stringify(page), plain(page), JSON.stringify(q));
      }
      const page = await profileBriefs(viewer, { kind: "nearest" });
      assert.equal(page.items.length, 3);
      assert.equal(page.nearbyOnly, at.lat < 0 ? true : undefined);
      assert.deepEqual(page.items.map((b) => b.distanceMeters === null), [at.lat < 0, at.lat < 0, at.lat < 0]);
    }
    // A page of hundreds: the same JSON as its plain fields, the same briefs each read.
    const crowd = Array.from({ length: 150 }, () => newId());
    for (const id of crowd) await kv().set(keys.profile(id), fullProfile(id));
    await importPositions([viewer, ...crowd].map((profileId, i) => ({
      profileId,
      lat: 33.45 + 0.001 * i,
      lon: -112.07,
      use: "OVERRIDE" as const,
      hide: false,
    })));
    for (const q of [{ size: 800 }, { size: 120 }, { page: 1, size: 100 }]) {
      const page = await profileBriefs(viewer, { kind: "bounds", bounds: BOX }, q);
      assert.equal(JSON.stringify(page), plain(page), JSON.stringify(q));
      assert.equal(page.items, page.items);
    }
    assert.equal((await profileBriefs(viewer, { kind: "bounds", bounds: BOX }, { size: 800 })).items.length, 150);
  } finally {
    closeKv();
  }
});
