import assert from "node:assert/strict";
import { atRiskAt, countryAt, CRIMINALISING_COUNTRIES } from "./safety.ts";

Deno.test("safety - the offline lookup finds the country of a point; the list holds alpha-2 codes", () => {
  assert.equal(countryAt(-1.2864, 36.8172), "KE");
  assert.equal(countryAt(33.4484, -112.074), "US");
  assert.equal(countryAt(25.2048, 55.2708), "AE");
  assert.equal(countryAt(40, -40), null, "the open Atlantic");
  for (const c of CRIMINALISING_COUNTRIES) assert.match(c, /^[A-Z]{2}$/);
});

Deno.test("safety - a point where same-sex relations are criminalised is at risk; elsewhere not", () => {
  assert.equal(atRiskAt(-1.2864, 36.8172), true, "Nairobi");
  assert.equal(atRiskAt(25.2048, 55.2708), true, "Dubai");
  assert.equal(atRiskAt(33.4484, -112.074), false, "Phoenix");
  assert.equal(atRiskAt(-22.5609, 17.0658), false, "Windhoek: Namibia decriminalised in 2024");
  assert.equal(atRiskAt(40, -40), false, "at sea");
});
