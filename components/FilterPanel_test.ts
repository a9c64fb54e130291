import assert from "node:assert/strict";
import { renderToString } from "react-dom/server";
import {
  type BriefFilter,
  cleanFilter,
  filterCount,
  FilterPanel,
  filterParams,
  LIKE_FILTERS,
  NO_FILTER,
} from "./FilterPanel.tsx";
import { CHARACTERISTIC_CATEGORIES } from "../domain/characteristics.ts";

Deno.test("filterParams - sorted comma lists, empty ones left out", () => {
  assert.equal(filterParams(NO_FILTER).toString(), "");
  assert.equal(
    filterParams({ chars: ["top", "bear"], likes: ["iLikedPics", "likedMyProfile"] }).toString(),
    "chars=bear%2Ctop&likes=iLikedPics%2ClikedMyProfile",
  );
  assert.equal(filterParams({ chars: [], likes: ["iLikedProfile"] }).toString(), "likes=iLikedProfile");
});

Deno.test("cleanFilter - keeps strings once, drops unknown like filters and junk", () => {
  assert.deepEqual(cleanFilter({ chars: ["top", "top", 3, "bear"], likes: ["iLikedPics", "nope"] }), {
    chars: ["top", "bear"],
    likes: ["iLikedPics"],
  });
  assert.deepEqual(cleanFilter(null), NO_FILTER);
  assert.deepEqual(cleanFilter("x"), NO_FILTER);
  assert.deepEqual(cleanFilter({ chars: "top" }), NO_FILTER);
});

Deno.test("filterCount - characteristics and like filters together", () => {
  assert.equal(filterCount({ chars: ["a", "b"], likes: ["likedMyPics"] }), 3);
});

Deno.test("FilterPanel - the four like filters and every characteristic category, ticked as given", () => {
  const html = renderToString(FilterPanel({ value: { chars: ["prep"], likes: ["likedMyPics"] }, onChange: () => {} }));
  for (const l of LIKE_FILTERS) assert.ok(html.includes(l.label), l.label);
  assert.deepEqual(LIKE_FILTERS.map((l) => l.label), [
    "Liked my Profile",
    "Liked my Pics",
    "I liked their Profile",
    "I liked their Pics",
  ]);
  for (const c of CHARACTERISTIC_CATEGORIES) assert.ok(html.includes(`<legend>${c.name}</legend>`), c.name);
  assert.equal([...html.matchAll(/checked=""/g)].length, 2);
  assert.match(html, /<span class="filter-count" aria-label="2 on">2<\/span>/);
});

Deno.test("filterParams and cleanFilter - age range, distance and the toggles", () => {
  const f: BriefFilter = { chars: [], likes: [], ageMin: 25, ageMax: 40, km: 5, toggles: ["pics", "online"] };
  assert.equal(filterParams(f).toString(), "age=25-40&km=5&online=1&pics=1");
  assert.equal(filterParams({ chars: [], likes: [], ageMax: 30 }).toString(), "age=-30");
  assert.equal(filterCount(f), 4);
  assert.deepEqual(cleanFilter({ chars: [], likes: [], ageMin: 17, ageMax: 40, km: 3, toggles: ["online", "x"] }), {
    chars: [],
    likes: [],
    ageMax: 40,
    toggles: ["online"],
  });
});
