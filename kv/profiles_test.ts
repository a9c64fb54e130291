import assert from "node:assert/strict";
import { ageOf, normalizeBirthdate } from "./profiles.ts";

Deno.test("profiles - age counts whole years on the UTC calendar; birthdates are checked as dates", () => {
  const at = Date.UTC(2026, 5, 15, 12);
  assert.equal(ageOf("1996-06-15", at), 30);
  assert.equal(ageOf("1996-06-16", at), 29);
  assert.equal(ageOf("2000-02-29", Date.UTC(2026, 1, 28)), 25);
  assert.equal(ageOf("2000-02-29", Date.UTC(2026, 2, 1)), 26);
  assert.equal(ageOf("", at), null);
  assert.equal(normalizeBirthdate("not a date", at), "2026-06-15");
  assert.equal(normalizeBirthdate("1996/06/15", at), "2026-06-15");
  assert.equal(normalizeBirthdate(" 1996-06-15 ", at), "1996-06-15");
  assert.equal(normalizeBirthdate("1996-6-15", at), null);
  assert.equal(normalizeBirthdate("2026-06-16", at), null);
  assert.equal(normalizeBirthdate("1899-12-31", at), null);
});
