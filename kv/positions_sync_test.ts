import assert from "node:assert/strict";
import { pause, until } from "../tests/wait.ts";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { resetClock, shiftClock } from "./clock.ts";
import { GeoInputError, shownPoint } from "../domain/geo.ts";
import {
  byBounds,
  FRESH_MS,
  getOwnPosition,
  getShownPosition,
  importPositions,
  nearest,
  PositionStore,
  reportPosition,
  SHOWN_REFRESH_MS,
} from "./positions/mod.ts";
import { mulberry32 as rng } from "./random.ts";
import { countingCommits, kvTest } from "../tests/kv.ts";
import { bruteForce, ids, shownOf } from "../tests/fixtures/positions.ts";

Deno.test("sync - another instance sees writes through the change log and the watch", async () => {
  const dir = await Deno.makeTempDir();
  const a = await Deno.openKv(`${dir}/p.kv`);
  const b = await Deno.openKv(`${dir}/p.kv`);
  const sa = new PositionStore(a, { secret: "test" });
  const sb = new PositionStore(b, { secret: "test" });
  try {
    await sa.report("m1", { lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false });
    await sa.report("viewer", { lat: 33.46, lon: -112.07, use: "OVERRIDE", hide: false });
    const loaded = await sb.load();
    assert.equal(loaded.members, 2);
    sb.startSync({ pollMs: 60_000 });
    sa.startSync({ pollMs: 60_000 });
    // A write on A shows on B without B asking KV per query. The fallback poll is a minute, so
    // within the deadline below only the watch on positions_version can bring it.
    await sa.report("m2", { lat: 33.451, lon: -112.071, use: "OVERRIDE", hide: false });
    await sa.report("m1", { lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: true });
    let seen: string[] = [];
    await until(async () => (seen = ids(await sb.nearest("viewer"))).join() === "m2", "B to see the hidden member go", {
      timeoutMs: 5000,
    }).catch(() => {});
    assert.deepEqual(seen, ["m2"]);
    assert.deepEqual(await sb.nearest("viewer"), await sa.nearest("viewer"));
    // B writes; A (the other instance now) catches up too.
    await sb.report("m3", { lat: 33.452, lon: -112.07, use: "OVERRIDE", hide: false });
    assert.ok(ids(await sb.nearest("viewer")).includes("m3"), "own write visible at once");
    await until(async () => ids(await sa.nearest("viewer")).includes("m3"), "A to catch up", { timeoutMs: 5000 })
      .catch(() => {});
    assert.deepEqual(await sa.nearest("viewer"), await sb.nearest("viewer"));
    // Replaying the log is a no-op.
    await sb.tail();
    assert.deepEqual(await sa.nearest("viewer"), await sb.nearest("viewer"));
    // Both instances write one member, each from its own (soon stale) idea of the record, with
    // the other point given (the read-free path); checks keep exactly one shown record.
    const writes = [];
    for (let i = 0; i < 30; i++) {
      const store = i % 2 ? sa : sb;
      const lat = 33.45 + (i % 6) * 0.02;
      writes.push(
        store.report("m2", { lat, lon: -112.07, use: "DEVICE_GPS", hide: false, overrideLat: null, overrideLon: null }),
      );
    }
    await Promise.all(writes);
    const shownKeys: Deno.KvKey[] = [];
    for await (const e of a.list({ prefix: keys.positionsShownAll() })) if (e.key[2] === "m2") shownKeys.push(e.key);
    assert.equal(shownKeys.length, 1);
    const own = (await sa.own("m2"))!;
    await until(
      async () => {
        const [x, y] = [await sa.shown("m2"), await sb.shown("m2")];
        return x && y && x.lat === own.shownLat && y.lat === own.shownLat;
      },
      "both instances to agree on the shown point",
      { timeoutMs: 5000 },
    ).catch(() => {});
    assert.equal((await sa.shown("m2"))?.lat, own.shownLat);
    assert.equal((await sb.shown("m2"))?.lat, own.shownLat);
  } finally {
    await sa.stopSync();
    await sb.stopSync();
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sync - a position saved on one instance is in the other's very next nearest answer", async () => {
  const dir = await Deno.makeTempDir();
  const a = await Deno.openKv(`${dir}/p.kv`);
  const b = await Deno.openKv(`${dir}/p.kv`);
  const sa = new PositionStore(a, { secret: "test" });
  const sb = new PositionStore(b, { secret: "test" });
  try {
    await sa.report("old", { lat: 33.45, lon: -112.07, use: "OVERRIDE", hide: false });
    await sb.load();
    // The poll is a minute: only the watch (which another process's write never wakes) or the
    // query's own read of the log can bring the newcomer.
    sb.startSync({ pollMs: 60_000 });
    await pause(FRESH_MS + 100); // sleep-ok: B's copy must be older than a query may use as it is
    // A newcomer finishes onboarding on A and asks for their nearest on B at once, and the
    // other way round: no waiting between.
    await sa.report("newcomer", { lat: 33.451, lon: -112.071, use: "OVERRIDE", hide: false });
    assert.deepEqual(ids(await sb.nearest("old")), ["newcomer"], "seen by the member already there");
    assert.deepEqual(ids(await sb.nearest("newcomer")), ["old"], "sees the member already there");
  } finally {
    await sb.stopSync();
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
});

/** A GPS report at `lat` with the other point given (the client's body): the write the index can guess. */
const gps = (lat: number) => ({
  lat,
  lon: -112.07,
  use: "DEVICE_GPS" as const,
  hide: false,
  overrideLat: null,
  overrideLon: null,
});

/**
 * Two instances on one KV file: A, and B whose commits are counted (`commits.all`, and those
 * that failed a check `commits.failed`); closed and removed after `fn`.
 */
async function twoInstances(
  fn: (sa: PositionStore, sb: PositionStore, commits: { all: number; failed: number }, a: Deno.Kv) => Promise<void>,
) {
  const dir = await Deno.makeTempDir();
  const a = await Deno.openKv(`${dir}/p.kv`);
  const b = await Deno.openKv(`${dir}/p.kv`);
  const counted = countingCommits(b);
  try {
    await fn(
      new PositionStore(a, { secret: "test" }),
      new PositionStore(counted.db, { secret: "test" }),
      counted.commits,
      a,
    );
  } finally {
    a.close();
    b.close();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("sync - quiet writes on one instance leave the other's guess right: its next write needs no retry", () =>
  twoInstances(async (sa, sb, commits, a) => {
    await sa.report("m", gps(33.45));
    await sb.load();
    // A moves the member a few metres, again and again: only the private record changes.
    for (let i = 1; i <= 3; i++) await sa.report("m", gps(33.45 + i * 0.00001));
    // B writes from its index's idea of the member, with no read, and its first commit holds.
    const own = await sb.report("m", gps(33.45005));
    assert.equal(commits.failed, 0, "no commit failed a check");
    assert.equal(own.lat, 33.45005);
    assert.equal((await sa.own("m"))?.lat, 33.45005);
    await sb.report("m", gps(33.45006));
    assert.equal(commits.failed, 0);
    // A moves the member to another cell: B's idea is now stale, its write fails the check once,
    // reads, and lands where a fresh write would.
    await sa.report("m", gps(33.5));
    const moved = await sb.report("m", gps(33.50001));
    assert.equal(commits.failed, 1, "the stale guess failed its check once");
    assert.equal(moved.lat, 33.50001);
    const shownKeys: Deno.KvKey[] = [];
    for await (const e of a.list({ prefix: keys.positionsShownAll() })) if (e.key[2] === "m") shownKeys.push(e.key);
    assert.equal(shownKeys.length, 1);
    assert.equal((await sa.own("m"))?.shownLat, moved.shownLat);
  }));

Deno.test("writes - one stale guess in a group commit: the others are committed together again, not one by one", () =>
  twoInstances(async (sa, sb, commits) => {
    const members = Array.from({ length: 20 }, (_, i) => `g${i}`);
    for (const [i, id] of members.entries()) await sa.report(id, gps(33 + i * 0.1));
    await sb.load();
    await sa.report("g19", gps(34.5)); // B has not heard of it
    const before = commits.all;
    const own = await Promise.all(members.map((id, i) => sb.report(id, gps(33 + i * 0.1 + 0.00001))));
    assert.deepEqual(own.map((o) => o.lat), members.map((_, i) => 33 + i * 0.1 + 0.00001));
    assert.equal(commits.failed, 1, "the group failed its checks once");
    // The first two writes go at once, each alone (two commits in flight), then the group of the
    // others fails, its fresh ones go again as one, the stale one after its read: five commits,
    // not one for each of the 20.
    assert.ok(commits.all - before <= 5, `${commits.all - before} commits`);
    for (const [i, id] of members.entries()) assert.equal((await sa.own(id))?.lat, 33 + i * 0.1 + 0.00001);
  }));

Deno.test("quiet writes - a guessed write within the cell keeps the shown record's point; a refresh or a read computes it", async () => {
  // Two instances whose secrets differ, so a point computed anew is told from the one kept.
  const dir = await Deno.makeTempDir();
  const db = await Deno.openKv(`${dir}/p.kv`);
  try {
    const sa = new PositionStore(db, { secret: "first" }), sb = new PositionStore(db, { secret: "second" });
    const grid = sa.grid, cell = grid.cellOf(33.45, -112.07);
    const first = shownPoint("first", "m", grid, cell), second = shownPoint("second", "m", grid, cell);
    assert.notDeepEqual(first, second);
    await sa.report("m", gps(33.45));
    await sb.load();
    // B guesses from its index and the member stays in the cell: the shown record's point stays.
    const quiet = await sb.report("m", gps(33.45001));
    assert.deepEqual({ lat: quiet.shownLat, lon: quiet.shownLon }, first);
    assert.equal((await sb.own("m"))?.shownLat, first.lat, "the private record holds the shown record's point");
    assert.equal((await sb.shown("m"))?.lat, first.lat);
    // A report without the other point reads the private record: its point is computed.
    const read = await sb.report("m", { lat: 33.45002, lon: -112.07, use: "DEVICE_GPS", hide: false });
    assert.deepEqual({ lat: read.shownLat, lon: read.shownLon }, second);
    assert.equal((await sb.shown("m"))?.lat, second.lat);
    // A refresh of the shown record computes the point too.
    await sa.load();
    shiftClock(SHOWN_REFRESH_MS);
    const refreshed = await sa.report("m", gps(33.45003));
    assert.deepEqual({ lat: refreshed.shownLat, lon: refreshed.shownLon }, first);
  } finally {
    resetClock();
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

kvTest("quiet writes - a report that keeps the shown point rewrites only the private record for 15 min", async () => {
  const countLog = async () => {
    let n = 0;
    for await (const _ of kv().list({ prefix: keys.positionsLogAll() })) n++;
    return n;
  };
  await reportPosition("q", { lat: 33.45, lon: -112.07, use: "DEVICE_GPS", hide: false });
  const first = (await getShownPosition("q"))!;
  const logs = await countLog();
  shiftClock(60_000);
  const own = await reportPosition("q", { lat: 33.45001, lon: -112.07001, use: "DEVICE_GPS", hide: false });
  assert.equal(own.lat, 33.45001);
  assert.equal(await countLog(), logs);
  assert.deepEqual(await getShownPosition("q"), first);
  // After the refresh interval the shown record (and its expiry) move on.
  shiftClock(SHOWN_REFRESH_MS);
  await reportPosition("q", { lat: 33.45, lon: -112.07, use: "DEVICE_GPS", hide: false });
  assert.equal(await countLog(), logs + 1);
  const later = (await getShownPosition("q"))!;
  assert.equal(later.lat, first.lat);
  assert.ok(later.tsEffectiveUntil > first.tsEffectiveUntil);
  // Hiding is never quiet.
  await reportPosition("q", { lat: 33.45, lon: -112.07, use: "DEVICE_GPS", hide: true });
  assert.equal(await getShownPosition("q"), null);
});

Deno.test("secret - GEO_SECRET wins; otherwise one generated secret is kept in KV and shared", async () => {
  const db = await Deno.openKv(":memory:");
  try {
    const a = new PositionStore(db), b = new PositionStore(db);
    const [sa, sb] = await Promise.all([a.secret(), b.secret()]);
    assert.ok(sa.length >= 32);
    assert.equal(sa, sb);
    assert.equal((await db.get(keys.positionsSecret())).value, sa);
    await a.report("x", { lat: 1, lon: 1, use: "OVERRIDE", hide: false });
    const cell = a.grid.cellOf(1, 1);
    assert.deepEqual(
      await b.own("x").then((o) => ({ lat: o!.shownLat, lon: o!.shownLon })),
      shownPoint(sa, "x", a.grid, cell),
    );
    const before = Deno.env.get("GEO_SECRET");
    Deno.env.set("GEO_SECRET", "from-the-environment");
    try {
      assert.equal(await new PositionStore(db).secret(), "from-the-environment");
    } finally {
      if (before === undefined) Deno.env.delete("GEO_SECRET");
      else Deno.env.set("GEO_SECRET", before);
    }
  } finally {
    db.close();
  }
});

kvTest("search paths - ring walk (dense index) and occupied-block scan (huge box) agree with brute force", async () => {
  const rand = rng(21);
  // Spread thinly so the index holds thousands of blocks: nearest then walks rings of blocks.
  const items = Array.from({ length: 6000 }, (_, i) => ({
    profileId: `s${String(i).padStart(5, "0")}`,
    lat: -23.5 + (rand() - 0.5) * 3,
    lon: -46.6 + (rand() - 0.5) * 3,
    use: "OVERRIDE" as const,
    hide: false,
  }));
  await importPositions(items);
  const shown = await shownOf(items.map((i) => i.profileId));
  for (const v of items.slice(0, 15)) {
    const me = shown.find((s) => s.profileId === v.profileId)!;
    const near = bruteForce(
      me,
      shown,
      (s) => s.profileId !== v.profileId && Math.abs(s.lat - me.lat) <= 1 && Math.abs(s.lon - me.lon) <= 1,
    );
    assert.deepEqual(ids(await nearest(v.profileId, { size: 200 })), near.slice(0, 200).map((e) => e.id));
    const box = { latMin: me.lat - 0.3, latMax: me.lat + 0.2, lonMin: me.lon - 0.1, lonMax: me.lon + 0.4 };
    const inBox = bruteForce(
      me,
      shown,
      (s) =>
        s.profileId !== v.profileId && s.lat >= box.latMin && s.lat <= box.latMax && s.lon >= box.lonMin &&
        s.lon <= box.lonMax,
    );
    assert.deepEqual(ids(await byBounds({ ...box, size: 300 }, v.profileId)), inBox.slice(0, 300).map((e) => e.id));
  }
  // The whole world: every member but the viewer, nearest first, without walking empty rings.
  const t0 = performance.now();
  const world = await byBounds({ latMin: -90, lonMin: -180, latMax: 90, lonMax: 180, size: 2000 }, items[0].profileId);
  assert.ok(performance.now() - t0 < 2000);
  const me = shown[0];
  assert.deepEqual(
    ids(world),
    bruteForce(me, shown, (s) => s.profileId !== me.profileId).slice(0, 2000).map((e) => e.id),
  );
  const far = await byBounds(
    { latMin: -90, lonMin: -180, latMax: 90, lonMax: 180, page: 2, size: 2000 },
    items[0].profileId,
  );
  assert.equal(far.items.length, 1999);
});

kvTest("other point - given fields are stored as given, absent ones are kept", async () => {
  await reportPosition("o", { lat: 10, lon: 10, use: "OVERRIDE", hide: false });
  let own = await reportPosition("o", { lat: 10.001, lon: 10.001, use: "DEVICE_GPS", hide: false, gpsTimestamp: 5 });
  assert.deepEqual([own.overrideLat, own.gpsLat, own.gpsTimestamp, own.use], [10, 10.001, 5, "DEVICE_GPS"]);
  // The client's full body: the other point given (here cleared), no read needed.
  own = await reportPosition("o", {
    lat: 10.002,
    lon: 10.002,
    use: "DEVICE_GPS",
    hide: false,
    overrideLat: null,
    overrideLon: null,
  });
  assert.deepEqual([own.overrideLat, own.overrideLon, own.gpsLat], [null, null, 10.002]);
  assert.deepEqual(await getOwnPosition("o"), own);
  own = await reportPosition("o", { lat: 11, lon: 11, use: "OVERRIDE", hide: false, gpsLat: 10.5, gpsLon: 10.5 });
  assert.deepEqual([own.overrideLat, own.gpsLat, own.gpsLon, own.gpsTimestamp], [11, 10.5, 10.5, null]);
  own = await reportPosition("o", { lat: 11, lon: 11, use: "OVERRIDE", hide: false, gpsTimestamp: 7 });
  assert.deepEqual([own.gpsLat, own.gpsTimestamp], [10.5, 7]);
  await assert.rejects(
    reportPosition("o", { lat: 1, lon: 1, use: "OVERRIDE", hide: false, gpsLat: 95, gpsLon: 0 }),
    GeoInputError,
  );
  // A read-free write after a quiet one still passes its check (the quiet write's versionstamp is known).
  for (let i = 0; i < 5; i++) {
    await reportPosition("o", {
      lat: 11,
      lon: 11 + i * 1e-5,
      use: "OVERRIDE",
      hide: false,
      gpsLat: null,
      gpsLon: null,
    });
  }
  assert.equal((await getOwnPosition("o"))?.lon, 11 + 4 * 1e-5);
});
