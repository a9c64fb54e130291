import assert from "node:assert/strict";
import { brotliDecompressSync, zstdDecompressSync } from "node:zlib";
import { testApp } from "../tests/api.ts";
import { createAccount } from "../kv/accounts.ts";
import { forgetCachedProfile, getProfile, updateProfile } from "../kv/profiles.ts";
import { kv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import { NEW_MEMBER_DAYS } from "../kv/briefs.ts";
import { importPositions, reportPosition } from "../kv/positions/mod.ts";
import { markSeen } from "../kv/presence.ts";
import { takeAction } from "../kv/moderation.ts";
import { now, resetClock, shiftClock } from "../kv/clock.ts";
import { SHOWN_REFRESH_MS } from "../kv/positions/types.ts";
import { forgetKeptAnswers, keptAnswerCounts } from "./keptAnswers.ts";
import { forgetKeptSearches, keptSearchCount } from "../kv/positions/keptSearches.ts";
import { newId } from "../kv/ids.ts";
import { stopCompressThread } from "./compression.ts";

const PHX = { lat: 33.4484, lon: -112.074 };
const BOX = "latMin=33&lonMin=-113&latMax=34&lonMax=-111";
/** A box around Phoenix's members (the nearest list's test). */
const NEAR_BOX = "latMin=33.3&lonMin=-112.2&latMax=33.6&lonMax=-111.9";

/** `n` members' profile ids, each made with an account of their own (emails `${prefix}<i>@test.invalid`). */
async function profiles(prefix: string, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    ids.push((await createAccount({ email: `${prefix}${i}@test.invalid`, name: `${prefix} ${i}` }))!.defaultProfileId);
  }
  return ids;
}

/** The body of `res` decoded as its Content-Encoding says. */
async function decoded(res: Response): Promise<string> {
  const enc = res.headers.get("content-encoding");
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (enc === "br") return new TextDecoder().decode(brotliDecompressSync(bytes));
  if (enc === "zstd") return new TextDecoder().decode(zstdDecompressSync(bytes));
  assert.equal(enc, null);
  return new TextDecoder().decode(bytes);
}

Deno.test("kept answers - a view asked again is the same answer while nobody in it changed, and shows every change at once", async () => {
  const t = await testApp();
  forgetKeptAnswers();
  try {
    const viewer = await t.member(), other = await t.member();
    const crowd = await profiles("kept", 40);
    await importPositions([viewer.profileId, other.profileId, ...crowd].map((profileId, i) => ({
      profileId,
      lat: PHX.lat + (i % 7) * 0.01,
      lon: PHX.lon + Math.floor(i / 7) * 0.01,
      use: "OVERRIDE" as const,
      hide: false,
    })));
    /** What `who` is sent for `path` in `accept`, decoded, beside the same call answered uncompressed. */
    const ask = async (who: { cookie: string }, path: string, accept = "gzip, deflate, br") => {
      const headers = { cookie: who.cookie, "accept-encoding": accept };
      const res = await t.app.request(`http://localhost${path}`, { headers });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("vary") ?? "", /accept-encoding/i);
      assert.equal(res.headers.get("content-type"), "application/json");
      const body = JSON.parse(await decoded(res));
      const plain = await t.call("GET", path, { cookie: who.cookie });
      assert.deepEqual(body, plain.data, `${path} in ${accept}: the same as sent uncompressed`);
      return { body, encoding: res.headers.get("content-encoding") };
    };
    const map = `/api/profile-briefs/map?${BOX}`;
    const ids = (v: { rows: string[][] }) => v.rows.map((r) => r[0]);

    const first = await ask(viewer, map);
    assert.equal(first.encoding, "br");
    assert.equal(first.body.rows.length, 41, "everyone but the viewer");
    assert.deepEqual(keptAnswerCounts(), { views: 1, sent: 0 });
    // Asked again, in Brotli and in Zstandard: the same view, kept once for this viewer.
    assert.deepEqual((await ask(viewer, map)).body, first.body);
    const zstd = await ask(viewer, map, "gzip, deflate, br, zstd");
    assert.equal(zstd.encoding, "br", "under 16 KB a view goes in Brotli 1 even to a caller that names zstd");
    assert.deepEqual(zstd.body, first.body);
    assert.deepEqual(keptAnswerCounts(), { views: 1, sent: 2 });
    // Another viewer's view of the same box is their own: without them, with the first viewer.
    const theirs = await ask(other, map);
    assert.ok(!ids(theirs.body).includes(other.profileId));
    assert.ok(ids(theirs.body).includes(viewer.profileId));
    assert.deepEqual(keptAnswerCounts(), { views: 2, sent: 2 });

    // A move, a rename, a hidden member and a block show in the next answer.
    await reportPosition(crowd[0], { lat: PHX.lat + 0.5, lon: PHX.lon + 0.5, use: "OVERRIDE", hide: false });
    await updateProfile(crowd[1], { profilename: "Renamed" });
    await reportPosition(crowd[2], { lat: PHX.lat, lon: PHX.lon, use: "OVERRIDE", hide: true });
    const block = await t.call("PUT", "/api/profile-like", {
      cookie: other.cookie,
      json: { likerProfileId: other.profileId, likedProfileId: viewer.profileId, likeType: "LIKE", blocked: true },
    });
    assert.equal(block.status, 200, block.text);
    const later = (await ask(viewer, map)).body;
    const row = (id: string) => later.rows.find((r: string[]) => r[0] === id);
    // Shown points are near the reported one, never on it.
    assert.ok(Math.abs(row(crowd[0])[2] - (PHX.lat + 0.5)) < 0.02);
    assert.equal(row(crowd[1])[1], "Renamed");
    assert.equal(row(crowd[2]), undefined, "a hidden member is never listed");
    assert.equal(row(other.profileId), undefined, "blocked both ways");
    assert.ok(!ids((await ask(other, map)).body).includes(viewer.profileId));
    // A change outside what a row shows (a description) keeps the view as it was.
    await updateProfile(crowd[3], { description: "New words." });
    const sentBefore = keptAnswerCounts().sent;
    assert.deepEqual((await ask(viewer, map)).body, later);
    assert.equal(keptAnswerCounts().sent, sentBefore + 1);

    // by-bounds as objects and as rows: each form its own answer, each with distances from its viewer.
    const bounds = `/api/profile-briefs/by-bounds?${BOX}&size=800`;
    const objects = await ask(viewer, bounds, "gzip, deflate, br, zstd");
    const rows = await ask(viewer, `${bounds}&form=rows`, "gzip, deflate, br, zstd");
    assert.deepEqual((await ask(viewer, bounds, "gzip, deflate, br, zstd")).body, objects.body);
    assert.deepEqual((await ask(viewer, `${bounds}&form=rows`, "gzip, deflate, br, zstd")).body, rows.body);
    assert.deepEqual(
      rows.body.rows.map((r: unknown[]) => r[0]),
      objects.body.items.map((b: { profileId: string }) => b.profileId),
    );
    await reportPosition(crowd[4], { lat: PHX.lat + 0.4, lon: PHX.lon + 0.4, use: "OVERRIDE", hide: false });
    const moved = (await ask(viewer, bounds)).body.items.find((b: { profileId: string }) => b.profileId === crowd[4]);
    assert.ok(Math.abs(moved.lat - (PHX.lat + 0.4)) < 0.02);
    assert.ok(moved.distanceMeters > 40_000);
  } finally {
    forgetKeptAnswers();
    stopCompressThread();
    t.close();
  }
});

Deno.test("kept answers - the nearest list is sent as kept only while nothing it is made from changed: every input in turn", async () => {
  const t = await testApp();
  forgetKeptAnswers();
  resetClock();
  try {
    const viewer = await t.member(), blocker = await t.member();
    const crowd = await profiles("near", 40);
    const place = (i: number) => ({ lat: PHX.lat + (i % 7) * 0.002, lon: PHX.lon + Math.floor(i / 7) * 0.002 });
    // The blocker where the viewer is (listed first); the others a few hundred meters apart.
    await importPositions([viewer.profileId, blocker.profileId, ...crowd].map((profileId, i) => ({
      profileId,
      ...place(Math.max(0, i - 1)),
      use: "OVERRIDE" as const,
      hide: false,
    })));
    // Filters that read the viewer's likes and the members' presence: a few members in each list, over 1 KB.
    for (const id of crowd.slice(0, 6)) {
      await markSeen(id);
      const like = await t.call("PUT", "/api/profile-like", {
        cookie: viewer.cookie,
        json: { likerProfileId: viewer.profileId, likedProfileId: id, likeType: "LIKE" },
      });
      assert.equal(like.status, 200, like.text);
    }
    // Members without a profile further out across a box around them: none is listed, but a box of
    // 100 finds them, so its search fills its page and is kept (kv/positions/keptSearches.ts).
    await importPositions(Array.from({ length: 200 }, (_, i) => ({
      profileId: newId(),
      lat: PHX.lat + 0.04 + (i % 20) * 0.002,
      lon: PHX.lon - 0.05 + Math.floor(i / 20) * 0.005,
      use: "OVERRIDE" as const,
      hide: false,
    })));
    // A birthday tomorrow: a day later every member is a year older (28 years back: a 29 February
    // tomorrow is one then too).
    const tomorrow = new Date(Date.now() + 24 * 3_600_000);
    const birthdate = `${tomorrow.getUTCFullYear() - 28}-${tomorrow.toISOString().slice(5, 10)}`;
    for (const id of crowd) assert.ok((await updateProfile(id, { birthdate })).ok);

    const lists = [
      "/api/profile-briefs/nearest",
      "/api/profile-briefs/nearest?page=1&size=10",
      "/api/profile-briefs/nearest?online=1",
      "/api/profile-briefs/nearest?likes=iLikedProfile",
      `/api/profile-briefs/by-bounds?${NEAR_BOX}&size=100`,
      `/api/profile-briefs/by-bounds?${NEAR_BOX}&size=100&form=rows`,
    ];
    const last = new Map<string, unknown>();
    /** Asks every list; each must be what is written anew. Returns which changed since the last step. */
    const step = async (accept = "gzip, deflate, br") => {
      const changed: string[] = [];
      // Every list as sent first (searches kept since the last step included), then each written anew.
      const sent: unknown[] = [];
      for (const path of lists) {
        const headers = { cookie: viewer.cookie, "accept-encoding": accept, "accept-language": "de" };
        const res = await t.app.request(`http://localhost${path}`, { headers });
        assert.equal(res.status, 200);
        sent.push(JSON.parse(await decoded(res)));
      }
      for (const [i, path] of lists.entries()) {
        const body = sent[i];
        // Written anew from a search made anew, not a kept one.
        forgetKeptSearches();
        const plain = await t.call("GET", path, { cookie: viewer.cookie });
        assert.deepEqual(body, plain.data, `${path}: the answer sent is the one written anew`);
        if (last.has(path) && JSON.stringify(last.get(path)) !== JSON.stringify(body)) changed.push(path);
        last.set(path, body);
      }
      return changed;
    };
    const ids = () => (last.get(lists[0]) as { items: { profileId: string }[] }).items.map((b) => b.profileId);
    /** The members a list shows, as objects or as rows. */
    const members = (body: unknown) => {
      const b = body as { items?: { profileId: string }[]; rows?: string[][] };
      return b.items?.map((m) => m.profileId) ?? b.rows!.map((r) => r[0]);
    };

    await step();
    assert.equal(ids().length, 30);
    assert.equal(members(last.get(lists[4])).length, 41, "the box lists everyone but the viewer");
    assert.deepEqual(members(last.get(lists[5])), members(last.get(lists[4])));
    await step();
    assert.ok(keptSearchCount() > 0, "the box's search is kept");
    const [listed] = ids().filter((id) => crowd.indexOf(id) >= 10);
    // Asked again unchanged (in another encoding, another language): every list is the kept one.
    const sent = keptAnswerCounts().sent;
    assert.deepEqual(await step("gzip, deflate, br, zstd"), []);
    assert.equal(keptAnswerCounts().sent, sent + lists.length);
    // A change outside a brief (a description) keeps them too.
    await updateProfile(crowd[0], { description: "Other words." });
    assert.deepEqual(await step(), []);
    assert.equal(keptAnswerCounts().sent, sent + 2 * lists.length);

    const all = lists, online = [lists[2]], liked = [lists[3]];
    /** The lists that show `id` now. */
    const showing = (id: string) => lists.filter((path) => members(last.get(path)).includes(id));
    const like = (who: { cookie: string; profileId: string }, id: string, blocked = false) =>
      t.call("PUT", "/api/profile-like", {
        cookie: who.cookie,
        json: { likerProfileId: who.profileId, likedProfileId: id, likeType: "LIKE", blocked },
      });
    /**
     * Each change, and the lists it must change: those that show the member it is about, or those
     * named. Every list asked after it must be the one written anew (`step`).
     */
    const changes: [string, () => Promise<unknown>, string | string[]][] = [
      ["a listed member renamed", () => updateProfile(crowd[1], { profilename: "Renamed" }), crowd[1]],
      ["a listed member's characteristics", () => updateProfile(crowd[3], { characteristics: ["top"] }), crowd[3]],
      [
        "a member moved away",
        () => reportPosition(crowd[2], { lat: PHX.lat + 0.5, lon: PHX.lon, use: "OVERRIDE", hide: false }),
        crowd[2],
      ],
      ["a member hidden", () => reportPosition(crowd[4], { ...place(6), use: "OVERRIDE", hide: true }), crowd[4]],
      [
        "the hidden member shown again",
        () => reportPosition(crowd[4], { ...place(6), use: "OVERRIDE", hide: false }),
        [lists[2], lists[3]],
      ],
      ["a member came online", () => markSeen(crowd[6]), online],
      ["the viewer liked another", () => like(viewer, crowd[7]), liked],
      ["the viewer blocked a member", () => like(viewer, crowd[5], true), crowd[5]],
      ["a member blocked the viewer", () => like(blocker, viewer.profileId, true), blocker.profileId],
      [
        "a member suspended",
        () =>
          takeAction({ accountId: "admin", name: "Admin" }, listed, { kind: "SUSPENSION", days: 1, reason: "Spam." }),
        listed,
      ],
      [
        "the viewer moved",
        () =>
          reportPosition(viewer.profileId, { lat: PHX.lat + 0.01, lon: PHX.lon + 0.01, use: "OVERRIDE", hide: false }),
        all,
      ],
      // A day on: a birthday, and nobody online any more (the positions stay: they last 26 hours),
      // in three steps that each keep the viewer's session in use.
      ["a day passed", async () => {
        for (let i = 0; i < 3; i++) {
          shiftClock(8 * 3_600_000 + 20_000);
          assert.equal((await t.call("GET", "/api/ping", { cookie: viewer.cookie })).status, 200);
        }
      }, [lists[0], ...online]],
    ];
    for (const [what, change, about] of changes) {
      const changing = typeof about === "string" ? showing(about) : about;
      if (typeof about === "string") assert.ok(changing.length > 0, `${what}: a listed member`);
      await change();
      const changed = await step();
      for (const path of changing) assert.ok(changed.includes(path), `${what}: ${path} changed`);
    }
    assert.deepEqual(
      new Set((last.get(lists[0]) as { items: { profileAge: number }[] }).items.map((b) => b.profileAge)),
      new Set([28]),
      "everyone listed a year older (the blocker, without a birthdate, blocked the viewer)",
    );
    // Where being gay is a crime, the empty list places no one; in the ocean it is only empty.
    const sea = { lat: -30, lon: -25, use: "OVERRIDE" as const, hide: false };
    await reportPosition(viewer.profileId, sea);
    await step();
    assert.deepEqual(last.get(lists[0]), { items: [], page: 0, size: 30, hasMore: false });
    await reportPosition(viewer.profileId, { lat: -1.2864, lon: 36.8172, use: "OVERRIDE", hide: false });
    assert.deepEqual(await step(), all, "the same empty lists, placing no one");
    assert.equal((last.get(lists[0]) as { nearbyOnly?: boolean }).nearbyOnly, true);
    await reportPosition(viewer.profileId, sea);
    assert.deepEqual(await step(), all, "the same empty lists again");
    assert.equal((last.get(lists[0]) as { nearbyOnly?: boolean }).nearbyOnly, undefined);
  } finally {
    resetClock();
    forgetKeptAnswers();
    stopCompressThread();
    t.close();
  }
});

Deno.test("kept answers - a nearest list whose members stay in order: a point's time, every distance and whether more follow each show", async () => {
  const t = await testApp();
  forgetKeptAnswers();
  resetClock();
  try {
    const viewer = await t.member();
    const town = await profiles("town", 6);
    // Members on a line due north of the viewer, each further than the last.
    const DENVER = { lat: 39.74, lon: -104.99 };
    const north = (i: number) => ({
      lat: DENVER.lat + 0.02 * (i + 1),
      lon: DENVER.lon,
      use: "OVERRIDE" as const,
      hide: false,
    });
    await reportPosition(viewer.profileId, { ...DENVER, use: "OVERRIDE", hide: false });
    for (let i = 0; i < 5; i++) await reportPosition(town[i], north(i));
    const path = "/api/profile-briefs/nearest?size=5";
    let last:
      | { items: { profileId: string; distanceMeters: number; tsUpdated: number; isNew: boolean }[]; hasMore: boolean }
      | null = null;
    /** The list as sent compressed (kept or not), which must be the one written anew. */
    const ask = async () => {
      const res = await t.app.request(`http://localhost${path}`, {
        headers: { cookie: viewer.cookie, "accept-encoding": "gzip, deflate, br" },
      });
      assert.equal(res.headers.get("content-encoding"), "br", "large enough to be compressed, and kept");
      const body = JSON.parse(await decoded(res));
      assert.deepEqual(body, (await t.call("GET", path, { cookie: viewer.cookie })).data);
      const was = last;
      last = body;
      return was;
    };
    // The nearest member made their profile a minute short of the days a member is shown as new.
    const record = (await getProfile(town[0]))!;
    await kv().set(keys.profile(town[0]), { ...record, tsCreated: now() - NEW_MEMBER_DAYS * 86_400_000 + 60_000 });
    forgetCachedProfile(town[0]);
    await ask();
    const sent = keptAnswerCounts().sent;
    await ask();
    assert.equal(keptAnswerCounts().sent, sent + 1, "unchanged: sent as kept");
    const ids = town.slice(0, 5);

    // Two minutes on, they are no longer new: nothing else changed.
    shiftClock(120_000);
    assert.equal((await t.call("GET", "/api/ping", { cookie: viewer.cookie })).status, 200);
    let was = await ask();
    assert.deepEqual([was!.items[0].isNew, last!.items[0].isNew], [true, false]);

    // A sixth member further out: the same five, and now more follow.
    await reportPosition(town[5], north(5));
    was = await ask();
    assert.deepEqual([was!.hasMore, last!.hasMore], [false, true]);
    assert.deepEqual(last!.items.map((b) => b.profileId), ids);
    // A member reports again where they were, after the time a shown point is refreshed at and in
    // the next hour (the hour is what others are told of it): only their point's time changes.
    shiftClock(Math.max(SHOWN_REFRESH_MS, 3_600_000 - now() % 3_600_000) + 1000);
    assert.equal((await t.call("GET", "/api/ping", { cookie: viewer.cookie })).status, 200);
    await reportPosition(town[2], north(2));
    was = await ask();
    assert.ok(last!.items[2].tsUpdated > was!.items[2].tsUpdated);
    // The viewer moves further south: the same members in the same order, each further away.
    await reportPosition(viewer.profileId, { lat: DENVER.lat - 0.05, lon: DENVER.lon, use: "OVERRIDE", hide: false });
    was = await ask();
    assert.deepEqual(last!.items.map((b) => b.profileId), ids);
    for (let i = 0; i < 5; i++) assert.ok(last!.items[i].distanceMeters > was!.items[i].distanceMeters);
  } finally {
    resetClock();
    forgetKeptAnswers();
    stopCompressThread();
    t.close();
  }
});
