import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile, updateProfile } from "../../kv/profiles.ts";
import { importPositions } from "../../kv/positions/mod.ts";
import { createAccount } from "../../kv/accounts.ts";
import { MAP_PROFILE_CAP, type ProfileBrief } from "../../domain/shapes/briefs.ts";
import { sectorKey } from "../../domain/geo.ts";
import { BRIEF_KEYS, ids, neighbourhood, PHX, place, STEP } from "../../tests/fixtures/positionsApi.ts";

Deno.test("positions - by-bounds: default size 500, the box edges, a box across the date line is empty", async () => {
  const t = await testApp();
  try {
    const viewer = await t.member();
    await place(t, viewer, 10, 179.5);
    const east = await t.member();
    await place(t, east, 10, 179.8);
    const west = await t.member();
    await place(t, west, 10, -179.8);
    const q = (box: string) => t.call("GET", `/api/profile-briefs/by-bounds?${box}`, { cookie: viewer.cookie });
    const all = await q("latMin=9&lonMin=179&latMax=11&lonMax=180");
    assert.equal(all.status, 200);
    assert.equal(all.data.size, 500);
    assert.deepEqual(ids(all), [east.profileId]);
    const across = await q("latMin=9&lonMin=179&latMax=11&lonMax=-179");
    assert.equal(across.status, 200);
    assert.deepEqual(across.data, { items: [], page: 0, size: 500, hasMore: false });
    const westSide = await q("latMin=9&lonMin=-180&latMax=11&lonMax=-179");
    assert.deepEqual(ids(westSide), [west.profileId]);
    // Members further than ±1 degree still show in a box that holds them.
    const far = await q("latMin=-90&lonMin=-180&latMax=90&lonMax=180&size=800");
    assert.deepEqual(ids(far).sort(), [east.profileId, west.profileId].sort());
  } finally {
    t.close();
  }
});

Deno.test("positions - by-bounds with form=rows: the same page, each member a row of the named fields, in fewer bytes", async () => {
  const t = await testApp();
  try {
    const { viewer, others } = await neighbourhood(t, 4);
    await updateProfile(others[1].profileId, { characteristics: ["top", "oral"], birthdate: "1990-01-01" });
    const box = "latMin=33&lonMin=-113&latMax=34&lonMax=-111";
    for (const extra of ["", "&size=2&page=1", "&chars=top"]) {
      const objects = await t.call("GET", `/api/profile-briefs/by-bounds?${box}${extra}`, { cookie: viewer.cookie });
      const rows = await t.call("GET", `/api/profile-briefs/by-bounds?${box}${extra}&form=rows`, {
        cookie: viewer.cookie,
      });
      assert.equal(rows.status, 200, rows.text);
      const { fields, rows: got, ...rest } = rows.data;
      const { items, ...page } = objects.data;
      assert.deepEqual(rest, page, extra);
      assert.deepEqual([...fields].sort(), BRIEF_KEYS);
      assert.ok(items.length > 0, extra);
      // Each row, read by the field names, is the member's brief.
      assert.deepEqual(
        got.map((row: unknown[]) => Object.fromEntries(fields.map((f: string, i: number) => [f, row[i]]))),
        items,
        extra,
      );
      // The names once instead of once a member: fewer bytes from a few members on.
      if (items.length >= 4) assert.ok(rows.text.length < objects.text.length, "fewer bytes");
    }
  } finally {
    t.close();
  }
});

Deno.test("positions - the map's view: the by-bounds members as marker rows, filtered, none past the profile cap", async () => {
  const t = await testApp();
  try {
    const { viewer, others } = await neighbourhood(t, 3);
    await updateProfile(others[1].profileId, { characteristics: ["oral"] });
    // One member with public pictures, the first verified: a marker shows that picture and the badge.
    const pictured = (await getProfile(others[2].profileId))!;
    await kv().set(keys.profile(pictured.id), {
      ...pictured,
      profilePicIds: ["pubA", "pubB"],
      profilePicIdsPrivate: ["secret"],
      verifiedPicIds: ["pubA"],
    });
    const box = "latMin=33&lonMin=-113&latMax=34&lonMax=-111";
    const view = (q: string) => t.call("GET", `/api/profile-briefs/map?${q}`, { cookie: viewer.cookie });
    const r = await view(box);
    assert.equal(r.status, 200, r.text);
    assert.equal(r.data.tooMany, false);
    // The same members, in the same order, as the spec's by-bounds call at the cap's size.
    const spec = await t.call("GET", `/api/profile-briefs/by-bounds?${box}&size=${MAP_PROFILE_CAP}`, {
      cookie: viewer.cookie,
    });
    assert.deepEqual(ids(r), ids(spec));
    assert.deepEqual(ids(r), others.map((m) => m.profileId));
    assert.deepEqual(r.data.rows[2].slice(4), ["pubA", [], true]);
    // Each row is what the member's brief shows on a marker.
    assert.deepEqual(
      r.data.rows,
      spec.data.items.map((b: ProfileBrief) => [
        b.profileId,
        b.profileName,
        b.lat,
        b.lon,
        b.profilePicIds[0] ?? null,
        b.profileChars,
        b.verified,
      ]),
    );
    assert.deepEqual(ids(await view(`${box}&chars=oral`)), [others[1].profileId]);
    for (
      const bad of ["latMin=34&lonMin=-113&latMax=33&lonMax=-111", "latMin=33&lonMin=-113&latMax=34", `${box}&age=5-9`]
    ) {
      const b = await view(bad);
      assert.equal(b.status, 400, bad);
      assert.equal(typeof b.data.error.message, "string");
    }
    assert.equal((await t.call("GET", `/api/profile-briefs/map?${box}`)).status, 401);

    // At the cap, the map shows no one: no rows are sent.
    const crowd: string[] = [];
    for (let i = 0; i < MAP_PROFILE_CAP; i++) {
      crowd.push((await createAccount({ email: `crowd${i}@test.invalid`, name: `Crowd ${i}` }))!.defaultProfileId);
    }
    await importPositions(crowd.map((profileId, i) => ({
      profileId,
      lat: PHX.lat + 0.2 + (i % 40) * 0.005,
      lon: PHX.lon + 0.2 + Math.floor(i / 40) * 0.005,
      use: "OVERRIDE" as const,
      hide: false,
    })));
    assert.deepEqual((await view(box)).data, { rows: [], tooMany: true });
    // A filter that few in the crowd pass shows them.
    assert.deepEqual(await view(`${box}&chars=oral`).then((r) => [r.data.tooMany, ids(r)]), [false, [
      others[1].profileId,
    ]]);
    // A box that holds fewer still shows them.
    assert.deepEqual(
      ids(await view("latMin=33&lonMin=-112.1&latMax=33.5&lonMax=-111.8")),
      others.map((m) => m.profileId),
    );
  } finally {
    t.close();
  }
});

Deno.test("positions - by-sector lists one 1-degree sector nearest first; aggregates count per sector", async () => {
  const t = await testApp();
  try {
    const { viewer, others } = await neighbourhood(t, 3);
    const far = await t.member();
    await place(t, far, 40.7, -73.6);
    const sector = sectorKey(PHX.lat, PHX.lon + STEP);
    const r = await t.call("GET", `/api/profile-briefs/by-sector/${sector}?page=0&size=1500`, {
      cookie: viewer.cookie,
    });
    assert.equal(r.status, 200, r.text);
    const inSector = others.filter((_, i) => sectorKey(PHX.lat, PHX.lon + (i + 1) * STEP) === sector);
    assert.deepEqual(ids(r), inSector.map((m) => m.profileId));
    assert.equal(r.data.size, 1500);
    const ny = await t.call("GET", "/api/profile-briefs/by-sector/40:-74", { cookie: viewer.cookie });
    assert.deepEqual(ids(ny), [far.profileId]);
    assert.ok(ny.data.items[0].distanceMeters > 3_000_000, "measured from the viewer");

    const agg = await t.call("GET", "/api/profile-positions/aggregates", { cookie: viewer.cookie });
    assert.equal(agg.status, 200);
    for (const a of agg.data) {
      assert.deepEqual(Object.keys(a).sort(), ["centerLat", "centerLon", "count", "deltaLat", "deltaLon", "tsUpdated"]);
    }
    const nyCell = agg.data.find((a: { centerLat: number; centerLon: number }) =>
      a.centerLat === 40.5 && a.centerLon === -73.5
    );
    assert.equal(nyCell?.count, 1);
    assert.equal(agg.data.reduce((s: number, x: { count: number }) => s + x.count, 0), 5);
  } finally {
    t.close();
  }
});

Deno.test("positions - more heavy views at once than take a turn together: each answers as it does when asked alone", async () => {
  const t = await testApp();
  try {
    const { viewer, others } = await neighbourhood(t, 3);
    const box = "latMin=33&lonMin=-113&latMax=34&lonMax=-111";
    const paths = [
      `/api/profile-briefs/map?${box}`,
      `/api/profile-briefs/by-bounds?${box}`,
      "/api/profile-briefs/nearest?size=500",
      "/api/profile-briefs/nearest",
    ];
    const alone: unknown[] = [];
    for (const path of paths) alone.push((await t.call("GET", path, { cookie: viewer.cookie })).data);
    assert.deepEqual(ids({ data: alone[0] as { rows: [string][] } }), others.map((m) => m.profileId));
    // More heavy views than take a turn at once, with light ones among them.
    const together = await Promise.all(
      Array.from({ length: 24 }, (_, i) => t.call("GET", paths[i % paths.length], { cookie: viewer.cookie })),
    );
    together.forEach((r, i) => {
      assert.equal(r.status, 200, r.text);
      assert.deepEqual(r.data, alone[i % paths.length], paths[i % paths.length]);
    });
  } finally {
    t.close();
  }
});
