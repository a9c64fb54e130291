import assert from "node:assert/strict";
import { atRiskAt, atRiskNear, countryAt, CRIMINALISING_COUNTRIES, SHOWN_POINT_REACH_M } from "./safety.ts";
import { METERS_PER_DEGREE } from "./geo.ts";

Deno.test("safety - the offline lookup finds the country of a point; the list holds alpha-2 codes", async () => {
  assert.equal(await countryAt(-1.2864, 36.8172), "KE");
  assert.equal(await countryAt(33.4484, -112.074), "US");
  assert.equal(await countryAt(25.2048, 55.2708), "AE");
  assert.equal(await countryAt(40, -40), null, "the open Atlantic");
  for (const c of CRIMINALISING_COUNTRIES) assert.match(c, /^[A-Z]{2}$/);
});

Deno.test("safety - a point where same-sex relations are criminalised is at risk; elsewhere not", async () => {
  assert.equal(await atRiskAt(-1.2864, 36.8172), true, "Nairobi");
  assert.equal(await atRiskAt(25.2048, 55.2708), true, "Dubai");
  assert.equal(await atRiskAt(33.4484, -112.074), false, "Phoenix");
  assert.equal(await atRiskAt(-22.5609, 17.0658), false, "Windhoek: Namibia decriminalised in 2024");
  assert.equal(await atRiskAt(40, -40), false, "at sea");
});

Deno.test("safety - a shown point far from every country at risk says so; near one, or across the date line, it cannot", async () => {
  assert.equal(await atRiskNear(33.4484, -112.074), false, "Phoenix");
  assert.equal(await atRiskNear(51.5072, -0.1276), false, "London");
  assert.equal(await atRiskNear(-1.2864, 36.8172), true, "Nairobi");
  assert.equal(await atRiskAt(6.55, 2.66), false, "Benin, a few km from Nigeria, is not at risk itself");
  assert.equal(await atRiskNear(6.55, 2.66), true, "but a true point a cell away may be in Nigeria");
  assert.equal(await atRiskNear(-16.5, 179.99), true, "the box would cross the date line");
  assert.equal(await atRiskNear(88, 0), true, "near a pole");
  assert.equal(await atRiskNear(7, 2.5), false, "Benin, some 20 km from Nigeria");
  assert.equal(await atRiskNear(7, 2.5, 100_000), true, "with cells of about 80 km, Nigeria is within reach");
  // Where it says no, no point within its reach is at risk (a grid of points over the box).
  for (const [lat, lon] of [[33.4484, -112.074], [40.7, -74], [32.08, 34.78], [7, 2.5], [-22.5609, 17.0658]]) {
    if (await atRiskNear(lat, lon)) continue;
    const dLat = SHOWN_POINT_REACH_M / METERS_PER_DEGREE, dLon = dLat / Math.cos(lat * Math.PI / 180);
    for (let i = -10; i <= 10; i++) {
      for (let j = -10; j <= 10; j++) {
        assert.equal(
          await atRiskAt(lat + dLat * i / 10, lon + dLon * j / 10),
          false,
          `${lat + dLat * i / 10},${lon + dLon * j / 10}`,
        );
      }
    }
  }
});
