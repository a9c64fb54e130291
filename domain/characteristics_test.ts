import assert from "node:assert/strict";
import {
  CHARACTERISTIC_CATEGORIES,
  CHARACTERISTIC_VALUES,
  characteristicLabel,
  cleanCharacteristics,
  hasAllCharacteristics,
} from "./characteristics.ts";

Deno.test("characteristics - the seven categories of spec §3, 44 lowercase values, none repeated", () => {
  assert.deepEqual(CHARACTERISTIC_CATEGORIES.map((c) => c.name), [
    "Meet",
    "Positions",
    "Safety",
    "Body",
    "Community",
    "Interests",
    "Kink",
  ]);
  const all = CHARACTERISTIC_CATEGORIES.flatMap((c) => c.items.map((i) => i.value));
  assert.equal(all.length, 44);
  assert.equal(CHARACTERISTIC_VALUES.size, 44);
  for (const v of all) assert.equal(v, v.toLowerCase());
  assert.equal(characteristicLabel("prep"), "PrEP");
  assert.equal(characteristicLabel("hiv+"), "Hiv+");
});

Deno.test("characteristics - clean lowercases, trims and de-duplicates; unknown values are named", () => {
  assert.deepEqual(cleanCharacteristics([" Top", "PREP", "top", "Vax+"]), {
    values: ["top", "prep", "vax+"],
    unknown: [],
  });
  assert.deepEqual(cleanCharacteristics(["top", "unicorn", ""]), { values: ["top"], unknown: ["unicorn", ""] });
});

Deno.test("characteristics - a filter requires every selected value", () => {
  assert.equal(hasAllCharacteristics(["top", "bear"], []), true);
  assert.equal(hasAllCharacteristics(["top", "bear"], ["bear"]), true);
  assert.equal(hasAllCharacteristics(["top", "bear"], ["bear", "oral"]), false);
});
