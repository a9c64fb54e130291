import assert from "node:assert/strict";
import { heightText, parseHeight, parseWeight, weightText } from "./measures.ts";
import { withLocale } from "./i18n.ts";

Deno.test("measures - typed heights and weights read in every usual way", () => {
  assert.equal(parseHeight("181 cm"), 181);
  assert.equal(parseHeight("1,81 m"), 181);
  assert.equal(parseHeight("1.81m"), 181);
  assert.equal(Math.round(parseHeight("6'1\"")!), 185);
  assert.equal(Math.round(parseHeight("6′1″")!), 185);
  assert.equal(Math.round(parseHeight("6 ft 1 in")!), 185);
  assert.equal(Math.round(parseHeight("6'")!), 183);
  assert.equal(Math.round(parseHeight("73 in")!), 185);
  assert.equal(parseHeight("tall"), null);
  assert.equal(parseHeight("9 m"), null);
  assert.equal(parseWeight("80 kg"), 80);
  assert.equal(Math.round(parseWeight("116 lb")!), 53);
  assert.equal(Math.round(parseWeight("255 lbs")!), 116);
  assert.equal(parseWeight("heavy"), null);
});

Deno.test("measures - a profile's height and weight in one system, the reader's", () => {
  // "Height 181 cm · Weight 116 lb" no more: both in the reader's system.
  assert.equal(heightText("181 cm", "imperial"), "5'11\"");
  assert.equal(weightText("116 lb", "imperial"), "116 lb");
  assert.equal(heightText("181 cm", "metric"), "181 cm");
  assert.equal(weightText("255 lb", "metric"), "116 kg");
  assert.equal(heightText("6'1\"", "metric"), "185 cm");
  // Words that read as no measure are shown as typed.
  assert.equal(heightText("average", "metric"), "average");
});

Deno.test("measures - the language picks the system: English imperial, the others metric", () => {
  assert.equal(withLocale("en", () => weightText("80 kg")), "176 lb");
  assert.match(withLocale("fr", () => weightText("176 lb")), /^80\skg$/);
  assert.equal(withLocale("ar", () => heightText("6'1\"")), withLocale("ar", () => heightText("185 cm")));
});
