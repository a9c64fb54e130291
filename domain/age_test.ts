import assert from "node:assert/strict";
import { ageOf, latestAdultBirthdate, normalizeBirthdate } from "./age.ts";

Deno.test("age - whole years on the UTC calendar; birthdates are checked as dates", () => {
  const at = Date.UTC(2026, 5, 15, 12);
  assert.equal(ageOf("1996-06-15", at), 30);
  assert.equal(ageOf("1996-06-16", at), 29);
  assert.equal(ageOf("2000-02-29", Date.UTC(2026, 1, 28)), 25);
  assert.equal(ageOf("2000-02-29", Date.UTC(2026, 2, 1)), 26);
  assert.equal(ageOf("", at), null);
  assert.deepEqual(normalizeBirthdate("not a date", at), { ok: true, birthdate: "2026-06-15" });
  assert.deepEqual(normalizeBirthdate("1996/06/15", at), { ok: true, birthdate: "2026-06-15" });
  assert.deepEqual(normalizeBirthdate(" 1996-06-15 ", at), { ok: true, birthdate: "1996-06-15" });
  assert.deepEqual(normalizeBirthdate("1996-6-15", at), { ok: false, reason: "invalid" });
  assert.deepEqual(normalizeBirthdate("2026-06-16", at), { ok: false, reason: "invalid" });
  assert.deepEqual(normalizeBirthdate("1899-12-31", at), { ok: false, reason: "invalid" });
});

Deno.test("age - 18+ means 18+: a birthdate under 18 years is refused, the 18th birthday is accepted", () => {
  const at = Date.UTC(2026, 5, 15, 12);
  assert.deepEqual(normalizeBirthdate("2020-01-01", at), { ok: false, reason: "under_age" });
  assert.deepEqual(normalizeBirthdate("2008-06-16", at), { ok: false, reason: "under_age" });
  assert.deepEqual(normalizeBirthdate("2008-06-15", at), { ok: true, birthdate: "2008-06-15" });
  // Born on 29 February: 18 on 1 March of a common year.
  assert.equal(latestAdultBirthdate(Date.UTC(2026, 1, 28)), "2008-02-28");
  assert.equal(latestAdultBirthdate(Date.UTC(2028, 1, 29)), "2010-02-28");
  assert.equal(latestAdultBirthdate(Date.UTC(2026, 2, 1)), "2008-03-01");
});

Deno.test("age - no age is shown under 18 (the spec's garbage-becomes-today case), never 0", () => {
  const at = Date.UTC(2026, 5, 15, 12);
  assert.equal(ageOf("2026-06-15", at), null);
  assert.equal(ageOf("2008-06-16", at), null);
  assert.equal(ageOf("2008-06-15", at), 18);
});

Deno.test("age - the same birthdate asked on different days, back and forth, is each day's age (kept per day)", () => {
  const before = Date.UTC(2026, 5, 14, 23, 59), on = Date.UTC(2026, 5, 15, 0, 0);
  for (let i = 0; i < 3; i++) {
    assert.equal(ageOf("1996-06-15", before), 29);
    assert.equal(ageOf("1996-06-15", before), 29);
    assert.equal(ageOf("1996-06-15", on), 30);
    assert.equal(ageOf("not-a-date", on), null);
  }
});
