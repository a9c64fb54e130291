import assert from "node:assert/strict";
import fc from "fast-check";
import { EARTH_RADIUS_M, sectorKey } from "../../domain/geo.ts";
import { mulberry32 as rng } from "../random.ts";
import { PositionIndex } from "./memoryIndex.ts";
import type { Region } from "./types.ts";
import { aToMeters, haversineA } from "./geoMath.ts";
import { decodeSnapshot, encodeSnapshot } from "./snapshot.ts";
import { startQuery } from "./search.ts";
import { nearestByRings } from "./rings.ts";

const RAD = Math.PI / 180;

interface Model {
  lat: number;
  lon: number;
  ts: number;
  until: number;
  sector: string;
}

/** What the index must answer, computed over every member (same distance math as the index). */
function bruteForce(
  members: Map<string, Model>,
  lat: number,
  lon: number,
  region: { test: (m: Model, id: string) => boolean },
  need: number,
  t: number,
): string[] {
  const cosQ = Math.cos(lat * RAD), sinQ = Math.sin(lat * RAD);
  const all: [number, string, Model][] = [];
  for (const [id, m] of members) {
    if (m.until <= t || !region.test(m, id)) continue;
    all.push([haversineA(lat, lon, cosQ, sinQ, m.lat, m.lon), id, m]);
  }
  all.sort((x, y) => x[0] - y[0] || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0));
  return all.slice(0, need).map(([a, id, m]) => `${id}@${a}@${m.lat},${m.lon},${m.ts}`);
}

/** The region a nearest query searches, as queries.ts makes it: 1 degree each way of the viewer. */
function nearestRegion(lat: number, lon: number): Region {
  const latMin = Math.max(-90, lat - 1), latMax = Math.min(90, lat + 1), lonMin = lon - 1;
  return {
    latMin,
    latMax,
    lonMin,
    lonMax: lonMin + 2,
    test: (la, lo) => la >= latMin && la <= latMax && ((lo - lonMin) % 360 + 360) % 360 <= 2,
  };
}

function answer(index: PositionIndex, top: { a: number[]; m: number[] }): string[] {
  return top.m.map((s, i) => `${index.idAt(s)}@${top.a[i]}@${index.latAt(s)},${index.lonAt(s)},${index.tsAt(s)}`);
}

/**
 * Random moves, removals, stale changes, quiet writes and expiry in a small area around (lat0,
 * lon0) (cells fill, move and empty); some members sit exactly on cell lines, and some boxes are
 * drawn along them.
 */
function churn(seed: number, n: number, ops: number, spread: number, lat0 = 52.5, lon0 = 13.4) {
  const wrap = (lon: number) => ((lon + 540) % 360) - 180;
  const onCellLine = (x: number) => Math.round(x * 256) / 256;
  const rand = rng(seed);
  let index = new PositionIndex();
  const members = new Map<string, Model>();
  const versions = new Map<string, string>();
  const ids = Array.from({ length: n }, (_, i) => `m${String(i * 7919 % 100_003).padStart(6, "0")}`);
  let v = 0, t = 1000;
  const vs = (back = 0) => String(Math.max(1, v - back)).padStart(20, "0");
  const check = () => {
    assert.equal(index.members.size, members.size);
    for (const id of ids) {
      const m = index.members.get(id), want = members.get(id);
      assert.deepEqual(
        m && [m.lat, m.lon, m.ts, m.until, m.sector],
        want && [want.lat, want.lon, want.ts, want.until, want.sector],
      );
      assert.equal(index.versions.get(id), versions.get(id));
    }
    for (let q = 0; q < 12; q++) {
      const viewer = ids[Math.floor(rand() * n)], self = members.has(viewer) ? viewer : "";
      const lat = lat0 + (rand() - 0.5) * spread * 1.5, lon = wrap(lon0 + (rand() - 0.5) * spread * 1.5);
      const d = rand() * spread, need = 1 + Math.floor(rand() * 400), tq = t + (q % 4 === 0 ? 40 : 0);
      const left = new Set(ids.filter(() => rand() < 0.1));
      const accept = q % 2 ? null : (id: string) => !left.has(id);
      const key = sectorKey(lat, lon), sid = index.sectorId(key);
      const [sLat, sLon] = key.split(":").map(Number);
      // Boxes as byBounds takes them: within [-180, 180] (one across the date line is two).
      const lonLo = Math.max(-180, lon - d), lonHi = Math.min(180, lon + d);
      const bLatMin = Math.max(-90, onCellLine(lat - d)), bLatMax = Math.min(90, onCellLine(lat + d));
      const bLonMin = Math.max(-180, onCellLine(lon - d)), bLonMax = Math.min(180, onCellLine(lon + d));
      const regions: [Region, (m: Model) => boolean][] = [
        [
          {
            latMin: lat - d,
            latMax: lat + d,
            lonMin: lonLo,
            lonMax: lonHi,
            test: (la, lo) => la >= lat - d && la <= lat + d && lo >= lonLo && lo <= lonHi,
          },
          (m) => m.lat >= lat - d && m.lat <= lat + d && m.lon >= lonLo && m.lon <= lonHi,
        ],
        [
          {
            latMin: bLatMin,
            latMax: bLatMax,
            lonMin: bLonMin,
            lonMax: bLonMax,
            test: (la, lo) => la >= bLatMin && la <= bLatMax && lo >= bLonMin && lo <= bLonMax,
          },
          (m) => m.lat >= bLatMin && m.lat <= bLatMax && m.lon >= bLonMin && m.lon <= bLonMax,
        ],
        [
          {
            latMin: sLat,
            latMax: sLat + 1,
            lonMin: sLon,
            lonMax: sLon + 1,
            test: (_a, _o, s) => index.sectorAt(s) === sid,
          },
          (m) => m.sector === key,
        ],
      ];
      for (const [region, test] of regions) {
        const got = answer(index, index.search(lat, lon, region, need, tq, index.slotOf(self), accept));
        const want = bruteForce(
          members,
          lat,
          lon,
          {
            test: (m, id) => test(m) && id !== self && (accept === null || accept(id)),
          },
          need,
          tq,
        );
        assert.deepEqual(got, want);
      }
    }
    const counts = new Map<string, number>();
    for (const m of members.values()) counts.set(m.sector, (counts.get(m.sector) ?? 0) + 1);
    assert.deepEqual(
      new Map([...index.sectors()].map((s) => [s.key, s.count])),
      counts,
    );
  };
  for (let i = 0; i < ops; i++) {
    const id = ids[Math.floor(rand() * n)];
    const r = rand();
    const stale = rand() < 0.05;
    if (!stale) v++;
    const at = vs(stale ? Math.floor(rand() * 40) : 0);
    const seen = versions.get(id);
    const fresh = seen === undefined || seen < at;
    if (r < 0.75) {
      let lat = Math.max(-90, Math.min(90, lat0 + (rand() - 0.5) * spread)), lon = wrap(lon0 + (rand() - 0.5) * spread);
      if (rand() < 0.1) (lat = onCellLine(lat), lon = wrap(onCellLine(lon)));
      // A report time that is not expiry minus a whole number now and then (kept aside by the index).
      const ts = rand() < 0.1 ? t + 0.25 : t;
      const c = { p: id, s: sectorKey(lat, lon), lat, lon, ts, u: t + 20 + Math.floor(rand() * 300) };
      assert.equal(index.apply(c, at), fresh);
      if (fresh) {
        members.set(id, { lat, lon, ts: c.ts, until: c.u, sector: c.s });
        versions.set(id, at);
      }
    } else if (r < 0.85) {
      assert.equal(index.apply({ p: id }, at), fresh);
      if (fresh) {
        members.delete(id);
        versions.set(id, at);
      }
    } else if (r < 0.92) {
      index.purgeExpired(t);
      for (const [id, m] of members) {
        if (m.until <= t) {
          members.delete(id);
          versions.delete(id);
        }
      }
    } else if (r < 0.921) {
      // A snapshot: every member at the snapshot's cursor, removed members' versions gone.
      v++;
      const back = decodeSnapshot(encodeSnapshot(index, vs(), t), t);
      index = back.index;
      versions.clear();
      for (const [id, m] of members) {
        if (m.until <= t) members.delete(id);
        else versions.set(id, vs());
      }
    }
    if (rand() < 0.01) t += 10;
    if (i % 3000 === 0) check();
  }
  check();
}

Deno.test("memory index - random moves, removals, stale changes and expiry answer as brute force does (one cell and many)", () => {
  churn(1, 3000, 30_000, 0.004); // a few crowded cells: ranges grow, move and the arena compacts
  churn(2, 2000, 30_000, 0.1);
  churn(3, 1500, 20_000, 3); // many blocks and sectors
  churn(4, 1500, 20_000, 0.05, -17, 179.99); // across the date line
  churn(5, 1500, 20_000, 0.05, 89.98, 0); // at the pole
});

Deno.test("memory index - columns in any order, expired and repeated rows, give the same index", () => {
  const rand = rng(9);
  const index = new PositionIndex();
  for (let i = 0; i < 2000; i++) {
    const lat = 40 + rand() * 0.05, lon = -74 + rand() * 0.05;
    index.apply({ p: `p${i}`, s: sectorKey(lat, lon), lat, lon, ts: i, u: i < 100 ? 50 : 10_000 + i }, "0001");
  }
  const dump = (x: PositionIndex) =>
    [...x.members.values()].map((m) => `${m.id} ${m.lat} ${m.lon} ${m.ts} ${m.until} ${m.sector}`).sort();
  const live = dump(index).filter((l) => Number(l.split(" ")[4]) > 100);
  const cols = index.toColumns();
  assert.deepEqual(dump(PositionIndex.fromColumns(index.toColumns(), 100, "0002")), live);
  // Rows shuffled out of cell order: member by member, same index.
  const order = Array.from({ length: cols.ids.length }, (_, i) => i).sort(() => rand() - 0.5);
  const shuffled = {
    ids: order.map((i) => cols.ids[i]),
    lat: Float64Array.from(order, (i) => cols.lat[i]),
    lon: Float64Array.from(order, (i) => cols.lon[i]),
    ts: Float64Array.from(order, (i) => cols.ts[i]),
    until: Float64Array.from(order, (i) => cols.until[i]),
    sector: Int32Array.from(order, (i) => cols.sector[i]),
    sectors: cols.sectors,
  };
  const back = PositionIndex.fromColumns(shuffled, 100, "0002");
  assert.deepEqual(dump(back), live);
  assert.equal(back.versions.get("p500"), "0002");
  assert.equal(back.versions.get("p5"), undefined); // expired
  // A repeated id (never written, but read safely): the first row wins, as applying the rows in
  // order at one version does.
  const twice = index.toColumns();
  const [i, j] = [0, 1, 2, 3, 4, 5].filter((k) => twice.until[k] > 100);
  const lost = twice.ids[j]!;
  twice.ids[j] = twice.ids[i];
  const again = PositionIndex.fromColumns(twice, 100, "0002");
  assert.deepEqual(dump(again), live.filter((l) => !l.startsWith(`${lost} `)));
});

Deno.test("memory index - a version 1 snapshot (the text layout) still loads", () => {
  const members = [
    { id: "a", sector: "52:13", lat: 52.1, lon: 13.1, ts: 5, until: 5000 },
    { id: "b", sector: "52:13", lat: 52.2, lon: 13.2, ts: 6, until: 50 },
    { id: "c", sector: "-34:151", lat: -33.9, lon: 151.2, ts: 7, until: 7000 },
  ];
  const n = members.length;
  const header = new TextEncoder().encode(JSON.stringify({ v: 1, cursor: "0009", ts: 1, n }));
  const floats = new Float64Array(4 * n);
  members.forEach((m, i) => {
    floats[i] = m.lat;
    floats[n + i] = m.lon;
    floats[2 * n + i] = m.ts;
    floats[3 * n + i] = m.until;
  });
  const text = new TextEncoder().encode(members.flatMap((m) => [m.id, m.sector, ""]).join("\n"));
  const at = Math.ceil((4 + header.byteLength) / 8) * 8;
  const bytes = new Uint8Array(at + floats.byteLength + text.byteLength);
  new DataView(bytes.buffer).setUint32(0, header.byteLength, true);
  bytes.set(header, 4);
  bytes.set(new Uint8Array(floats.buffer), at);
  bytes.set(text, at + floats.byteLength);
  const { index, cursor } = decodeSnapshot(bytes, 100);
  assert.equal(cursor, "0009");
  assert.deepEqual([...index.members.keys()].sort(), ["a", "c"]);
  const c = index.members.get("c")!;
  assert.deepEqual([c.lat, c.lon, c.ts, c.until, c.sector], [-33.9, 151.2, 7, 7000, "-34:151"]);
  assert.equal(index.versions.get("a"), "0009");
});

Deno.test("memory index - its distance math agrees with the textbook haversine (near, far, poles, date line)", () => {
  const rand = rng(7);
  const textbook = (lat1: number, lon1: number, lat2: number, lon2: number) => {
    const s1 = Math.sin((lat2 - lat1) * RAD / 2), s2 = Math.sin((lon2 - lon1) * RAD / 2);
    const a = s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
    return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
  };
  let worst = 0;
  for (let i = 0; i < 200_000; i++) {
    const lat1 = (rand() - 0.5) * 178, lon1 = (rand() - 0.5) * 360;
    // Mostly a map view's distances, then a country's, then the whole earth; some across the date line.
    const spread = i % 4 === 0 ? 180 : i % 4 === 1 ? 5 : i % 4 === 2 ? 0.5 : 0.01;
    const lat2 = Math.max(-90, Math.min(90, lat1 + (rand() - 0.5) * spread));
    let lon2 = lon1 + (rand() - 0.5) * spread * 2;
    if (lon2 >= 180) lon2 -= 360;
    if (lon2 < -180) lon2 += 360;
    const want = textbook(lat1, lon1, lat2, lon2);
    const got = aToMeters(haversineA(lat1, lon1, Math.cos(lat1 * RAD), Math.sin(lat1 * RAD), lat2, lon2));
    // Within a micrometre, or a part in 10^12 of the distance.
    const err = Math.abs(got - want) / Math.max(1, want);
    if (err > worst) worst = err;
  }
  assert.ok(worst < 1e-12, `worst relative error ${worst}`);
  assert.equal(aToMeters(haversineA(52.5, 13.4, Math.cos(52.5 * RAD), Math.sin(52.5 * RAD), 52.5, 13.4)), 0);
});

Deno.test("memory index - nearest in a 2° area around a dense city and a few far members answers as brute force does", () => {
  // Most members packed in one city (many occupied blocks, each close), a few spread over the
  // area: the search walks rings near the viewer and takes the far blocks from the map.
  const rand = rng(7);
  const index = new PositionIndex();
  const members = new Map<string, Model>();
  let v = 0;
  const add = (id: string, lat: number, lon: number) => {
    const c = { p: id, s: sectorKey(lat, lon), lat, lon, ts: 1000, u: 10_000 };
    index.apply(c, String(++v).padStart(20, "0"));
    members.set(id, { lat, lon, ts: 1000, until: 10_000, sector: c.s });
  };
  for (let i = 0; i < 6000; i++) add(`c${i}`, 40.7 + (rand() - 0.5) * 0.3, -74 + (rand() - 0.5) * 0.3);
  for (let i = 0; i < 60; i++) add(`f${i}`, 40.7 + (rand() - 0.5) * 2, -74 + (rand() - 0.5) * 2);
  for (let q = 0; q < 40; q++) {
    // Viewers in the city, at its edge and out in the area; 30 nearest, and more than the city holds nearby.
    const spread = q < 20 ? 0.3 : 1.8;
    const lat = 40.7 + (rand() - 0.5) * spread, lon = -74 + (rand() - 0.5) * spread;
    const need = q % 5 === 0 ? 2000 : 31;
    const region = nearestRegion(lat, lon);
    const got = answer(index, index.search(lat, lon, region, need, 2000, -1, null));
    const want = bruteForce(members, lat, lon, { test: (m) => region.test(m.lat, m.lon, 0) }, need, 2000);
    assert.deepEqual(got, want);
  }
});

Deno.test("memory index - the rings' nearest answers as brute force does: random points, poles, the date line, ties", () => {
  // Places where the grid or the earth has an edge, and anywhere.
  const place = fc.oneof(
    fc.record({
      lat: fc.double({ min: -89, max: 89, noNaN: true }),
      lon: fc.double({ min: -180, max: 179.999, noNaN: true }),
    }),
    fc.record({
      lat: fc.double({ min: 89.9, max: 90, noNaN: true }),
      lon: fc.double({ min: -180, max: 179.999, noNaN: true }),
    }),
    fc.record({
      lat: fc.double({ min: -90, max: -89.9, noNaN: true }),
      lon: fc.double({ min: -180, max: 179.999, noNaN: true }),
    }),
    fc.record({
      lat: fc.double({ min: -60, max: 60, noNaN: true }),
      lon: fc.constantFrom(-180, 179.999, 179.99, -179.99),
    }),
  );
  let byRings = 0, runs = 0;
  fc.assert(
    fc.property(
      fc.record({
        at: place,
        // A crowded city's cells (rings of cells), a town's blocks (rings of blocks), a region's (best-first).
        spread: fc.constantFrom(0.001, 0.004, 0.02, 0.1, 0.6),
        n: fc.integer({ min: 0, max: 400 }),
        need: fc.oneof(fc.constant(31), fc.integer({ min: 1, max: 80 })),
        seed: fc.integer(),
        viewerIsMember: fc.boolean(),
        filtered: fc.boolean(),
      }),
      ({ at, spread, n, need, seed, viewerIsMember, filtered }) => {
        const rand = rng(seed);
        const wrap = (lon: number) => ((lon + 540) % 360 + 360) % 360 - 180;
        const clampLat = (lat: number) => Math.max(-90, Math.min(90, lat));
        const index = new PositionIndex();
        const members = new Map<string, Model>();
        const t = 5000;
        let v = 0;
        const add = (id: string, lat: number, lon: number, until: number) => {
          lon = wrap(lon);
          const c = { p: id, s: sectorKey(lat, lon), lat, lon, ts: 1000, u: until };
          index.apply(c, String(++v).padStart(20, "0"));
          members.set(id, { lat, lon, ts: 1000, until, sector: c.s });
        };
        for (let i = 0; i < n; i++) {
          const id = `m${String(Math.floor(rand() * 1e6)).padStart(6, "0")}-${i}`;
          const r = rand(), until = rand() < 0.05 ? t : t + 1000; // some expired at the query
          if (r < 0.1 && i > 0) {
            // A tie: the same point as an earlier member, or its mirror across the viewer's meridian.
            const other = members.get([...members.keys()][Math.floor(rand() * members.size)])!;
            add(id, other.lat, r < 0.05 ? other.lon : 2 * at.lon - other.lon, until);
          } else if (r < 0.15) {
            add(
              id,
              clampLat(at.lat + Math.round((rand() - 0.5) * 8) / 256),
              at.lon + Math.round((rand() - 0.5) * 8) / 256,
              until,
            );
          } else {
            add(id, clampLat(at.lat + (rand() - 0.5) * spread), at.lon + (rand() - 0.5) * spread * 2, until);
          }
        }
        const ids = [...members.keys()];
        const viewer = viewerIsMember && ids.length > 0 ? ids[Math.floor(rand() * ids.length)] : "";
        const self = viewer === "" ? -1 : index.slotOf(viewer);
        const from = self >= 0 ? members.get(viewer)! : { lat: at.lat, lon: wrap(at.lon) };
        const left = new Set(ids.filter(() => filtered && rand() < 0.2));
        const accept = filtered ? (id: string) => !left.has(id) : null;
        const region = nearestRegion(from.lat, from.lon);
        const want = bruteForce(
          members,
          from.lat,
          from.lon,
          { test: (m, id) => region.test(m.lat, m.lon, 0) && id !== viewer && (accept === null || accept(id)) },
          need,
          t,
        );
        const rings = nearestByRings(startQuery(index.view(), from.lat, from.lon, region, need, t, self, accept));
        runs++;
        if (rings !== null) {
          byRings++;
          assert.deepEqual(answer(index, rings), want);
        }
        assert.deepEqual(answer(index, index.search(from.lat, from.lon, region, need, t, self, accept)), want);
      },
    ),
    { numRuns: 400 },
  );
  // The rings answered a good share (the rest gave way to the best-first search, checked as well).
  assert.ok(byRings > runs / 4, `${byRings} of ${runs} answered by the rings`);
});

Deno.test("memory index - rings of cells read through their blocks answer as brute force does: every cell of a block, a box's edge near the viewer", () => {
  // A crowded area (rings of cells) around a viewer in any of a block's 16 cells, sometimes with a
  // box's edge a few cells away (cells and blocks across it, members on both sides).
  let byRings = 0, runs = 0;
  fc.assert(
    fc.property(
      fc.record({
        cellRow: fc.integer({ min: 0, max: 3 }),
        cellCol: fc.integer({ min: 0, max: 3 }),
        baseLat: fc.double({ min: -60, max: 60, noNaN: true }),
        baseLon: fc.oneof(fc.double({ min: -179, max: 179, noNaN: true }), fc.constantFrom(-180, 179.99)),
        spread: fc.constantFrom(0.005, 0.01, 0.03),
        n: fc.integer({ min: 40, max: 500 }),
        need: fc.oneof(fc.constant(31), fc.integer({ min: 1, max: 60 })),
        edge: fc.option(fc.record({ side: fc.integer({ min: 0, max: 3 }), cells: fc.integer({ min: 0, max: 14 }) })),
        seed: fc.integer(),
      }),
      ({ cellRow, cellCol, baseLat, baseLon, spread, n, need, edge, seed }) => {
        const rand = rng(seed);
        const wrap = (lon: number) => ((lon + 540) % 360 + 360) % 360 - 180;
        // The viewer inside cell (cellRow, cellCol) of its block (blocks are 4 x 4 cells of 1/256 degree).
        const cell = 1 / 256, block = 4 * cell;
        const lat = Math.floor(baseLat / block) * block + (cellRow + rand()) * cell;
        const lon = wrap(Math.floor(baseLon / block) * block + (cellCol + rand()) * cell);
        const index = new PositionIndex();
        const members = new Map<string, Model>();
        const t = 5000;
        for (let i = 0; i < n; i++) {
          const id = `m${String(Math.floor(rand() * 1e6)).padStart(6, "0")}-${i}`;
          const mLat = lat + (rand() - 0.5) * spread, mLon = wrap(lon + (rand() - 0.5) * spread * 2);
          const until = rand() < 0.05 ? t : t + 1000;
          index.apply(
            { p: id, s: sectorKey(mLat, mLon), lat: mLat, lon: mLon, ts: 1000, u: until },
            String(i + 1).padStart(20, "0"),
          );
          members.set(id, { lat: mLat, lon: mLon, ts: 1000, until, sector: sectorKey(mLat, mLon) });
        }
        let region = nearestRegion(lat, lon);
        if (edge) {
          // A box of half a degree with one edge `cells` cells from the viewer.
          const d = edge.cells * cell + cell / 3;
          const latMin = edge.side === 0 ? lat - d : lat - 0.5, latMax = edge.side === 1 ? lat + d : lat + 0.5;
          const lonMin = edge.side === 2 ? lon - d : lon - 0.5, lonMax = edge.side === 3 ? lon + d : lon + 0.5;
          region = {
            latMin,
            latMax,
            lonMin,
            lonMax,
            test: (la, lo) => la >= latMin && la <= latMax && ((lo - lonMin) % 360 + 360) % 360 <= lonMax - lonMin,
          };
        }
        const want = bruteForce(members, lat, lon, { test: (m) => region.test(m.lat, m.lon, 0) }, need, t);
        const rings = nearestByRings(startQuery(index.view(), lat, lon, region, need, t, -1, null));
        runs++;
        if (rings !== null) {
          byRings++;
          assert.deepEqual(answer(index, rings), want);
        }
        assert.deepEqual(answer(index, index.search(lat, lon, region, need, t, -1, null)), want);
      },
    ),
    { numRuns: 300 },
  );
  assert.ok(byRings > runs / 2, `${byRings} of ${runs} answered by the rings`);
});
