import assert from "node:assert/strict";
import fc from "fast-check";
import { briefJson, briefsPageJson, type ProfileBrief } from "./briefs.ts";

const brief = fc.record({
  profileId: fc.stringMatching(/^[a-z0-9]{8,20}$/),
  profileName: fc.string(),
  profileAge: fc.option(fc.integer({ min: 18, max: 99 })),
  profileChars: fc.array(fc.constantFrom("top", "bottom", "bear", "otter")),
  profileWeight: fc.string(),
  profileHeight: fc.string(),
  profilePicIds: fc.array(fc.stringMatching(/^[a-z0-9]{6}$/)),
  lat: fc.double({ min: -90, max: 90, noNaN: true }),
  lon: fc.double({ min: -180, max: 180, noNaN: true }),
  distanceMeters: fc.option(fc.double({ min: 0, max: 2e7, noNaN: true })),
  tsUpdated: fc.integer({ min: 0, max: 2 ** 45 }),
  isNew: fc.boolean(),
  verified: fc.boolean(),
}) as fc.Arbitrary<ProfileBrief>;

Deno.test("briefsPageJson - the same text as JSON.stringify, for any page, twice (the second from the kept parts)", () => {
  fc.assert(
    fc.property(
      fc.array(brief, { maxLength: 30 }),
      fc.nat(),
      fc.boolean(),
      fc.boolean(),
      (items, page, hasMore, near) => {
        const p = { items, page, size: 30, hasMore, ...(near ? { nearbyOnly: true as const } : {}) };
        assert.equal(briefsPageJson(p), JSON.stringify(p));
        assert.equal(briefsPageJson(p), JSON.stringify(p));
      },
    ),
  );
});

Deno.test("briefJson - a member whose profile changed (new name, new pictures, turned verified) is written anew", () => {
  const b: ProfileBrief = {
    profileId: "m1",
    profileName: "Sam",
    profileAge: 30,
    profileChars: ["top"],
    profileWeight: "70 kg",
    profileHeight: "180 cm",
    profilePicIds: ["p1"],
    lat: 40.7,
    lon: -74,
    distanceMeters: 120.5,
    tsUpdated: 1,
    isNew: false,
    verified: false,
  };
  assert.equal(briefJson(b), JSON.stringify(b));
  for (
    const changed of [
      { ...b, profileName: "Sam R." },
      { ...b, profilePicIds: ["p2", "p1"] },
      { ...b, verified: true },
      { ...b, lat: 40.8, distanceMeters: null },
    ]
  ) assert.equal(briefJson(changed), JSON.stringify(changed));
});
