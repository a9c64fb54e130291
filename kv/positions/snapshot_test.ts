import assert from "node:assert/strict";
import { PositionStore } from "./mod.ts";
import { newId } from "../ids.ts";
import { resetClock, shiftClock } from "../clock.ts";
import { mulberry32 as rng } from "../random.ts";
import { decodeSnapshot, encodeSnapshot, SNAPSHOT_MAX_AGE_MS } from "./snapshot.ts";

async function community(store: PositionStore, n: number): Promise<string[]> {
  const rand = rng(7);
  const ids = Array.from({ length: n }, () => newId());
  for (const id of ids) {
    await store.report(id, {
      lat: 52.5 + (rand() - 0.5) * 0.2,
      lon: 13.4 + (rand() - 0.5) * 0.2,
      use: "OVERRIDE",
      hide: false,
    });
  }
  return ids;
}

const ids = (page: { items: { profileId: string; distanceMeters: number }[] }) =>
  page.items.map((i) => `${i.profileId}@${i.distanceMeters.toFixed(3)}`);

Deno.test("positions snapshot - a new instance starts from it plus the log, and answers as a full load does", async () => {
  const db = await Deno.openKv(":memory:");
  try {
    const a = new PositionStore(db, { secret: "s" });
    const members = await community(a, 300);
    const written = await a.writeSnapshot();
    assert.equal(written?.members, 300);
    // After the snapshot: one member moves far away, one hides, a newcomer arrives.
    await a.report(members[0], { lat: -33.9, lon: 151.2, use: "OVERRIDE", hide: false });
    await a.report(members[1], { lat: 52.5, lon: 13.4, use: "OVERRIDE", hide: true });
    const late = newId();
    await a.report(late, { lat: 52.51, lon: 13.41, use: "OVERRIDE", hide: false });

    const b = new PositionStore(db, { secret: "s" });
    const loaded = await b.load();
    assert.equal(loaded.from, "snapshot");
    assert.equal(loaded.members, 300); // 300 - 1 hidden + 1 newcomer; the mover is still indexed
    for (const viewer of [members[5], members[77], late]) {
      assert.deepEqual(ids(await b.nearest(viewer, { size: 50 })), ids(await a.nearest(viewer, { size: 50 })));
    }
    const full = new PositionStore(db, { secret: "s" });
    await db.delete(["blobs", "positions-snapshot"]);
    assert.equal((await full.load()).from, "records");
    assert.deepEqual(
      ids(await b.nearest(members[9], { size: 300 })),
      ids(await full.nearest(members[9], { size: 300 })),
    );
    assert.ok(
      !(await b.nearest(members[9], { size: 300 })).items.some((i) => i.profileId === members[1]),
      "hidden stays hidden",
    );
  } finally {
    db.close();
  }
});

Deno.test("positions snapshot - an old snapshot is not used (the log may not reach back to it); expired members are left out", async () => {
  const db = await Deno.openKv(":memory:");
  try {
    const a = new PositionStore(db, { secret: "s" });
    await community(a, 20);
    await a.writeSnapshot();
    shiftClock(SNAPSHOT_MAX_AGE_MS + 60_000);
    assert.equal((await new PositionStore(db, { secret: "s" }).load()).from, "records");
  } finally {
    resetClock();
    db.close();
  }
  const index = new (await import("./memoryIndex.ts")).PositionIndex();
  index.apply({ p: "old", s: "52:13", lat: 52.1, lon: 13.1, ts: 1, u: 1000 }, "0001");
  index.apply({ p: "new", s: "52:13", lat: 52.2, lon: 13.2, ts: 1, u: 5000 }, "0002");
  const back = decodeSnapshot(encodeSnapshot(index, "0002", 3000), 2000);
  assert.deepEqual([...back.index.members.keys()], ["new"]);
  assert.equal(back.cursor, "0002");
  assert.equal(back.index.versions.get("new"), "0002"); // the cursor: every later change is newer
  const m = back.index.members.get("new")!;
  assert.deepEqual([m.lat, m.lon, m.until, m.sector], [52.2, 13.2, 5000, "52:13"]);
});
