import assert from "node:assert/strict";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { shiftClock } from "./clock.ts";
import { GeoInputError, haversineMeters, sectorKey } from "../domain/geo.ts";
import {
  aggregates,
  byBounds,
  bySector,
  getOwnPosition,
  getShownPosition,
  importPositions,
  loadPositionIndex,
  type NearbyItem,
  type NearbyPage,
  nearest,
  POSITION_SWEEP_MS,
  POSITION_TTL_MS,
  reportPosition,
  type ShownPosition,
  sweepExpiredPositions,
  sweepPositionsWhenDue,
} from "./positions/mod.ts";
import { mulberry32 as rng } from "./random.ts";
import { kvTest } from "../tests/kv.ts";
import { assertSorted, bruteForce, ids, placeMembers, shownOf } from "../tests/fixtures/positions.ts";

kvTest("nearest - matches a brute-force order of shown positions, viewer left out, across pages", async () => {
  const rand = rng(11);
  const placed = [
    ...await placeMembers(700, 33.45, -112.07, 0.3, rand),
    ...await placeMembers(300, 33.45, -112.07, 1.5, rand),
  ];
  const shown = await shownOf(placed.map((p) => p.id));
  assert.equal(shown.length, placed.length);
  for (const viewer of placed.slice(0, 25)) {
    const me = shown.find((s) => s.profileId === viewer.id)!;
    const expected = bruteForce(
      me,
      shown,
      (s) => s.profileId !== viewer.id && Math.abs(s.lat - me.lat) <= 1 && Math.abs(s.lon - me.lon) <= 1,
    );
    const got: NearbyItem[] = [];
    for (let page = 0; page < 4; page++) {
      const res = await nearest(viewer.id, { page, size: 30 });
      assertSorted(res.items);
      got.push(...res.items);
      assert.equal(res.hasMore, expected.length > (page + 1) * 30);
    }
    assert.deepEqual(got.map((i) => i.profileId), expected.slice(0, 120).map((e) => e.id));
    for (let i = 0; i < got.length; i++) assert.ok(Math.abs(got[i].distanceMeters - expected[i].d) < 1e-6);
  }
  // A deep page and the last page.
  const v = placed[0].id;
  const all = await nearest(v, { page: 0, size: 2000 });
  assert.equal(all.hasMore, false);
  const tail = await nearest(v, { page: Math.floor(all.items.length / 100), size: 100 });
  assert.deepEqual(ids(tail), ids(all).slice(Math.floor(all.items.length / 100) * 100));
  assert.equal(tail.hasMore, false);
  assert.deepEqual(await nearest(v, { page: 50, size: 100 }), { items: [], hasMore: false });
});

kvTest("nearest - the same query gives the same (distance, id) order every time", async () => {
  // Shown points come from a keyed hash, so a test cannot place two members at exactly the same
  // distance; the (distance, id) order itself is checked here and against brute force above.
  const rand = rng(5);
  const placed = await placeMembers(400, 10, 10, 0.05, rand);
  const a = await nearest(placed[0].id, { size: 300 });
  const b = await nearest(placed[0].id, { size: 300 });
  assert.deepEqual(a, b);
  assertSorted(a.items);
});

kvTest("byBounds and bySector - only shown positions in the box or sector, nearest to the viewer first", async () => {
  const rand = rng(12);
  const placed = await placeMembers(1500, 33.5, -112.5, 1.2, rand);
  const shown = await shownOf(placed.map((p) => p.id));
  const viewer = placed[3].id;
  const me = shown.find((s) => s.profileId === viewer)!;
  const box = { latMin: 33.2, lonMin: -112.9, latMax: 33.9, lonMax: -112.1 };
  const inBox = (s: ShownPosition) =>
    s.profileId !== viewer && s.lat >= box.latMin && s.lat <= box.latMax && s.lon >= box.lonMin &&
    s.lon <= box.lonMax;
  const expected = bruteForce(me, shown, inBox);
  const p0 = await byBounds({ ...box, page: 0, size: 100 }, viewer);
  const p1 = await byBounds({ ...box, page: 1, size: 100 }, viewer);
  assert.deepEqual([...ids(p0), ...ids(p1)], expected.slice(0, 200).map((e) => e.id));
  assert.equal((await byBounds(box, viewer)).items.length, Math.min(500, expected.length));
  // A box the viewer is far outside of.
  const far = { latMin: 34.3, lonMin: -111.6, latMax: 34.7, lonMax: -111.3 };
  const farExpected = bruteForce(
    me,
    shown,
    (s) => s.lat >= far.latMin && s.lat <= far.latMax && s.lon >= far.lonMin && s.lon <= far.lonMax,
  );
  assert.deepEqual(ids(await byBounds({ ...far, size: 2000 }, viewer)), farExpected.map((e) => e.id));

  for (const sector of ["33:-113", "34:-112", "32:-113"]) {
    const exp = bruteForce(me, shown, (s) => s.profileId !== viewer && s.sector === sector);
    const got = await bySector(sector, { page: 0, size: 1500 }, viewer);
    assert.deepEqual(ids(got), exp.map((e) => e.id), sector);
    for (const it of got.items) assert.equal(sectorKey(it.lat, it.lon), sector);
  }
  assert.deepEqual(await bySector("10:10", {}, viewer), { items: [], hasMore: false });
});

kvTest("aggregates - visible members counted per 1-degree sector", async () => {
  const rand = rng(3);
  const placed = await placeMembers(500, 40.2, -73.8, 0.7, rand);
  const shown = await shownOf(placed.map((p) => p.id));
  const counts = new Map<string, number>();
  for (const s of shown) counts.set(s.sector, (counts.get(s.sector) ?? 0) + 1);
  const agg = await aggregates();
  assert.equal(agg.length, counts.size);
  for (const a of agg) {
    const key = sectorKey(a.centerLat, a.centerLon);
    assert.equal(a.count, counts.get(key), key);
    assert.equal(a.deltaLat, 1);
    assert.equal(a.deltaLon, 1);
    assert.equal(a.centerLat % 1, 0.5);
    assert.ok(a.tsUpdated > 0);
  }
  await reportPosition(placed[0].id, { lat: placed[0].lat, lon: placed[0].lon, use: "OVERRIDE", hide: true });
  const after = await aggregates();
  assert.equal(after.reduce((n, a) => n + a.count, 0), placed.length - 1);
});

kvTest("expiry - after 26 h (shifted clock) a member is found nowhere and their own record is gone", async () => {
  const rand = rng(4);
  const placed = await placeMembers(50, 52.52, 13.4, 0.05, rand);
  const viewer = placed[0].id;
  assert.equal((await nearest(viewer, { size: 100 })).items.length, 49);
  shiftClock(POSITION_TTL_MS - 60_000);
  assert.equal((await nearest(viewer, { size: 100 })).items.length, 49);
  // Half the members report again; the others expire.
  const fresh = placed.slice(0, 25);
  for (const p of fresh) await reportPosition(p.id, { lat: p.lat, lon: p.lon, use: "DEVICE_GPS", hide: false });
  shiftClock(120_000);
  const res = await nearest(viewer, { size: 100 });
  assert.deepEqual(new Set(ids(res)), new Set(fresh.slice(1).map((p) => p.id)));
  assert.equal(await getOwnPosition(placed[40].id), null);
  assert.equal(await getShownPosition(placed[40].id), null);
  assert.ok(await getOwnPosition(placed[1].id));
  const box = { latMin: 52, lonMin: 13, latMax: 53, lonMax: 14, size: 100 };
  assert.equal((await byBounds(box, viewer)).items.length, 24);
  assert.equal((await bySector("52:13", {}, viewer)).items.length, 24);
  assert.equal((await aggregates()).reduce((n, a) => n + a.count, 0), 25);
  shiftClock(POSITION_TTL_MS);
  assert.deepEqual(await nearest(viewer), { items: [], hasMore: false });
  assert.deepEqual(await byBounds(box, viewer), { items: [], hasMore: false });
  assert.deepEqual(await aggregates(), []);
  // KV expiry is lazy: the record may still be stored, but reads filter it by tsEffectiveUntil.
  assert.equal(await getOwnPosition(viewer), null);
  assert.equal(await getShownPosition(fresh[1].id), null);
});

kvTest(
  "expiry - the sweep deletes own records past their 26 h from the store, hidden ones too, and keeps the rest",
  async () => {
    const rand = rng(5);
    const placed = await placeMembers(240, 48.85, 2.35, 0.05, rand);
    const hidden = placed.slice(200);
    for (const p of hidden) await reportPosition(p.id, { lat: p.lat, lon: p.lon, use: "OVERRIDE", hide: true });
    const stored = async (id: string) => (await kv().get(keys.positionOwn(id))).versionstamp !== null;
    assert.equal(await sweepExpiredPositions(), 0, "nothing is past its 26 h yet");
    shiftClock(POSITION_TTL_MS - 60_000);
    // A third report again: their 26 h start anew.
    const again = placed.filter((_, i) => i % 3 === 0);
    for (const p of again) await reportPosition(p.id, { lat: p.lat, lon: p.lon, use: "DEVICE_GPS", hide: false });
    shiftClock(120_000);
    assert.equal(await sweepExpiredPositions(() => true), 0, "a sweep stopped before it began deletes nothing");
    // Over the 100 checks one commit carries: the sweep deletes in several.
    assert.equal(await sweepExpiredPositions(), placed.length - again.length);
    for (const p of placed) {
      assert.equal(await stored(p.id), again.includes(p), `${p.id}: stored only when reported within 26 h`);
    }
    assert.ok(await getOwnPosition(again[0].id));
    assert.equal(await sweepExpiredPositions(), 0, "a second sweep finds nothing more");
    shiftClock(POSITION_TTL_MS);
    assert.equal(await sweepExpiredPositions(), again.length);
    assert.deepEqual(await Array.fromAsync(kv().list({ prefix: ["positions_own"] })), []);
  },
);

kvTest("expiry - the workers take turns: one sweep each period, by whichever process asks first", async () => {
  const placed = await placeMembers(20, 40.42, -3.7, 0.05, rng(8));
  assert.equal(await sweepPositionsWhenDue(), 0, "the first to ask sweeps (nothing has expired)");
  assert.equal(await sweepPositionsWhenDue(), null, "the next to ask within the period does not");
  shiftClock(POSITION_SWEEP_MS - 1_000);
  assert.equal(await sweepPositionsWhenDue(), null, "nor just before the period ends");
  shiftClock(POSITION_TTL_MS);
  assert.equal(await sweepPositionsWhenDue(), placed.length, "past it the first to ask sweeps: all have expired");
  shiftClock(POSITION_SWEEP_MS);
  // Two asking at once (two processes' workers): one gets the turn.
  const both = await Promise.all([sweepPositionsWhenDue(), sweepPositionsWhenDue()]);
  assert.deepEqual(both.filter((n) => n !== null), [0]);
});

kvTest("hidden members appear nowhere, still see others, and keep their point when they show again", async () => {
  const rand = rng(6);
  const placed = await placeMembers(30, -33.87, 151.21, 0.02, rand);
  const [hider, viewer] = placed;
  const before = await getShownPosition(hider.id);
  await reportPosition(hider.id, { lat: hider.lat, lon: hider.lon, use: "OVERRIDE", hide: true });
  assert.equal(await getShownPosition(hider.id), null);
  const box = { latMin: -34, lonMin: 151, latMax: -33, lonMax: 152, size: 100 };
  for (
    const res of [
      await nearest(viewer.id, { size: 100 }),
      await byBounds(box, viewer.id),
      await bySector(before!.sector, {}, viewer.id),
    ]
  ) {
    assert.equal(res.items.length, 28);
    assert.ok(!ids(res).includes(hider.id));
  }
  let shownRecords = 0;
  for await (const e of kv().list({ prefix: keys.positionsShownAll() })) {
    if (e.key[2] === hider.id) shownRecords++;
  }
  assert.equal(shownRecords, 0);
  // The hidden member still sees the others, measured from their own shown point.
  const seen = await nearest(hider.id, { size: 100 });
  assert.equal(seen.items.length, 29);
  assert.ok(
    Math.abs(
      seen.items[0].distanceMeters - haversineMeters(before!.lat, before!.lon, seen.items[0].lat, seen.items[0].lon),
    ) < 1e-6,
  );
  // The owner reads their true position while hidden.
  const own = await getOwnPosition(hider.id);
  assert.equal(own?.hide, true);
  assert.equal(own?.lat, hider.lat);
  await reportPosition(hider.id, { lat: hider.lat, lon: hider.lon, use: "OVERRIDE", hide: false });
  const after = await getShownPosition(hider.id);
  assert.equal(after?.lat, before!.lat);
  assert.equal(after?.lon, before!.lon);
});

kvTest("date line - a box with lonMin > lonMax is empty; nearest reaches across the line", async () => {
  await reportPosition("east", { lat: -17, lon: 179.99, use: "OVERRIDE", hide: false });
  await reportPosition("west", { lat: -17, lon: -179.99, use: "OVERRIDE", hide: false });
  await reportPosition("far", { lat: -17, lon: 175, use: "OVERRIDE", hide: false });
  assert.deepEqual(await byBounds({ latMin: -18, lonMin: 179, latMax: -16, lonMax: -179 }, "east"), {
    items: [],
    hasMore: false,
  });
  const res = await nearest("east");
  assert.deepEqual(ids(res), ["west"]);
  assert.ok(res.items[0].distanceMeters < 5000);
  const back = await nearest("west");
  assert.deepEqual(ids(back), ["east"]);
  // Each side of the line alone.
  assert.deepEqual(ids(await byBounds({ latMin: -18, lonMin: -180, latMax: -16, lonMax: -179 }, "east")), ["west"]);
  assert.deepEqual(ids(await byBounds({ latMin: -18, lonMin: 179, latMax: -16, lonMax: 180 }, "west")), ["east"]);
  // Longitude 180 is stored as -180.
  await reportPosition("edge", { lat: -17, lon: 180, use: "OVERRIDE", hide: false });
  const edge = await getShownPosition("edge");
  assert.ok(edge && edge.lon >= -180 && edge.lon < 180);
  // Near a pole the search still terminates and finds its neighbours.
  await reportPosition("pole1", { lat: 88, lon: 10, use: "OVERRIDE", hide: false });
  await reportPosition("pole2", { lat: 88.01, lon: 10.3, use: "OVERRIDE", hide: false });
  // Just across the pole is 180 degrees of longitude away: outside the ±1 degree area.
  await reportPosition("pole3", { lat: 89.5, lon: -170, use: "OVERRIDE", hide: false });
  assert.deepEqual(ids(await nearest("pole1")), ["pole2"]);
});

kvTest("bad input - coordinates, sectors and paging throw GeoInputError and change nothing", async () => {
  await reportPosition("a", { lat: 1, lon: 1, use: "OVERRIDE", hide: false });
  const before = await getOwnPosition("a");
  const badReports: unknown[] = [
    { lat: NaN, lon: 1, use: "OVERRIDE", hide: false },
    { lat: 91, lon: 1, use: "OVERRIDE", hide: false },
    { lat: 1, lon: -180.5, use: "OVERRIDE", hide: false },
    { lat: "1", lon: 1, use: "OVERRIDE", hide: false },
    { lat: 1, lon: 1, use: "RANDOM", hide: false },
    { lat: 1, lon: 1, use: "OVERRIDE", hide: "no" },
    { lat: 1, lon: 1, use: "OVERRIDE", hide: false, gpsTimestamp: "x" },
    null,
  ];
  for (const r of badReports) {
    // deno-lint-ignore no-explicit-any
    await assert.rejects(reportPosition("a", r as any), GeoInputError, JSON.stringify(r));
  }
  // deno-lint-ignore no-explicit-any
  await assert.rejects(reportPosition("", { lat: 1, lon: 1, use: "OVERRIDE", hide: false } as any), GeoInputError);
  assert.deepEqual(await getOwnPosition("a"), before);
  const badBoxes = [
    { latMin: 2, lonMin: 0, latMax: 1, lonMax: 1 },
    { latMin: -91, lonMin: 0, latMax: 1, lonMax: 1 },
    { latMin: 0, lonMin: 0, latMax: 1, lonMax: 181 },
    { latMin: NaN, lonMin: 0, latMax: 1, lonMax: 1 },
    { latMin: 0, lonMin: 0, latMax: 1, lonMax: 1, size: 0 },
    { latMin: 0, lonMin: 0, latMax: 1, lonMax: 1, size: 5000 },
    { latMin: 0, lonMin: 0, latMax: 1, lonMax: 1, page: -1 },
    { latMin: 0, lonMin: 0, latMax: 1, lonMax: 1, page: 1.5 },
  ];
  for (const b of badBoxes) await assert.rejects(byBounds(b, "a"), GeoInputError, JSON.stringify(b));
  for (const s of ["", "1", "x:y", "90:0", "0:180", "1:2:3"]) await assert.rejects(bySector(s, {}, "a"), GeoInputError);
  await assert.rejects(nearest("a", { size: 2001 }), GeoInputError);
  // A viewer without a position gets an empty nearest list, and box results measured from the box.
  assert.deepEqual(await nearest("nobody"), { items: [], hasMore: false });
  assert.equal((await byBounds({ latMin: 0, lonMin: 0, latMax: 2, lonMax: 2 }, "nobody")).items.length, 1);
});

kvTest("owner only - the reported position is readable by its owner and never in any query result", async () => {
  const rand = rng(8);
  const placed = await placeMembers(300, 48.85, 2.35, 0.1, rand);
  const trueValues = new Set<number>();
  for (const p of placed) {
    trueValues.add(p.lat);
    trueValues.add(p.lon);
    const own = await getOwnPosition(p.id);
    assert.equal(own?.lat, p.lat);
    assert.equal(own?.lon, p.lon);
    assert.equal(own?.overrideLat, p.lat);
    assert.equal(own?.gpsLat, null);
    assert.ok(own && haversineMeters(p.lat, p.lon, own.shownLat, own.shownLon) < 1700);
  }
  // GPS use keeps the override point, and records the GPS time.
  const g = placed[0];
  const own = await reportPosition(g.id, { lat: g.lat, lon: g.lon, use: "DEVICE_GPS", hide: false, gpsTimestamp: 123 });
  assert.equal(own.gpsLat, g.lat);
  assert.equal(own.gpsTimestamp, 123);
  assert.equal(own.overrideLat, g.lat);
  const pages: NearbyPage[] = [];
  for (const p of placed.slice(0, 40)) {
    pages.push(await nearest(p.id, { size: 300 }));
    pages.push(await byBounds({ latMin: 48, lonMin: 2, latMax: 49.5, lonMax: 3, size: 300 }, p.id));
    pages.push(await bySector("48:2", { size: 300 }, p.id));
  }
  const byId = new Map(placed.map((p) => [p.id, p]));
  let items = 0;
  for (const page of pages) {
    for (const it of page.items) {
      items++;
      assert.ok(!trueValues.has(it.lat) && !trueValues.has(it.lon), "a reported coordinate leaked");
      const p = byId.get(it.profileId)!;
      assert.ok(it.lat !== p.lat || it.lon !== p.lon);
      assert.deepEqual(Object.keys(it).sort(), ["distanceMeters", "lat", "lon", "profileId", "tsUpdated"]);
    }
  }
  assert.ok(items > 10_000);
  // Nor in a shown record in KV.
  for await (const e of kv().list<{ lat: number; lon: number }>({ prefix: keys.positionsShownAll() })) {
    assert.ok(!trueValues.has(e.value.lat) && !trueValues.has(e.value.lon));
  }
});

kvTest("exclude and filter - blocked and filtered members are left out before paging", async () => {
  const rand = rng(9);
  const placed = await placeMembers(200, 35.68, 139.69, 0.05, rand);
  const viewer = placed[0].id;
  const all = ids(await nearest(viewer, { size: 199 }));
  const exclude = new Set(all.filter((_, i) => i % 3 === 0));
  const filter = (id: string) => id.charCodeAt(id.length - 1) % 2 === 0;
  const expected = all.filter((id) => !exclude.has(id) && filter(id));
  const p0 = await nearest(viewer, { size: 20, exclude, filter });
  const p1 = await nearest(viewer, { page: 1, size: 20, exclude, filter });
  assert.deepEqual([...ids(p0), ...ids(p1)], expected.slice(0, 40));
  const box = await byBounds({ latMin: 35, lonMin: 139, latMax: 36, lonMax: 140, size: 500, exclude, filter }, viewer);
  assert.deepEqual(ids(box), expected);
  const sec = await bySector("35:139", { size: 500, exclude, filter }, viewer);
  const inSector = new Set((await shownOf(expected)).filter((p) => p.sector === "35:139").map((p) => p.profileId));
  assert.ok(inSector.size > 20);
  assert.deepEqual(ids(sec), expected.filter((id) => inSector.has(id)));
});

kvTest("hysteresis - GPS jitter across a cell edge does not move the shown point", async () => {
  // Walk east in 100 m steps and watch how often the shown point changes; then jitter.
  const id = "walker";
  const shownLons = new Set<number>();
  for (let i = 0; i < 60; i++) {
    await reportPosition(id, { lat: 33.45, lon: -112.07 + i * 0.00107, use: "DEVICE_GPS", hide: false });
    shownLons.add((await getShownPosition(id))!.lon);
  }
  // 6.4 km in 1 km cells: about 6 changes, not 60.
  assert.ok(shownLons.size >= 5 && shownLons.size <= 9, String(shownLons.size));
  const last = (await getShownPosition(id))!;
  const rand = rng(10);
  for (let i = 0; i < 200; i++) {
    await reportPosition(id, {
      lat: 33.45 + (rand() - 0.5) * 0.002,
      lon: -112.07 + 59 * 0.00107 + (rand() - 0.5) * 0.002,
      use: "DEVICE_GPS",
      hide: false,
    });
  }
  const after = (await getShownPosition(id))!;
  assert.ok(haversineMeters(last.lat, last.lon, after.lat, after.lon) < 1, "jitter moved the member");
});

kvTest("concurrency - racing reports of one member leave exactly one shown record", async () => {
  const id = "racer";
  await Promise.all(
    Array.from(
      { length: 40 },
      (_, i) => reportPosition(id, { lat: 10 + (i % 5), lon: 20 + (i % 7), use: "OVERRIDE", hide: i % 9 === 8 }),
    ),
  );
  await reportPosition(id, { lat: 12.5, lon: 22.5, use: "OVERRIDE", hide: false });
  const records: Deno.KvKey[] = [];
  for await (const e of kv().list({ prefix: keys.positionsShownAll() })) records.push(e.key);
  assert.equal(records.length, 1);
  const shown = await getShownPosition(id);
  assert.equal(records[0][1], shown?.sector);
  // A fresh index loaded from KV agrees with the live one.
  await reportPosition("other", { lat: 12.5, lon: 22.5, use: "OVERRIDE", hide: false });
  const live = await nearest("other");
  const loaded = await loadPositionIndex();
  assert.equal(loaded.members, 2);
  assert.deepEqual(await nearest("other"), live);
});

kvTest("import - bulk writes are indexed and found like reports", async () => {
  const rand = rng(13);
  const items = Array.from({ length: 1000 }, (_, i) => ({
    profileId: `imp${String(i).padStart(4, "0")}`,
    lat: 41.9 + (rand() - 0.5) * 0.2,
    lon: 12.5 + (rand() - 0.5) * 0.2,
    use: "OVERRIDE" as const,
    hide: i % 10 === 0,
  }));
  assert.equal(await importPositions(items), 1000);
  assert.equal((await nearest("imp0001", { size: 2000 })).items.length, 899);
  await loadPositionIndex();
  assert.equal((await nearest("imp0001", { size: 2000 })).items.length, 899);
  await assert.rejects(importPositions([items[1], items[1]]), GeoInputError);
});
