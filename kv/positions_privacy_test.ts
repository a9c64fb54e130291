/**
 * An attacker with spoofed positions and unlimited queries tries to locate members (design.md,
 * "Location privacy": Grindr members were located to 15 m this way). The attacker reports its
 * own position before each probe, as a real client would, and uses everything the API gives:
 * the shown coordinates, every distance (least squares), box edges (bisection with byBounds), the
 * order of results (binary search with a second, sybil account), and knowledge of the public grid.
 */
import assert from "node:assert/strict";
import { closeKv, openKv } from "./db.ts";
import { haversineMeters, METERS_PER_DEGREE, PrivacyGrid } from "../domain/geo.ts";
import { byBounds, bySector, type NearbyPage, nearest, reportPosition } from "./positions/mod.ts";
import { mulberry32 as rng } from "./random.ts";

interface Pt {
  lat: number;
  lon: number;
}

const CITIES: Pt[] = [
  { lat: 33.4484, lon: -112.074 }, // Phoenix
  { lat: 52.52, lon: 13.405 }, // Berlin
  { lat: -33.8688, lon: 151.2093 }, // Sydney
  { lat: -0.1807, lon: -78.4678 }, // Quito
  { lat: 64.1466, lon: -21.9426 }, // Reykjavik
  { lat: 35.6762, lon: 139.6503 }, // Tokyo
];
const VICTIMS_PER_CITY = 6;
const CROWD_PER_CITY = 120;

/** Offsets in metres east/north of a point, as a point. */
function offset(p: Pt, east: number, north: number): Pt {
  return {
    lat: p.lat + north / METERS_PER_DEGREE,
    lon: p.lon + east / (METERS_PER_DEGREE * Math.cos(p.lat * Math.PI / 180)),
  };
}

/** Least squares on distances: the point x minimising sum (|x - anchor_i| - d_i)^2 (Gauss-Newton). */
function trilaterate(anchors: Pt[], dists: number[], start: Pt): Pt {
  const cos0 = Math.cos(start.lat * Math.PI / 180);
  const toXY = (p: Pt) => [(p.lon - start.lon) * METERS_PER_DEGREE * cos0, (p.lat - start.lat) * METERS_PER_DEGREE];
  const a = anchors.map(toXY);
  let x = 0, y = 0;
  for (let iter = 0; iter < 50; iter++) {
    let jtj00 = 0, jtj01 = 0, jtj11 = 0, jtr0 = 0, jtr1 = 0;
    for (let i = 0; i < a.length; i++) {
      const dx = x - a[i][0], dy = y - a[i][1];
      const r = Math.hypot(dx, dy) || 1e-9;
      const res = r - dists[i];
      const j0 = dx / r, j1 = dy / r;
      jtj00 += j0 * j0;
      jtj01 += j0 * j1;
      jtj11 += j1 * j1;
      jtr0 += j0 * res;
      jtr1 += j1 * res;
    }
    const det = jtj00 * jtj11 - jtj01 * jtj01;
    if (Math.abs(det) < 1e-12) break;
    const sx = (jtj11 * jtr0 - jtj01 * jtr1) / det;
    const sy = (jtj00 * jtr1 - jtj01 * jtr0) / det;
    x -= sx;
    y -= sy;
    if (Math.hypot(sx, sy) < 0.01) break;
  }
  return { lat: start.lat + y / METERS_PER_DEGREE, lon: start.lon + x / (METERS_PER_DEGREE * cos0) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

Deno.test("privacy - an attacker with thousands of spoofed probes cannot place members closer than 300 m (median)", async () => {
  await openKv(":memory:");
  try {
    const rand = rng(2024);
    const trueCoords = new Set<number>();
    const report = async (id: string, p: Pt) => {
      trueCoords.add(p.lat);
      trueCoords.add(p.lon);
      await reportPosition(id, { lat: p.lat, lon: p.lon, use: "DEVICE_GPS", hide: false });
    };
    // A crowd and the victims, at random points around each city.
    const victims: { id: string; at: Pt }[] = [];
    for (const [c, city] of CITIES.entries()) {
      for (let i = 0; i < CROWD_PER_CITY; i++) {
        await report(`crowd-${c}-${i}`, offset(city, (rand() - 0.5) * 16_000, (rand() - 0.5) * 16_000));
      }
      for (let i = 0; i < VICTIMS_PER_CITY; i++) {
        const at = offset(city, (rand() - 0.5) * 8000, (rand() - 0.5) * 8000);
        victims.push({ id: `victim-${c}-${i}`, at });
        await report(`victim-${c}-${i}`, at);
      }
    }

    const responses: NearbyPage[] = [];
    let probes = 0, queries = 0;
    const attacker = "attacker", sybil = "sybil";
    const attackerAt = async (p: Pt) => {
      probes++;
      await report(attacker, p);
    };
    const find = (page: NearbyPage, id: string) => page.items.find((i) => i.profileId === id);
    const ask = async (q: () => Promise<NearbyPage>) => {
      queries++;
      const page = await q();
      responses.push(page);
      return page;
    };

    const grid = new PrivacyGrid(); // the grid is public: the attacker knows it
    const errors: Record<string, number[]> = {
      "shown coordinates": [],
      "least squares, spoofed anchors": [],
      "least squares, attacker's shown anchors": [],
      "byBounds bisection": [],
      "ordering binary search (sybil)": [],
      "grid-aware: centre of the shown cell": [],
    };

    for (const v of victims) {
      // The attacker starts somewhere in the city and finds the victim in nearest.
      const city = CITIES[Number(v.id.split("-")[1])];
      await attackerAt(offset(city, (rand() - 0.5) * 4000, (rand() - 0.5) * 4000));
      const first = find(await ask(() => nearest(attacker, { size: 1000 })), v.id);
      assert.ok(first, "the victim is visible");
      const shown: Pt = { lat: first.lat, lon: first.lon };
      errors["shown coordinates"].push(haversineMeters(shown.lat, shown.lon, v.at.lat, v.at.lon));

      // 1. Distances from many spoofed positions, from all three queries, and least squares.
      const spoofed: Pt[] = [], selfShown: Pt[] = [], dists: number[] = [];
      for (let i = 0; i < 40; i++) {
        const angle = rand() * 2 * Math.PI, r = 200 + rand() * 3000;
        const p = offset(shown, r * Math.cos(angle), r * Math.sin(angle));
        await attackerAt(p);
        const q = i % 3 === 0
          ? await ask(() => nearest(attacker, { size: 1000 }))
          : i % 3 === 1
          ? await ask(() =>
            byBounds({
              latMin: shown.lat - 0.1,
              lonMin: shown.lon - 0.1,
              latMax: shown.lat + 0.1,
              lonMax: shown.lon + 0.1,
              size: 2000,
            }, attacker)
          )
          : await ask(() => bySector(`${Math.floor(shown.lat)}:${Math.floor(shown.lon)}`, { size: 2000 }, attacker));
        const hit = find(q, v.id);
        if (!hit) continue;
        // The sybil (a second account of the attacker, parked nearby) sees where the attacker is shown.
        await reportPosition(sybil, { lat: p.lat, lon: p.lon + 0.001, use: "OVERRIDE", hide: false });
        const me = find(await ask(() => nearest(sybil, { size: 1000 })), attacker);
        assert.ok(me);
        spoofed.push(p);
        selfShown.push({ lat: me.lat, lon: me.lon });
        dists.push(hit.distanceMeters);
      }
      const ls1 = trilaterate(spoofed, dists, shown);
      const ls2 = trilaterate(selfShown, dists, shown);
      errors["least squares, spoofed anchors"].push(haversineMeters(ls1.lat, ls1.lon, v.at.lat, v.at.lon));
      errors["least squares, attacker's shown anchors"].push(haversineMeters(ls2.lat, ls2.lon, v.at.lat, v.at.lon));

      // 2. Bisection of the box edges: the smallest box that still holds the victim.
      await attackerAt(offset(shown, 500, 500));
      const inBox = async (latMin: number, latMax: number, lonMin: number, lonMax: number) =>
        find(await ask(() => byBounds({ latMin, latMax, lonMin, lonMax, size: 2000 }, attacker)), v.id) !== undefined;
      let lo = shown.lat - 0.05, hi = shown.lat + 0.05;
      for (let i = 0; i < 24; i++) {
        const mid = (lo + hi) / 2;
        if (await inBox(shown.lat - 0.05, mid, shown.lon - 0.05, shown.lon + 0.05)) hi = mid;
        else lo = mid;
      }
      const bisLat = hi;
      lo = shown.lon - 0.05, hi = shown.lon + 0.05;
      for (let i = 0; i < 24; i++) {
        const mid = (lo + hi) / 2;
        if (await inBox(shown.lat - 0.05, shown.lat + 0.05, shown.lon - 0.05, mid)) hi = mid;
        else lo = mid;
      }
      errors["byBounds bisection"].push(haversineMeters(bisLat, hi, v.at.lat, v.at.lon));

      // 3. Ordering: from three anchors, move the sybil along a line until it swaps places with the
      // victim in the attacker's list; the sybil's distance then equals the victim's.
      const anchors: Pt[] = [], radii: number[] = [];
      for (let j = 0; j < 3; j++) {
        const angle = j * 2 * Math.PI / 3 + rand();
        const a = offset(shown, 2000 * Math.cos(angle), 2000 * Math.sin(angle));
        await attackerAt(a);
        let rLo = 0, rHi = 4000;
        for (let i = 0; i < 12; i++) {
          const r = (rLo + rHi) / 2;
          // Unit step from the anchor towards the victim's shown point.
          const de = -Math.cos(angle), dn = -Math.sin(angle);
          await reportPosition(sybil, { ...offset(a, r * de, r * dn), use: "OVERRIDE", hide: false });
          probes++;
          const list = (await ask(() => nearest(attacker, { size: 1000 }))).items.map((i) => i.profileId);
          if (list.indexOf(sybil) < list.indexOf(v.id)) rLo = r;
          else rHi = r;
        }
        anchors.push(a);
        radii.push((rLo + rHi) / 2);
      }
      const ord = trilaterate(anchors, radii, shown);
      errors["ordering binary search (sybil)"].push(haversineMeters(ord.lat, ord.lon, v.at.lat, v.at.lon));

      // 4. Knowing the grid: the centre of the cell the victim is shown in.
      const centre = grid.center(grid.cellOf(shown.lat, shown.lon));
      errors["grid-aware: centre of the shown cell"].push(haversineMeters(centre.lat, centre.lon, v.at.lat, v.at.lon));
    }

    // No response ever carried a reported coordinate of anybody.
    let items = 0;
    for (const page of responses) {
      for (const it of page.items) {
        items++;
        assert.ok(
          !trueCoords.has(it.lat) && !trueCoords.has(it.lon),
          `a reported coordinate of ${it.profileId} leaked`,
        );
      }
    }

    const rows = Object.entries(errors).map(([name, e]) => ({
      name,
      median: median(e),
      p10: [...e].sort((a, b) => a - b)[Math.floor(e.length / 10)],
      min: Math.min(...e),
    }));
    const best = victims.map((_, i) => Math.min(...Object.values(errors).map((e) => e[i])));
    console.log(
      `\n${victims.length} victims, ${probes} spoofed attacker positions, ${queries} queries, ${items} result items\n` +
        rows.map((r) =>
          `  ${r.name.padEnd(42)} median ${r.median.toFixed(0).padStart(4)} m  p10 ${
            r.p10.toFixed(0).padStart(4)
          } m  min ${r.min.toFixed(0).padStart(4)} m`
        ).join("\n") +
        `\n  ${"(hindsight: best strategy per victim)".padEnd(42)} median ${median(best).toFixed(0).padStart(4)} m`,
    );
    assert.ok(probes >= 1000, `only ${probes} probes`);
    for (const r of rows) assert.ok(r.median >= 300, `${r.name}: median error ${r.median.toFixed(0)} m < 300 m`);
  } finally {
    closeKv();
  }
});
