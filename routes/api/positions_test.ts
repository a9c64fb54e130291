import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile, updateProfile } from "../../kv/profiles.ts";
import { putPicLike, putProfileLike } from "../../kv/likes.ts";
import { getShownPosition, POSITION_TTL_MS } from "../../kv/positions/mod.ts";
import { shiftClock } from "../../kv/clock.ts";
import { sectorKey } from "../../domain/geo.ts";
import { LIMITS } from "../../kv/ratelimit.ts";
import {
  BRIEF_KEYS,
  ids,
  type Member,
  neighbourhood,
  PHX,
  place,
  put,
  relogin,
  STEP,
} from "../../tests/fixtures/positionsApi.ts";

Deno.test("positions - PUT stores the own position and answers the owner's record; 401, 403 and 400 otherwise", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    const b = await t.member();
    const own = await place(t, a, PHX.lat, PHX.lon);
    assert.equal(own.profileId, a.profileId);
    assert.equal(own.lat, PHX.lat);
    assert.equal(own.use, "OVERRIDE");
    assert.equal(own.hide, false);
    assert.ok(own.tsEffectiveUntil - own.tsUpdated === POSITION_TTL_MS, "valid 26 h");
    // The spec's `session`: the member, logged in, and the point reported; no token anywhere in the answer.
    assert.deepEqual(own.session, { profileId: a.profileId, loggedIn: true, lat: PHX.lat, lon: PHX.lon });
    const token = a.cookie.split("=")[1];
    assert.ok(token.length > 10);
    const answer = await put(t, a, { overrideLat: PHX.lat, overrideLon: PHX.lon, use: "OVERRIDE" });
    assert.ok(!answer.text.includes(token), "the session's token is not in the answer");

    const gps = await put(t, a, { gpsLat: 33.5, gpsLon: -112.1, gpsTimestamp: Date.now(), use: "DEVICE_GPS" });
    assert.equal(gps.status, 200, gps.text);
    assert.equal(gps.data.use, "DEVICE_GPS");
    assert.equal(gps.data.gpsLat, 33.5);
    assert.equal(gps.data.overrideLat, PHX.lat, "the override is kept");
    assert.deepEqual(gps.data.session, { profileId: a.profileId, loggedIn: true, lat: 33.5, lon: -112.1 });

    const back = await t.call("GET", `/api/profile-position/${a.profileId}`, { cookie: a.cookie });
    assert.deepEqual(back.data, gps.data, "the owner reads their own record back");
    const notYet = await t.call("GET", `/api/profile-position/${b.profileId}`, { cookie: b.cookie });
    assert.equal(notYet.status, 404);
    const peek = await t.call("GET", `/api/profile-position/${a.profileId}`, { cookie: b.cookie });
    assert.equal(peek.status, 403, "nobody reads another member's reported position");

    const other = await put(t, a, { overrideLat: 1, overrideLon: 1, use: "OVERRIDE" }, b.profileId);
    assert.equal(other.status, 403);
    assert.equal(other.data.error.code, "forbidden");
    const nobody = await t.call("PUT", `/api/profile-position/${a.profileId}`, {
      json: { overrideLat: 1, overrideLon: 1, use: "OVERRIDE" },
    });
    assert.equal(nobody.status, 401);

    for (
      const bad of [
        { overrideLat: 91, overrideLon: 0, use: "OVERRIDE" },
        { overrideLat: 0, overrideLon: -180.5, use: "OVERRIDE" },
        { overrideLat: "33", overrideLon: 0, use: "OVERRIDE" },
        { overrideLon: 0, use: "OVERRIDE" },
        { overrideLat: 0, overrideLon: 0, use: "DEVICE_GPS" },
        { overrideLat: 0, overrideLon: 0, use: "RANDOM" },
        { overrideLat: 0, overrideLon: 0, use: "OVERRIDE", hide: "yes" },
        { overrideLat: 0, overrideLon: 0, use: "OVERRIDE", profileId: b.profileId },
      ]
    ) {
      const r = await put(t, a, bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.equal(r.data.error.code, "bad_request");
    }
    const notJson = await t.call("PUT", `/api/profile-position/${a.profileId}`, {
      cookie: a.cookie,
      body: "lat=1",
      headers: { "content-type": "application/json" },
    });
    assert.equal(notJson.status, 400);
    assert.equal(await getShownPosition(b.profileId), null, "nothing stored for b");
  } finally {
    t.close();
  }
});

Deno.test("positions - nearest: the contract shape, sorted by distance, the caller left out", async () => {
  const t = await testApp();
  try {
    const { viewer, others } = await neighbourhood(t, 4);
    await updateProfile(others[0].profileId, {
      birthdate: "1990-01-01",
      height: "180 cm",
      weight: "75 kg",
      characteristics: ["top"],
    });
    const p = (await getProfile(others[0].profileId))!;
    await kv().set(keys.profile(p.id), { ...p, profilePicIds: ["pubA", "pubB"], profilePicIdsPrivate: ["secret"] });

    const r = await t.call("GET", "/api/profile-briefs/nearest", { cookie: viewer.cookie });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(Object.keys(r.data).sort(), ["hasMore", "items", "page", "size"]);
    assert.equal(r.data.page, 0);
    assert.equal(r.data.size, 30);
    assert.equal(r.data.hasMore, false);
    assert.deepEqual(ids(r), others.map((m) => m.profileId));
    for (const b of r.data.items) assert.deepEqual(Object.keys(b).sort(), BRIEF_KEYS);
    const first = r.data.items[0];
    assert.equal(typeof first.profileName, "string");
    assert.ok(first.profileAge >= 30);
    assert.deepEqual(first.profileChars, ["top"]);
    assert.equal(first.profileHeight, "180 cm");
    assert.equal(first.profileWeight, "75 kg");
    assert.deepEqual(first.profilePicIds, ["pubA", "pubB"], "public pictures only");
    assert.equal(r.data.items[1].profileAge, null, "no birthdate, no age");
    const d = r.data.items.map((b: { distanceMeters: number }) => b.distanceMeters);
    assert.deepEqual(d, [...d].sort((x, y) => x - y));
    assert.ok(d[0] > 3000 && d[0] < 8000, `first about 5.6 km away, got ${d[0]}`);
  } finally {
    t.close();
  }
});

Deno.test("positions - nearest: pages of a size, hasMore, and a caller without a position gets nothing", async () => {
  const t = await testApp();
  try {
    const { viewer, others } = await neighbourhood(t, 5);
    const want = others.map((m) => m.profileId);
    const got: string[] = [];
    for (let page = 0; page < 3; page++) {
      const r = await t.call("GET", `/api/profile-briefs/nearest?page=${page}&size=2`, { cookie: viewer.cookie });
      assert.equal(r.status, 200);
      assert.equal(r.data.page, page);
      assert.equal(r.data.size, 2);
      assert.equal(r.data.hasMore, page < 2);
      got.push(...ids(r));
    }
    assert.deepEqual(got, want);
    const past = await t.call("GET", "/api/profile-briefs/nearest?page=9&size=2", { cookie: viewer.cookie });
    assert.deepEqual([past.data.items.length, past.data.hasMore], [0, false]);

    const newcomer = await t.member();
    const r = await t.call("GET", "/api/profile-briefs/nearest", { cookie: newcomer.cookie });
    assert.equal(r.status, 200);
    assert.deepEqual(r.data, { items: [], page: 0, size: 30, hasMore: false });
  } finally {
    t.close();
  }
});

Deno.test("positions - the attribute filter needs every selected characteristic; paging stays exact", async () => {
  const t = await testApp();
  try {
    const { viewer, others } = await neighbourhood(t, 6);
    const chars = [["top", "bottom"], ["top"], ["top", "bottom", "oral"], [], ["bottom"], ["bottom", "top"]];
    for (const [i, m] of others.entries()) await updateProfile(m.profileId, { characteristics: chars[i] });
    const both = [0, 2, 5].map((i) => others[i].profileId);

    const r = await t.call("GET", "/api/profile-briefs/nearest?chars=top,bottom", { cookie: viewer.cookie });
    assert.deepEqual(ids(r), both);
    const upper = await t.call("GET", "/api/profile-briefs/nearest?chars=TOP,Bottom", { cookie: viewer.cookie });
    assert.deepEqual(ids(upper), both, "values are matched lowercase");
    const p1 = await t.call("GET", "/api/profile-briefs/nearest?chars=top,bottom&page=1&size=2", {
      cookie: viewer.cookie,
    });
    assert.deepEqual([ids(p1), p1.data.hasMore], [[both[2]], false]);
    const p0 = await t.call("GET", "/api/profile-briefs/nearest?chars=top,bottom&size=2", { cookie: viewer.cookie });
    assert.deepEqual([ids(p0), p0.data.hasMore], [both.slice(0, 2), true]);
    const bounds = await t.call(
      "GET",
      `/api/profile-briefs/by-bounds?latMin=33&lonMin=-113&latMax=34&lonMax=-111&chars=oral`,
      { cookie: viewer.cookie },
    );
    assert.deepEqual(ids(bounds), [others[2].profileId]);
    const bad = await t.call("GET", "/api/profile-briefs/nearest?chars=top,nonsense", { cookie: viewer.cookie });
    assert.equal(bad.status, 400);
    assert.match(bad.data.error.message, /nonsense/);
  } finally {
    t.close();
  }
});

Deno.test("positions - age range, distance, online now and with pictures filter the briefs", async () => {
  const t = await testApp();
  try {
    const { viewer, others } = await neighbourhood(t, 5);
    const born = ["2000-01-01", "1990-01-01", "1980-01-01", "1970-01-01", "1995-06-01"];
    for (const [i, m] of others.entries()) await updateProfile(m.profileId, { birthdate: born[i] });
    const get = (q: string) => t.call("GET", `/api/profile-briefs/nearest?${q}`, { cookie: viewer.cookie });
    const age = (b: { profileAge: number | null }) => b.profileAge!;
    const r = await get("age=25-40");
    assert.equal(r.status, 200, r.text);
    assert.ok(
      r.data.items.length > 0 && r.data.items.every((b: { profileAge: number }) => age(b) >= 25 && age(b) <= 40),
    );
    assert.deepEqual(ids(await get("age=50-")), [others[3].profileId]);
    // Members 1..5 steps (about 5.6 km each) east: within 12 km, the first two.
    assert.deepEqual(ids(await get("km=12")), others.slice(0, 2).map((m) => m.profileId));
    assert.deepEqual(ids(await get("pics=1")), [], "nobody has a picture");
    await kv().set(keys.presence(others[4].profileId), Date.now());
    assert.deepEqual(ids(await get("online=1")), [others[4].profileId]);
    for (const bad of ["age=12-40", "age=abc", "km=-1", "online=yes"]) {
      assert.equal((await get(bad)).status, 400, bad);
    }
  } finally {
    t.close();
  }
});

Deno.test("positions - the four like filters, each and combined", async () => {
  const t = await testApp();
  try {
    const { viewer: v, others: [a, b, c, d] } = await neighbourhood(t, 4);
    await putProfileLike(a.profileId, v.profileId, "LIKE"); // a liked my profile
    await putPicLike(b.profileId, v.profileId, "vpic", "LIKE"); // b liked my pic
    await putProfileLike(v.profileId, c.profileId, "LIKE"); // I liked c's profile
    await putProfileLike(v.profileId, a.profileId, "LIKE"); // and a's: a is mutual
    await putPicLike(v.profileId, d.profileId, "dpic", "LIKE"); // I liked d's pic
    await putProfileLike(v.profileId, b.profileId, "DISLIKE"); // not a like
    const q = async (likes: string) =>
      ids(await t.call("GET", `/api/profile-briefs/nearest?likes=${likes}`, { cookie: v.cookie }));
    assert.deepEqual(await q("likedMyProfile"), [a.profileId]);
    assert.deepEqual(await q("likedMyPics"), [b.profileId]);
    assert.deepEqual(await q("iLikedProfile"), [a.profileId, c.profileId]);
    assert.deepEqual(await q("iLikedPics"), [d.profileId]);
    assert.deepEqual(await q("likedMyProfile,iLikedProfile"), [a.profileId], "every selected filter holds");
    assert.deepEqual(await q("likedMyPics,iLikedPics"), []);
    const bad = await t.call("GET", "/api/profile-briefs/nearest?likes=lovedMe", { cookie: v.cookie });
    assert.equal(bad.status, 400);
  } finally {
    t.close();
  }
});

Deno.test("positions - hidden members appear nowhere and come back when they show again", async () => {
  const t = await testApp();
  try {
    const { viewer, others: [a, b] } = await neighbourhood(t, 2);
    const sector = sectorKey(PHX.lat, PHX.lon + 2 * STEP);
    const countAll = async () => {
      const r = await t.call("GET", "/api/profile-positions/aggregates", { cookie: viewer.cookie });
      return r.data.reduce((s: number, x: { count: number }) => s + x.count, 0);
    };
    assert.equal(await countAll(), 3);
    await place(t, a, PHX.lat, PHX.lon + STEP, true);
    const calls = [
      "/api/profile-briefs/nearest",
      "/api/profile-briefs/by-bounds?latMin=33&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/map?latMin=33&lonMin=-113&latMax=34&lonMax=-111",
      `/api/profile-briefs/by-sector/${sector}`,
    ];
    for (const path of calls) {
      const r = await t.call("GET", path, { cookie: viewer.cookie });
      assert.equal(r.status, 200, path);
      assert.deepEqual(ids(r), [b.profileId], path);
    }
    assert.equal(await countAll(), 2);
    // A hidden member still sees others, measured from where they would be shown.
    const seen = await t.call("GET", "/api/profile-briefs/nearest", { cookie: a.cookie });
    assert.deepEqual(ids(seen).sort(), [viewer.profileId, b.profileId].sort());
    await place(t, a, PHX.lat, PHX.lon + STEP, false);
    const back = await t.call("GET", "/api/profile-briefs/nearest", { cookie: viewer.cookie });
    assert.deepEqual(ids(back), [a.profileId, b.profileId]);
  } finally {
    t.close();
  }
});

Deno.test("positions - blocked members are left out both ways, on every call", async () => {
  const t = await testApp();
  try {
    const { viewer, others: [a, b] } = await neighbourhood(t, 2);
    await putProfileLike(viewer.profileId, a.profileId, "UNDETERMINED", true); // the viewer blocks a
    await putProfileLike(b.profileId, viewer.profileId, "UNDETERMINED", true); // b blocks the viewer
    const paths = [
      "/api/profile-briefs/nearest",
      "/api/profile-briefs/by-bounds?latMin=33&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/map?latMin=33&lonMin=-113&latMax=34&lonMax=-111",
      `/api/profile-briefs/by-sector/${sectorKey(PHX.lat, PHX.lon + STEP)}`,
      `/api/profile-briefs/by-sector/${sectorKey(PHX.lat, PHX.lon + 2 * STEP)}`,
    ];
    for (const path of paths) {
      const r = await t.call("GET", path, { cookie: viewer.cookie });
      assert.deepEqual(ids(r), [], path);
    }
    const fromA = await t.call("GET", "/api/profile-briefs/nearest", { cookie: a.cookie });
    assert.deepEqual(ids(fromA), [b.profileId], "a does not see the viewer who blocked them");
    const fromB = await t.call("GET", "/api/profile-briefs/nearest", { cookie: b.cookie });
    assert.deepEqual(ids(fromB), [a.profileId], "b does not see the viewer they blocked");
  } finally {
    t.close();
  }
});

Deno.test("positions - positions older than 26 h are never returned", async () => {
  const t = await testApp();
  try {
    const first = await neighbourhood(t, 2);
    const [a] = first.others;
    shiftClock(POSITION_TTL_MS - 60_000);
    const viewer = await relogin(t, first.viewer);
    const b = await relogin(t, first.others[1]);
    await place(t, viewer, PHX.lat, PHX.lon);
    await place(t, b, PHX.lat, PHX.lon + 2 * STEP);
    const before = await t.call("GET", "/api/profile-briefs/nearest", { cookie: viewer.cookie });
    assert.deepEqual(ids(before), [a.profileId, b.profileId]);
    shiftClock(2 * 60_000); // a's report is now 26 h and a minute old
    const paths = [
      "/api/profile-briefs/nearest",
      "/api/profile-briefs/by-bounds?latMin=33&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/map?latMin=33&lonMin=-113&latMax=34&lonMax=-111",
      `/api/profile-briefs/by-sector/${sectorKey(PHX.lat, PHX.lon + STEP)}`,
    ];
    for (const path of paths) {
      const r = await t.call("GET", path, { cookie: viewer.cookie });
      assert.ok(!ids(r).includes(a.profileId), path);
    }
    assert.deepEqual(ids(await t.call("GET", paths[0], { cookie: viewer.cookie })), [b.profileId]);
    const agg = await t.call("GET", "/api/profile-positions/aggregates", { cookie: viewer.cookie });
    assert.equal(agg.data.reduce((s: number, x: { count: number }) => s + x.count, 0), 2);
    shiftClock(POSITION_TTL_MS);
    const again = await relogin(t, viewer);
    const late = await t.call("GET", "/api/profile-briefs/nearest", { cookie: again.cookie });
    assert.deepEqual(late.data, { items: [], page: 0, size: 30, hasMore: false }, "the viewer expired too");
  } finally {
    t.close();
  }
});

Deno.test("positions - bad coordinates, sectors and paging are a clear 400; logged out is 401", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    await place(t, m, PHX.lat, PHX.lon);
    const box = "latMin=33&lonMin=-113&latMax=34&lonMax=-111";
    const bad = [
      "/api/profile-briefs/by-bounds?latMin=91&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/by-bounds?latMin=33&lonMin=-181&latMax=34&lonMax=-111",
      "/api/profile-briefs/by-bounds?latMin=abc&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/by-bounds?latMin=&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/by-bounds?latMin=NaN&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/by-bounds?latMin=Infinity&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/by-bounds?latMin=35&lonMin=-113&latMax=34&lonMax=-111",
      "/api/profile-briefs/by-bounds?lonMin=-113&latMax=34&lonMax=-111",
      `/api/profile-briefs/by-bounds?${box}&size=0`,
      `/api/profile-briefs/by-bounds?${box}&size=2001`,
      `/api/profile-briefs/by-bounds?${box}&page=-1`,
      `/api/profile-briefs/by-bounds?${box}&page=1.5`,
      `/api/profile-briefs/by-bounds?${box}&form=columns`,
      "/api/profile-briefs/nearest?size=abc",
      "/api/profile-briefs/by-sector/91:0",
      "/api/profile-briefs/by-sector/0:180",
      "/api/profile-briefs/by-sector/abc",
      "/api/profile-briefs/by-sector/33.5:-112",
    ];
    for (const path of bad) {
      const r = await t.call("GET", path, { cookie: m.cookie });
      assert.equal(r.status, 400, `${path}: ${r.text}`);
      assert.equal(r.data.error.code, "bad_request", path);
      assert.ok(r.data.error.message.length > 5, path);
    }
    for (
      const path of [
        "/api/profile-briefs/nearest",
        `/api/profile-briefs/by-bounds?${box}`,
        "/api/profile-briefs/by-sector/33:-113",
        "/api/profile-positions/aggregates",
      ]
    ) {
      assert.equal((await t.call("GET", path)).status, 401, path);
    }
  } finally {
    t.close();
  }
});

Deno.test("positions - no answer carries another member's reported position, only shown positions", async () => {
  const t = await testApp();
  try {
    const viewer = await t.member();
    await place(t, viewer, PHX.lat + 0.0123456, PHX.lon - 0.0234567);
    const others: { m: Member; lat: number; lon: number }[] = [];
    for (let i = 0; i < 6; i++) {
      const m = await t.member();
      const lat = PHX.lat + (i - 3) * 0.0137913 + 0.000123457;
      const lon = PHX.lon + (i - 3) * 0.0211717 - 0.000654321;
      await place(t, m, lat, lon);
      await put(t, m, { gpsLat: lat + 0.001, gpsLon: lon, use: "DEVICE_GPS", gpsTimestamp: 1 });
      others.push({ m, lat: lat + 0.001, lon });
    }
    const texts: string[] = [];
    for (
      const path of [
        "/api/profile-briefs/nearest",
        "/api/profile-briefs/nearest?size=1&page=2",
        "/api/profile-briefs/by-bounds?latMin=33&lonMin=-113&latMax=34&lonMax=-111",
        `/api/profile-briefs/by-sector/${sectorKey(PHX.lat, PHX.lon)}`,
        "/api/profile-positions/aggregates",
      ]
    ) {
      const r = await t.call("GET", path, { cookie: viewer.cookie });
      assert.equal(r.status, 200);
      texts.push(r.text);
    }
    const all = await t.call("GET", "/api/profile-briefs/nearest", { cookie: viewer.cookie });
    assert.equal(all.data.items.length, 6);
    for (const o of others) {
      for (const text of texts) {
        for (const x of [o.lat, o.lon, o.lat - 0.001]) {
          assert.ok(!text.includes(String(x)), `reported ${x} of ${o.m.profileId} leaked`);
          assert.ok(!text.includes(x.toFixed(6)), `reported ${x} of ${o.m.profileId} leaked (6 digits)`);
        }
      }
      const shown = (await getShownPosition(o.m.profileId))!;
      const b = all.data.items.find((x: { profileId: string }) => x.profileId === o.m.profileId);
      assert.deepEqual([b.lat, b.lon], [shown.lat, shown.lon], "the brief is at the shown position");
      assert.ok(Math.abs(b.lat - o.lat) > 1e-9 || Math.abs(b.lon - o.lon) > 1e-9);
    }
  } finally {
    t.close();
  }
});

Deno.test("positions - briefs, as objects or rows, and aggregates tell when a position was written to the hour, never the moment", async () => {
  const t = await testApp();
  try {
    const viewer = await t.member(), other = await t.member();
    await place(t, viewer, PHX.lat, PHX.lon);
    await place(t, other, PHX.lat + 0.01, PHX.lon);
    const written = (await getShownPosition(other.profileId))!.tsUpdated;
    const hour = Math.floor(written / 3_600_000) * 3_600_000;
    const box = "latMin=33.3&lonMin=-112.2&latMax=33.6&lonMax=-111.9";
    const nearestTs = (await t.call("GET", "/api/profile-briefs/nearest", { cookie: viewer.cookie })).data.items
      .map((b: { tsUpdated: number }) => b.tsUpdated);
    const boundsTs = (await t.call("GET", `/api/profile-briefs/by-bounds?${box}`, { cookie: viewer.cookie })).data
      .items.map((b: { tsUpdated: number }) => b.tsUpdated);
    const rows =
      (await t.call("GET", `/api/profile-briefs/by-bounds?${box}&form=rows`, { cookie: viewer.cookie })).data;
    const rowsTs = rows.rows.map((r: unknown[]) => r[rows.fields.indexOf("tsUpdated")]);
    const sectors = (await t.call("GET", "/api/profile-positions/aggregates", { cookie: viewer.cookie })).data;
    assert.deepEqual([nearestTs, boundsTs, rowsTs], [[hour], [hour], [hour]]);
    for (const a of sectors) assert.equal(a.tsUpdated % 3_600_000, 0, "an aggregate's time is a whole hour");
  } finally {
    t.close();
  }
});

Deno.test("positions - discovery queries are rate-limited per account with a 429", async () => {
  const t = await testApp();
  const limit = LIMITS.discoveryByAccount;
  const saved = limit.max;
  limit.max = 3;
  t.alignClock(limit.windowMs);
  try {
    const m = await t.member();
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      statuses.push((await t.call("GET", "/api/profile-positions/aggregates", { cookie: m.cookie })).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    const other = await t.member();
    assert.equal((await t.call("GET", "/api/profile-briefs/nearest", { cookie: other.cookie })).status, 200);
  } finally {
    limit.max = saved;
    t.close();
  }
});
