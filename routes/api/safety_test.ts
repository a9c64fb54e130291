import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { TEXTS } from "../../domain/texts.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type M = Awaited<ReturnType<T["member"]>>;

const NAIROBI = { lat: -1.2864, lon: 36.8172 };
const near = (p: { lat: number; lon: number }, d: number) => ({ lat: p.lat + d, lon: p.lon + d });

const report = (t: T, m: M, at: { lat: number; lon: number }, hide = false) =>
  t.call("PUT", `/api/profile-position/${m.profileId}`, {
    cookie: m.cookie,
    json: { overrideLat: at.lat, overrideLon: at.lon, use: "OVERRIDE", hide },
  });
const nearest = async (t: T, m: M) => (await t.call("GET", "/api/profile-briefs/nearest", { cookie: m.cookie })).data;
const like = (t: T, from: M, to: M) =>
  t.call("PUT", "/api/profile-like", {
    cookie: from.cookie,
    json: { likerProfileId: from.profileId, likedProfileId: to.profileId, likeType: "LIKE", tsCreated: 0 },
  });

Deno.test("safety - where being gay is a crime a member is hidden from all but their favourites, unless they choose", async () => {
  const t = await testApp();
  try {
    const local = await t.member(), favourite = await t.member(), stranger = await t.member();
    // Everyone else reports from just outside... the same city: what counts is the local member's place.
    await reportPosition(favourite.profileId, { ...near(NAIROBI, 0.01), use: "OVERRIDE", hide: false });
    await reportPosition(stranger.profileId, { ...near(NAIROBI, 0.02), use: "OVERRIDE", hide: false });
    const own = await report(t, local, NAIROBI);
    assert.equal(own.status, 200);
    assert.equal(own.data.hide, true, "hidden for their safety, whatever the toggle said");
    assert.equal((await like(t, local, favourite)).status, 200);
    const ids = async (m: M) => (await nearest(t, m)).items.map((b: { profileId: string }) => b.profileId);
    assert.ok(!(await ids(stranger)).includes(local.profileId), "not in anyone's list");
    assert.ok(!(await ids(favourite)).includes(local.profileId));
    assert.equal((await t.call("GET", `/api/profile/${local.profileId}`, { cookie: stranger.cookie })).status, 404);
    assert.equal((await t.call("GET", `/api/profile/${local.profileId}`, { cookie: favourite.cookie })).status, 200);
    // They choose to be seen: the next report shows them.
    const set = await t.call("PUT", "/api/safety", { cookie: local.cookie, json: { showToEveryone: true } });
    assert.equal(set.data.showToEveryone, true);
    assert.equal((await report(t, local, NAIROBI)).data.hide, false);
    assert.ok((await ids(stranger)).includes(local.profileId));
    assert.equal((await t.call("GET", `/api/profile/${local.profileId}`, { cookie: stranger.cookie })).status, 200);
  } finally {
    t.close();
  }
});

Deno.test("safety - a viewer there sees distances as nearby only and no one on the map", async () => {
  const t = await testApp();
  try {
    const viewer = await t.member(), other = await t.member();
    await reportPosition(other.profileId, { ...near(NAIROBI, 0.01), use: "OVERRIDE", hide: false });
    await report(t, viewer, NAIROBI);
    const page = await nearest(t, viewer);
    assert.equal(page.nearbyOnly, true);
    assert.deepEqual(page.items.map((b: { distanceMeters: unknown }) => b.distanceMeters), [null]);
    const box = "latMin=-2&lonMin=36&latMax=-1&lonMax=37&page=0&size=800";
    const map = await t.call("GET", `/api/profile-briefs/by-bounds?${box}`, { cookie: viewer.cookie });
    assert.deepEqual([map.status, map.data.items], [200, []]);
    const view = await t.call("GET", `/api/profile-briefs/map?${box.replace("&page=0&size=800", "")}`, {
      cookie: viewer.cookie,
    });
    assert.deepEqual([view.status, view.data], [200, { rows: [], tooMany: false }]);
    // Elsewhere nothing changes.
    const phoenix = await t.member();
    await report(t, phoenix, { lat: 33.4484, lon: -112.074 });
    assert.equal((await nearest(t, phoenix)).nearbyOnly, undefined);
  } finally {
    t.close();
  }
});

Deno.test("safety - the notice is shown once; discreet mode is this device's: neutral title and icon, a quick exit", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    await report(t, m, NAIROBI);
    const before = await t.call("GET", "/api/safety", { cookie: m.cookie });
    assert.deepEqual([before.data.atRisk, before.data.country, before.data.noticeSeen], [true, "KE", null]);
    const tiles = await t.call("GET", "/search/tile", { cookie: m.cookie });
    assert.match(tiles.text, new RegExp(TEXTS.safetyNoticeTitle));
    const seen = await t.call("POST", "/safety/notice", { cookie: m.cookie, form: { back: "/search/tile" } });
    assert.deepEqual([seen.status, seen.headers.get("location")], [303, "/search/tile"]);
    assert.doesNotMatch((await t.call("GET", "/search/tile", { cookie: m.cookie })).text, /safety-notice/);
    const open = await t.call("POST", "/safety/notice", { cookie: m.cookie, form: { back: "//evil.example" } });
    assert.equal(open.headers.get("location"), "/", "never an open redirect");

    const on = await t.call("PUT", "/api/safety", { cookie: m.cookie, json: { discreet: true } });
    const cookie = on.headers.get("set-cookie") ?? "";
    assert.match(cookie, /discreet=1/);
    const both = `${m.cookie}; discreet=1`;
    const page = await t.call("GET", "/aboutus", { cookie: both });
    assert.match(page.text, new RegExp(`<title>${TEXTS.neutralTitle}</title>`));
    assert.match(page.text, /neutral-icon\.svg/);
    assert.match(page.text, /manifest-neutral\.webmanifest/);
    assert.match(page.text, new RegExp(`class="quick-exit"[^>]*>${TEXTS.quickExit}<`));
    assert.equal((await t.call("PUT", "/api/safety", { cookie: m.cookie, json: { discreet: "yes" } })).status, 400);
    assert.equal((await t.call("PUT", "/api/safety", { json: { discreet: true } })).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("safety - a viewer shown there, or just arrived there, sees distances as nearby only at once", async () => {
  const t = await testApp();
  try {
    const viewer = await t.member(), other = await t.member();
    await reportPosition(other.profileId, { ...near(NAIROBI, 0.01), use: "OVERRIDE", hide: false });
    // Far from any country at risk first: distances as usual.
    await report(t, viewer, { lat: 33.4484, lon: -112.074 });
    assert.equal((await nearest(t, viewer)).nearbyOnly, undefined);
    // They choose to be seen, and arrive in Nairobi: shown there (not hidden), and judged at risk
    // from their very next list.
    await t.call("PUT", "/api/safety", { cookie: viewer.cookie, json: { showToEveryone: true } });
    assert.equal((await report(t, viewer, NAIROBI)).data.hide, false);
    const page = await nearest(t, viewer);
    assert.equal(page.nearbyOnly, true);
    assert.deepEqual(page.items.map((b: { distanceMeters: unknown }) => b.distanceMeters), [null]);
    const view = await t.call("GET", "/api/profile-briefs/map?latMin=-2&lonMin=36&latMax=-1&lonMax=37", {
      cookie: viewer.cookie,
    });
    assert.deepEqual(view.data, { rows: [], tooMany: false });
  } finally {
    t.close();
  }
});

Deno.test("safety - a member seen far away who arrives there is hidden from strangers from their next report", async () => {
  const t = await testApp();
  try {
    const local = await t.member(), stranger = await t.member();
    await report(t, stranger, { lat: 33.45, lon: -112.07 });
    await report(t, local, { lat: 33.4484, lon: -112.074 });
    assert.equal((await t.call("GET", `/api/profile/${local.profileId}`, { cookie: stranger.cookie })).status, 200);
    assert.equal((await report(t, local, NAIROBI)).data.hide, true);
    assert.equal((await t.call("GET", `/api/profile/${local.profileId}`, { cookie: stranger.cookie })).status, 404);
    // Seen by their choice there: judged by their true point, and shown.
    await t.call("PUT", "/api/safety", { cookie: local.cookie, json: { showToEveryone: true } });
    assert.equal((await report(t, local, NAIROBI)).data.hide, false);
    assert.equal((await t.call("GET", `/api/profile/${local.profileId}`, { cookie: stranger.cookie })).status, 200);
    await t.call("PUT", "/api/safety", { cookie: local.cookie, json: { showToEveryone: false } });
    assert.equal((await t.call("GET", `/api/profile/${local.profileId}`, { cookie: stranger.cookie })).status, 404);
  } finally {
    t.close();
  }
});
