import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import {
  assertLatLon,
  GeoInputError,
  haversineMeters,
  METERS_PER_DEGREE,
  normalizeLon,
  parseSectorKey,
  PrivacyGrid,
  sectorBounds,
  sectorKey,
  shownPoint,
} from "./geo.ts";
import { mulberry32 as rng } from "../kv/random.ts";

Deno.test("haversine - known distances", () => {
  assert.ok(Math.abs(haversineMeters(0, 0, 1, 0) - METERS_PER_DEGREE) < 1e-6);
  assert.ok(Math.abs(haversineMeters(0, 0, 0, 180) - Math.PI * 6_371_008.8) < 1e-3);
  // Phoenix to Los Angeles, about 574 km.
  const d = haversineMeters(33.4484, -112.074, 34.0522, -118.2437);
  assert.ok(d > 570_000 && d < 578_000, String(d));
  // Across the date line the short way.
  assert.ok(haversineMeters(0, 179.99, 0, -179.99) < 2300);
  assert.equal(haversineMeters(12.3, 45.6, 12.3, 45.6), 0);
});

Deno.test("sectors - floor of each coordinate, parse and bounds round-trip", () => {
  assert.equal(sectorKey(33.45, -112.07), "33:-113");
  assert.equal(sectorKey(-0.5, 0.5), "-1:0");
  assert.equal(sectorKey(0, -0), "0:0");
  assert.equal(sectorKey(90, 180), "89:-180");
  assert.equal(sectorKey(-90, -180), "-90:-180");
  assert.deepEqual(parseSectorKey("33:-113"), { lat: 33, lon: -113 });
  assert.deepEqual(sectorBounds("-1:0"), { latMin: -1, lonMin: 0, latMax: 0, lonMax: 1 });
  for (
    const bad of ["", "33", "33:", "a:b", "33:-112:1", "90:0", "-91:0", "0:180", "0:-181", "1.5:2", " 1:2"]
  ) {
    assert.throws(() => parseSectorKey(bad), GeoInputError, bad);
  }
});

Deno.test("coordinates - validation and longitude wrapping", () => {
  assertLatLon(90, -180);
  for (
    const [lat, lon] of [[NaN, 0], [0, Infinity], [91, 0], [0, 180.0001], ["1", 2], [null, 0]]
  ) {
    assert.throws(() => assertLatLon(lat, lon), GeoInputError);
  }
  assert.equal(normalizeLon(180), -180);
  assert.equal(normalizeLon(190), -170);
  assert.equal(normalizeLon(-190), 170);
  assert.equal(normalizeLon(540), -180);
  assert.equal(normalizeLon(12.5), 12.5);
});

Deno.test("grid - cells are about 1 km square in metres at every latitude", () => {
  const g = new PrivacyGrid(1000);
  for (const lat of [0, 10, 33.45, 52.5, 64.1, 78]) {
    const c = g.cellOf(lat, 10);
    const b = g.bounds(c);
    const h = haversineMeters(b.latMin, 10, b.latMax, 10);
    const mid = (b.latMin + b.latMax) / 2;
    const w = haversineMeters(mid, b.lonMin, mid, b.lonMax);
    assert.ok(Math.abs(h - 1000) < 1, `height ${h} at ${lat}`);
    assert.ok(Math.abs(w - 1000) < 10, `width ${w} at ${lat}`);
  }
});

Deno.test("grid - every point lies in its cell, including edges, poles and the date line", () => {
  const g = new PrivacyGrid(1000);
  const r = rng(1);
  const pts: [number, number][] = [[90, 0], [-90, 0], [0, -180], [0, 180], [89.9999, 179.9999], [45, 0]];
  for (let i = 0; i < 5000; i++) pts.push([r() * 180 - 90, r() * 360 - 180]);
  for (const [lat, lon] of pts) {
    const c = g.cellOf(lat, lon);
    assert.ok(c.row >= 0 && c.row < g.rows && c.col >= 0 && c.col < g.colsInRow(c.row));
    assert.ok(g.contains(c, lat, lon), `${lat},${lon}`);
  }
  // The cell west of the date line and its margin reach across it.
  const west = g.cellOf(0, -179.9999);
  assert.equal(west.col, 0);
  assert.ok(g.contains(west, 0, 179.9999, 0.2));
  assert.ok(!g.contains(west, 0, 179.9999, 0));
});

Deno.test("shown point - HMAC-SHA256 of the member and cell, as stored points were made (node:crypto beside it)", () => {
  const g = new PrivacyGrid(1000);
  for (
    const [secret, id, lat, lon] of [
      ["s1", "alice", 33.45, -112.07],
      ["a longer secret of the store", "0123456789abcdef0123456789ab", -33.87, 151.21],
      [new TextEncoder().encode("bytes"), "m1", 64.1, -21.9],
    ] as const
  ) {
    const cell = g.cellOf(lat, lon);
    const key = typeof secret === "string" ? new TextEncoder().encode(secret) : secret;
    const mac = createHmac("sha256", key).update(`shown-v1|1000|${cell.row}|${cell.col}|${id}`).digest();
    const b = g.bounds(cell);
    const expected = {
      lat: b.latMin + mac.readUInt32BE(0) / 2 ** 32 * (b.latMax - b.latMin),
      lon: normalizeLon(b.lonMin + mac.readUInt32BE(4) / 2 ** 32 * (b.lonMax - b.lonMin)),
    };
    assert.deepEqual(shownPoint(secret, id, g, cell), expected);
  }
});

Deno.test("shown point - inside the cell, fixed per member and cell, different per member and secret", () => {
  const g = new PrivacyGrid(1000);
  const cell = g.cellOf(33.45, -112.07);
  const b = g.bounds(cell);
  const a1 = shownPoint("s1", "alice", g, cell);
  assert.deepEqual(shownPoint("s1", "alice", g, cell), a1);
  assert.notDeepEqual(shownPoint("s1", "bob", g, cell), a1);
  assert.notDeepEqual(shownPoint("s2", "alice", g, cell), a1);
  let sumU = 0, sumV = 0;
  const n = 2000;
  for (let i = 0; i < n; i++) {
    const p = shownPoint("s1", "m" + i, g, cell);
    assert.ok(
      p.lat >= b.latMin && p.lat < b.latMax && p.lon >= b.lonMin &&
        p.lon < b.lonMax,
    );
    sumU += (p.lat - b.latMin) / (b.latMax - b.latMin);
    sumV += (p.lon - b.lonMin) / (b.lonMax - b.lonMin);
  }
  // Spread over the whole cell, not piled in a corner or the centre.
  assert.ok(Math.abs(sumU / n - 0.5) < 0.03 && Math.abs(sumV / n - 0.5) < 0.03);
});

Deno.test("hysteresis - a member changes cell only when clearly inside the new one", () => {
  const g = new PrivacyGrid(1000, 0.2);
  const start = g.cellOf(33.45, -112.07);
  const b = g.bounds(start);
  const w = b.lonMax - b.lonMin;
  const lat = (b.latMin + b.latMax) / 2;
  // 10 % of a cell past the east edge: still the old cell.
  assert.deepEqual(g.next(start, lat, b.lonMax + 0.1 * w), start);
  // 25 % past: the new cell.
  const moved = g.next(start, lat, b.lonMax + 0.25 * w);
  assert.deepEqual(moved, { row: start.row, col: start.col + 1 });
  // Jitter of ±15 % around the edge never flips the cell, from either side.
  let cur = start;
  const r = rng(7);
  for (let i = 0; i < 500; i++) {
    cur = g.next(cur, lat, b.lonMax + (r() - 0.5) * 0.3 * w);
    assert.deepEqual(cur, start);
  }
  cur = moved;
  for (let i = 0; i < 500; i++) {
    cur = g.next(cur, lat, b.lonMax + (r() - 0.5) * 0.3 * w);
    assert.deepEqual(cur, moved);
  }
  // North edge likewise; no previous cell means the point's own cell.
  assert.deepEqual(g.next(start, b.latMax + 0.1 * g.rowDeg, -112.07), start);
  assert.equal(g.next(start, b.latMax + 0.3 * g.rowDeg, -112.07).row, start.row + 1);
  assert.deepEqual(g.next(null, lat, b.lonMax + 0.01 * w), g.cellOf(lat, b.lonMax + 0.01 * w));
  // A stale cell from another grid is ignored.
  assert.deepEqual(g.next({ row: -1, col: 0 }, lat, -112.07), g.cellOf(lat, -112.07));
});
