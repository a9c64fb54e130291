import assert from "node:assert/strict";
import { closeKv, kv, openKv, wrapKv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { newProfile } from "./profiles.ts";
import { importPositions, reportPosition } from "./positions/mod.ts";
import { mapView, mapViewText, profileBriefs } from "./briefs.ts";
import { startKeptReads } from "./kept.ts";
import { eventBus } from "./events.ts";
import { updateProfile } from "./profiles.ts";
import { putProfileLike } from "./likes.ts";
import { now, resetClock, shiftClock } from "./clock.ts";
import type { MapView } from "../domain/shapes/briefs.ts";

/** `n` members with profiles around Phoenix; every `every`-th is a top. Returns their ids. */
async function seed(n: number, every: number, withProfile = (_i: number) => true) {
  const ids: string[] = [];
  const tops = new Set<string>();
  const items = [];
  for (let i = 0; i < n; i++) {
    const id = newId();
    ids.push(id);
    if (i % every === 0) tops.add(id);
    if (withProfile(i)) {
      const p = newProfile(id, `acc-${id}`, `member ${i}`, ["USER"]);
      p.characteristics = i % every === 0 ? ["top", "hosting"] : ["bottom"];
      await kv().set(keys.profile(id), p);
    }
    items.push({
      profileId: id,
      lat: 33.45 + ((i * 7919) % 601 - 300) / 1000,
      lon: -112.07 + ((i * 104_729) % 599 - 299) / 1000,
      use: "OVERRIDE" as const,
      hide: false,
    });
  }
  await importPositions(items);
  return { ids, tops };
}

Deno.test("briefs - a rare attribute pages exactly across many index chunks", async () => {
  await openKv(":memory:");
  try {
    const viewer = newId();
    await importPositions([{ profileId: viewer, lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false }]);
    const { tops } = await seed(3000, 37);
    const all = await profileBriefs(viewer, { kind: "nearest" }, { size: 2000 });
    assert.equal(all.items.length, 2000);
    const order = (await profileBriefs(viewer, { kind: "nearest" }, { size: 2000, page: 1 })).items;
    const everyone = [...all.items, ...order].map((b) => b.profileId);
    assert.equal(everyone.length, 3000);
    const wantTops = everyone.filter((id) => tops.has(id));
    assert.equal(wantTops.length, tops.size);

    const got: string[] = [];
    for (let page = 0;; page++) {
      const r = await profileBriefs(viewer, { kind: "nearest" }, { page, size: 15, chars: ["top", "hosting"] });
      assert.ok(r.items.every((b) => b.profileChars.includes("top")));
      got.push(...r.items.map((b) => b.profileId));
      if (!r.hasMore) break;
    }
    assert.deepEqual(got, wantTops);
  } finally {
    closeKv();
  }
});

Deno.test("briefs - members whose profile is gone are skipped without short pages", async () => {
  await openKv(":memory:");
  try {
    const viewer = newId();
    await importPositions([{ profileId: viewer, lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false }]);
    await seed(100, 1000, (i) => i % 3 !== 0);
    const pages = [];
    for (let page = 0; page < 4; page++) {
      pages.push(await profileBriefs(viewer, { kind: "nearest" }, { page, size: 20 }));
    }
    assert.deepEqual(pages.map((p) => p.items.length), [20, 20, 20, 6]);
    assert.deepEqual(pages.map((p) => p.hasMore), [true, true, true, false]);
    const ids = pages.flatMap((p) => p.items.map((b) => b.profileId));
    assert.equal(new Set(ids).size, 66);
    const d = pages.flatMap((p) => p.items.map((b) => b.distanceMeters!));
    assert.ok(d.every((x) => typeof x === "number"));
    assert.deepEqual(d, [...d].sort((x, y) => x - y));
  } finally {
    closeKv();
  }
});

Deno.test("briefs - a deck's pages answer as the whole history would: rated before it opened out, re-rated since back in", async () => {
  await openKv(":memory:");
  try {
    const viewer = newId();
    await importPositions([{ profileId: viewer, lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false }]);
    const { ids } = await seed(40, 1000);
    const nearest = (await profileBriefs(viewer, { kind: "nearest" }, { size: 40 })).items.map((b) => b.profileId);
    assert.equal(nearest.length, 40);
    // The 10 nearest rated (a deck swiped from the top), one more further out; then the deck opens.
    for (const id of nearest.slice(0, 10)) await putProfileLike(viewer, id, "LIKE");
    await putProfileLike(viewer, nearest[20], "DISLIKE");
    await putProfileLike(viewer, nearest[21], "UNDETERMINED");
    const opened = now() + 1;
    shiftClock(10);
    const deck = async (page: number) =>
      (await profileBriefs(viewer, { kind: "nearest" }, { page, size: 5, ratedBefore: opened })).items.map((b) =>
        b.profileId
      );
    const want = nearest.filter((_id, i) => i >= 10 && i !== 20);
    assert.deepEqual([...await deck(0), ...await deck(1)], want.slice(0, 10));
    // Swiping in the deck changes nothing of its pages.
    await putProfileLike(viewer, want[0], "DISLIKE");
    assert.deepEqual(await deck(0), want.slice(0, 5));
    // A member rated before the deck opened and rated anew since counts as rated after it.
    await putProfileLike(viewer, nearest[0], "DISLIKE");
    assert.deepEqual(await deck(0), [nearest[0], ...want.slice(0, 4)]);
    assert.ok(ids.length === 40);
  } finally {
    resetClock();
    closeKv();
  }
});

Deno.test("briefs - distances are whole meters, nearest first, on every list", async () => {
  await openKv(":memory:");
  try {
    const viewer = newId();
    await importPositions([{ profileId: viewer, lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false }]);
    await seed(60, 4);
    const bounds = { latMin: 33.1, lonMin: -112.4, latMax: 33.8, lonMax: -111.7 };
    for (const area of [{ kind: "nearest" as const }, { kind: "bounds" as const, bounds }]) {
      const d = (await profileBriefs(viewer, area, { size: 100 })).items.map((b) => b.distanceMeters!);
      assert.equal(d.length, 60, area.kind);
      assert.ok(d.every((x) => Number.isInteger(x) && x >= 0), area.kind);
      assert.deepEqual(d, [...d].sort((x, y) => x - y), area.kind);
    }
  } finally {
    closeKv();
  }
});

Deno.test("briefs - a map view written from kept rows is the same JSON as written whole, through changes", async () => {
  await openKv(":memory:");
  // Kept reads on, as the app's server keeps them: the rows are kept with each kept profile.
  startKeptReads();
  try {
    const viewer = newId();
    await importPositions([{ profileId: viewer, lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false }]);
    // A member without a profile is no marker.
    const { ids } = await seed(60, 7, (i) => i !== 10);
    // A name and characteristics JSON must escape.
    await updateProfile(ids[3], { profilename: 'Ren\u00e9 "the \\ quoted"\n\u2028', characteristics: ["b\u00e4r"] });
    const box = { latMin: 33.1, latMax: 33.8, lonMin: -112.4, lonMax: -111.7 };
    const view = async () => {
      const v = await mapView(viewer, box);
      assert.ok(v.rows.length > 50);
      assert.equal(mapViewText(v), JSON.stringify(v));
      return v;
    };
    const row = (v: MapView, id: string) => v.rows.find((r) => r[0] === id)!;
    const first = await view();
    assert.equal(first.rows.length, 59);
    assert.equal(first.rows.find((r) => r[0] === ids[10]), undefined);
    assert.deepEqual(row(await view(), ids[5]), row(first, ids[5])); // the kept rows, used
    // A member who moves and one who is renamed show so at once, and the JSON is still the same.
    await reportPosition(ids[5], { lat: 33.2, lon: -112.3, use: "OVERRIDE", hide: false });
    await updateProfile(ids[6], { profilename: "renamed" });
    const later = await view();
    assert.notEqual(row(later, ids[5])[2], row(first, ids[5])[2]);
    assert.equal(row(later, ids[6])[1], "renamed");
    // A view made elsewhere (or changed after it was made) is written whole.
    const other = { ...later, rows: later.rows.slice(1) };
    assert.equal(mapViewText(other), JSON.stringify(other));
  } finally {
    await eventBus().stop();
    closeKv();
  }
});

Deno.test("briefs - a viewer shown far from every country at risk is not read from their own record; one near is", async () => {
  await openKv(":memory:");
  const ownReads: string[] = [];
  const counted = (keys: readonly Deno.KvKey[]) => {
    for (const k of keys) if (k[0] === "positions_own") ownReads.push(String(k[1]));
  };
  wrapKv((db) =>
    new Proxy(db, {
      get(target, prop) {
        const v = Reflect.get(target, prop, target);
        if (prop === "get") {
          return (
            key: Deno.KvKey,
            o?: { consistency?: Deno.KvConsistencyLevel },
          ) => (counted([key]), target.get(key, o));
        }
        if (prop === "getMany") {
          return (
            keys: Deno.KvKey[],
            o?: { consistency?: Deno.KvConsistencyLevel },
          ) => (counted(keys), target.getMany(keys, o));
        }
        return typeof v === "function" ? v.bind(target) : v;
      },
    })
  );
  try {
    const phoenix = newId(), cotonou = newId();
    await importPositions([
      { profileId: phoenix, lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false },
      // Benin, a few km from Nigeria: not at risk, but a cell away may be.
      { profileId: cotonou, lat: 6.55, lon: 2.66, use: "OVERRIDE", hide: false },
    ]);
    await seed(5, 2);
    ownReads.length = 0;
    const far = await profileBriefs(phoenix, { kind: "nearest" });
    assert.equal(far.items.length, 5);
    assert.equal(far.nearbyOnly, undefined);
    assert.deepEqual(ownReads, []);
    const nearBorder = await profileBriefs(cotonou, { kind: "nearest" });
    assert.equal(nearBorder.nearbyOnly, undefined, "judged by the true point: Benin");
    assert.deepEqual(ownReads, [cotonou]);
  } finally {
    closeKv();
  }
});
