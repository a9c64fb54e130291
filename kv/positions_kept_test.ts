import assert from "node:assert/strict";
import { newId } from "./ids.ts";
import { shiftClock } from "./clock.ts";
import {
  byBounds,
  importPositions,
  type NearbyPage,
  nearest,
  POSITION_TTL_MS,
  reportPosition,
} from "./positions/mod.ts";
import { forgetKeptSearches, keptSearchCount } from "./positions/keptSearches.ts";
import { mulberry32 as rng } from "./random.ts";
import { kvTest } from "../tests/kv.ts";

const HOME = { lat: 40.7, lon: -74.0 };
const BOX = { latMin: 40.54, latMax: 40.86, lonMin: -74.16, lonMax: -73.84 };

/** A page asked again (kept or not) beside the same page found anew: they must be equal. */
async function again(ask: () => Promise<NearbyPage>): Promise<{ page: NearbyPage; fresh: NearbyPage }> {
  const page = await ask();
  forgetKeptSearches();
  const fresh = await ask();
  assert.deepEqual(page, fresh, "the page given is the one found anew");
  // Found anew, and kept again for the next step.
  return { page: fresh, fresh };
}

kvTest(
  "kept searches - a large page is given again while nobody near enough changed, and is found anew at every change that shows",
  async () => {
    forgetKeptSearches();
    const rand = rng(11);
    const viewer = newId();
    // A dense core (the page's members) and members further out across the box.
    const crowd = Array.from({ length: 400 }, (_, i) => ({
      profileId: newId(),
      lat: HOME.lat + (rand() - 0.5) * (i < 300 ? 0.04 : 0.3),
      lon: HOME.lon + (rand() - 0.5) * (i < 300 ? 0.04 : 0.3),
      use: "OVERRIDE" as const,
      hide: false,
    }));
    await importPositions([{ profileId: viewer, ...HOME, use: "OVERRIDE", hide: false }, ...crowd]);
    const box = () => byBounds({ ...BOX, size: 150 }, viewer);
    const ids = (p: NearbyPage) => p.items.map((it) => it.profileId);

    let { page } = await again(box);
    assert.equal(page.items.length, 150);
    assert.equal(page.hasMore, true);
    assert.ok(!ids(page).includes(viewer), "the viewer left out");
    // Asked again with nothing changed: the page kept (the same object), no search.
    assert.equal(await box(), page);
    assert.equal(keptSearchCount(), 1);

    // A member in the box but far past the page's last moves within the box's far corner: the same page.
    const last = page.items.at(-1)!.distanceMeters;
    const far = crowd.find((m) => Math.abs(m.lat - HOME.lat) > 0.09)!;
    await reportPosition(far.profileId, {
      lat: BOX.latMin + 0.001,
      lon: BOX.lonMin + 0.001,
      use: "OVERRIDE",
      hide: false,
    });
    assert.ok(last < 3_000, `the page's last member is ${last} m away: the far member is ten away and more`);
    assert.equal(await box(), page, "a change out of reach keeps the page");

    // Someone arrives next to the viewer (shown within a privacy cell of them): on the page.
    const comer = newId();
    await reportPosition(comer, { lat: HOME.lat + 0.0005, lon: HOME.lon, use: "OVERRIDE", hide: false });
    ({ page } = await again(box));
    assert.ok(ids(page).includes(comer));
    // A listed member hides: gone from the page.
    const hiding = page.items[10];
    await reportPosition(hiding.profileId, { lat: hiding.lat, lon: hiding.lon, use: "OVERRIDE", hide: true });
    ({ page } = await again(box));
    assert.ok(!ids(page).includes(hiding.profileId));
    // A listed member moves away, out of the box.
    const leaving = page.items[5].profileId;
    await reportPosition(leaving, { lat: HOME.lat + 1, lon: HOME.lon, use: "OVERRIDE", hide: false });
    ({ page } = await again(box));
    assert.ok(!ids(page).includes(leaving));

    // Members left out (blocks): another set of the same members is the same page; another member is not.
    const blocked = page.items[2].profileId;
    const left = await byBounds({ ...BOX, size: 150, exclude: new Set([blocked]) }, viewer);
    assert.ok(!ids(left).includes(blocked));
    assert.equal(await byBounds({ ...BOX, size: 150, exclude: new Set([blocked]) }, viewer), left);
    ({ page } = await again(box));
    assert.ok(ids(page).includes(blocked), "unblocked: back on the page");

    // The viewer moves: measured from there.
    await reportPosition(viewer, { lat: HOME.lat + 0.05, lon: HOME.lon + 0.05, use: "OVERRIDE", hide: false });
    const moved = (await again(box)).page;
    assert.notDeepEqual(ids(moved), ids(page));

    // The nearest list of the same size is kept on its own, and so is the grid's nearest 30
    // (decision 0281); a smaller page not at all.
    await again(() => nearest(viewer, { size: 120 }));
    const thirty = () => nearest(viewer, { size: 30 });
    let near = (await again(thirty)).page;
    assert.equal(near.items.length, 30);
    assert.equal(await thirty(), near, "the nearest 30 asked again is the page kept");
    const before = keptSearchCount();
    await nearest(viewer, { size: 12 });
    assert.equal(keptSearchCount(), before, "a page of 12 is not kept");
    // A member far past the 30th moves further off: the same 30. One arrives next to the viewer
    // (shown within a privacy cell of them): found anew, with them.
    const nearLast = near.items.at(-1)!.distanceMeters;
    // South of the box's middle, the viewer 0.05 degrees north of it: 16 km away and more.
    const farther = crowd.find((m) => m.lat < HOME.lat - 0.1)!;
    await reportPosition(farther.profileId, {
      lat: BOX.latMin + 0.002,
      lon: BOX.lonMin + 0.002,
      use: "OVERRIDE",
      hide: false,
    });
    assert.ok(nearLast < 6_000, `the 30th is ${nearLast} m away: the moved member is 16 km away and more`);
    assert.equal(await thirty(), near, "a change out of reach keeps the nearest 30");
    const neighbour = newId();
    await reportPosition(neighbour, { lat: HOME.lat + 0.05, lon: HOME.lon + 0.0505, use: "OVERRIDE", hide: false });
    near = (await again(thirty)).page;
    assert.ok(ids(near).includes(neighbour));
    // The first of them hides: gone from the 30.
    await reportPosition(neighbour, { lat: HOME.lat + 0.05, lon: HOME.lon + 0.0505, use: "OVERRIDE", hide: true });
    near = (await again(thirty)).page;
    assert.ok(!ids(near).includes(neighbour));
    // Another first page of the viewer's nearest (another size) takes the list's place under their
    // slot: each is the one found anew.
    await again(() => nearest(viewer, { size: 45 }));
    await again(thirty);
    // The viewer moves again: the 30 from there, not the list kept under their slot.
    await reportPosition(viewer, { lat: HOME.lat - 0.05, lon: HOME.lon - 0.05, use: "OVERRIDE", hide: false });
    const there = (await again(thirty)).page;
    assert.notDeepEqual(ids(there), ids(near));

    // A day and more on, every shown point has expired: nothing kept is given. (A viewer with no
    // point of their own is measured from the box's middle, so only the expiry tells.)
    const nowhere = newId();
    const fromMiddle = () => byBounds({ ...BOX, size: 150 }, nowhere);
    await again(fromMiddle);
    assert.equal((await fromMiddle()).items.length, 150);
    shiftClock(POSITION_TTL_MS + 60_000);
    assert.deepEqual((await again(fromMiddle)).page, { items: [], hasMore: false });
    assert.deepEqual((await again(box)).page, { items: [], hasMore: false });
    forgetKeptSearches();
  },
);
