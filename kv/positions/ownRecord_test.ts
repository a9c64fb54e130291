import assert from "node:assert/strict";
import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { kvTest } from "../../tests/kv.ts";
import { PrivacyGrid, sectorKey, shownPoint } from "../../domain/geo.ts";
import { decodeOwn, encodeOwn } from "./ownRecord.ts";
import { getOwnPosition, nearest, POSITION_TTL_MS, reportPosition } from "./mod.ts";
import type { OwnRecord } from "./types.ts";

const base: OwnRecord = {
  profileId: "0000018f3a2b4c5d6e7f8091a2b3c4d5",
  lat: 33.4484,
  lon: -112.074,
  overrideLat: null,
  overrideLon: null,
  gpsLat: 33.4484,
  gpsLon: -112.074,
  gpsTimestamp: 1_796_000_000_123,
  use: "DEVICE_GPS",
  hide: false,
  shownLat: 33.451234567,
  shownLon: -112.0701234,
  tsUpdated: 1_796_000_000_456,
  tsEffectiveUntil: 1_796_000_000_456 + POSITION_TTL_MS,
  shownTs: 1_796_000_000_000,
  cellMeters: 1000,
  row: 13_187,
  col: -12_345,
  sector: "33:-113",
};

Deno.test("own record - the stored bytes give back every field, each optional point set or null", () => {
  const variants: OwnRecord[] = [
    base,
    { ...base, use: "OVERRIDE", hide: true, overrideLat: -0, overrideLon: 179.999, gpsLat: null, gpsLon: null },
    { ...base, overrideLat: 10, overrideLon: null, gpsLat: null, gpsLon: -180, gpsTimestamp: null },
    { ...base, cellMeters: 1234.5, row: 0, col: 0, sector: "-90:-180", shownLat: -89.9, shownLon: -179.95 },
    { ...base, sector: "é:1" }, // not a sector key the code makes: its text is kept all the same
  ];
  for (const r of variants) {
    const bytes = encodeOwn(r);
    assert.deepEqual(decodeOwn(r.profileId, bytes), r);
    assert.ok(Object.is(decodeOwn(r.profileId, bytes)!.overrideLat, r.overrideLat), "-0 kept");
  }
});

Deno.test("own record - the store holds the record's facts only: no field names, no id, a third of the bytes", () => {
  const bytes = encodeOwn(base);
  const text = new TextDecoder("latin1").decode(bytes);
  for (const name of ["lat", "shown", "gps", "use", "hide", "sector", "DEVICE_GPS", base.profileId]) {
    assert.ok(!text.includes(name), `no "${name}" in the stored value`);
  }
  assert.ok(bytes.length <= 120, `${bytes.length} bytes`);
});

Deno.test("own record - a record stored before as an object is read as it was; anything else is none", () => {
  assert.deepEqual(decodeOwn(base.profileId, { ...base }), base);
  assert.equal(decodeOwn(base.profileId, null), null);
  assert.equal(decodeOwn(base.profileId, "text"), null);
  assert.equal(decodeOwn(base.profileId, new Uint8Array([9, 0, 0])), null);
  assert.equal(decodeOwn(base.profileId, new Uint8Array(10)), null);
});

kvTest(
  "own record - a report stores bytes, and a record stored before as an object is read and written over",
  async () => {
    const own = await reportPosition("m1", { lat: 48.86, lon: 2.34, use: "OVERRIDE", hide: false });
    const stored = (await kv().get(keys.positionOwn("m1"))).value;
    assert.ok(stored instanceof Uint8Array, "stored as bytes");
    assert.deepEqual(await getOwnPosition("m1"), own);

    // A record as the code before this form stored it: the V8-serialized object.
    const secret = "s".repeat(43);
    const grid = new PrivacyGrid(1000, 0.2);
    const t = Date.now();
    const cell = grid.cellOf(48.8566, 2.3522);
    const shown = shownPoint(secret, "m2", grid, cell);
    const old: OwnRecord = {
      ...base,
      profileId: "m2",
      lat: 48.8566,
      lon: 2.3522,
      use: "OVERRIDE",
      overrideLat: 48.8566,
      overrideLon: 2.3522,
      gpsLat: 48.85,
      gpsLon: 2.35,
      gpsTimestamp: t - 5000,
      shownLat: shown.lat,
      shownLon: shown.lon,
      tsUpdated: t,
      tsEffectiveUntil: t + POSITION_TTL_MS,
      shownTs: t,
      row: cell.row,
      col: cell.col,
      sector: sectorKey(shown.lat, shown.lon),
    };
    await kv().set(keys.positionOwn("m2"), old, { expireIn: POSITION_TTL_MS });
    assert.equal((await getOwnPosition("m2"))?.gpsLat, 48.85, "the old form is read");
    // A report without the other point reads the old record for it and keeps it.
    const next = await reportPosition("m2", { lat: 48.857, lon: 2.353, use: "OVERRIDE", hide: false });
    assert.equal(next.gpsLat, 48.85);
    assert.equal(next.gpsTimestamp, t - 5000);
    assert.ok((await kv().get(keys.positionOwn("m2"))).value instanceof Uint8Array, "written over in the new form");
    assert.ok((await nearest("m1", { size: 5 })).items.some((i) => i.profileId === "m2"), "shown to others");
  },
);
