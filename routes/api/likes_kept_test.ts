import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { createAccount } from "../../kv/accounts.ts";
import { createSession } from "../../kv/sessions.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile } from "../../kv/profiles.ts";
import { now } from "../../kv/clock.ts";
import { startKeptReads } from "../../kv/kept.ts";
import { eventBus } from "../../kv/events.ts";
import { picRecord } from "../../tests/fixtures/pictures.ts";
import type { HotKeepBest } from "../../domain/shapes/hotOrNot.ts";
import { saveReport } from "../../kv/reports.ts";
import { adminConfirmed, endStay } from "../../kv/games/dungeon.ts";
import { SYSTEM } from "../../kv/audit.ts";
import { until } from "../../tests/wait.ts";

interface Someone {
  profileId: string;
  cookie: string;
}

/** A member made in the store with a session, with `pics` public pictures (records only). */
async function someone(pics = 0): Promise<Someone & { pics: string[] }> {
  const a = (await createAccount({ email: `k${crypto.randomUUID().slice(0, 10)}@example.com` }))!;
  const { token } = await createSession(a.id, true, "Test", "link");
  const p = (await getProfile(a.defaultProfileId))!;
  const records = Array.from(
    { length: pics },
    () => picRecord({ profileId: p.id, tsCreated: now(), tsUpdated: now() }),
  );
  for (const x of records) await kv().set(keys.pic(x.id), x);
  await kv().set(keys.profile(p.id), { ...p, profilePicIds: records.map((x) => x.id) });
  return { profileId: a.defaultProfileId, cookie: `__Host-sid=${token}`, pics: records.map((x) => x.id) };
}

/** The likes counted for each of `owner`'s pictures by 'Keep my best picture first', as stored. */
async function won(owner: string): Promise<Record<string, number>> {
  const s = (await kv().get<HotKeepBest>(keys.hotKeepBest(owner))).value;
  return Object.fromEntries(Object.entries(s?.arms ?? {}).map(([id, arm]) => [id, arm.won]));
}

/** Waits until `owner`'s stored counts are `expected`: a like's count runs after its answer. */
const wonBecomes = (owner: string, expected: Record<string, number>) =>
  until(
    async () => JSON.stringify(await won(owner)) === JSON.stringify(expected),
    `the counts ${JSON.stringify(expected)}`,
  );

Deno.test("likes with kept reads - a new like counts for the liked member's first picture when 'Keep my best picture first' is on, also once it was off", async () => {
  const t = await testApp();
  // As the server runs: reads kept by the instance, forgotten through the change log.
  startKeptReads();
  await eventBus().log.tail();
  try {
    const owner = await someone(2);
    const [a, b, c, d] = [await someone(), await someone(), await someone(), await someone()];
    const like = (m: Someone) =>
      t.call("PUT", "/api/profile-like", {
        cookie: m.cookie,
        json: { likerProfileId: m.profileId, likedProfileId: owner.profileId, likeType: "LIKE" },
      });
    // Off: a like counts nothing (and the instance keeps that the setting is off).
    assert.equal((await like(a)).status, 200);
    // Switched on: the kept "off" is forgotten, and the next like counts for the first picture.
    const on = await t.call("PUT", "/api/games/hotornot/keep-best", { cookie: owner.cookie, json: { on: true } });
    assert.equal(on.status, 200);
    assert.equal((await like(b)).status, 200);
    // One, not two: a's like, answered before the switch, would have counted by now.
    await wonBecomes(owner.profileId, { [owner.pics[0]]: 1 });
    assert.equal((await like(c)).status, 200);
    // The same like again is not new: it counts nothing more. A like of the second picture after it,
    // counted before its answer, is the sign that a count of the repeat would have run by then.
    assert.equal((await like(c)).status, 200);
    const picLike = await t.call("PUT", "/api/profile-pic-like", {
      cookie: d.cookie,
      json: {
        likerProfileId: d.profileId,
        profilePicProfileId: owner.profileId,
        profilePicId: owner.pics[1],
        likeType: "LIKE",
      },
    });
    assert.equal(picLike.status, 200, picLike.text);
    await wonBecomes(owner.profileId, { [owner.pics[0]]: 2, [owner.pics[1]]: 1 });
  } finally {
    await eventBus().stop();
    t.close();
  }
});

Deno.test("likes with kept reads - a member sent to a time-out is refused a like at once, and may like again once it ends, though the instance kept their restriction", async () => {
  const t = await testApp();
  startKeptReads();
  await eventBus().log.tail();
  try {
    const [bad, x, y, z] = [await someone(), await someone(), await someone(), await someone()];
    const like = (to: Someone) =>
      t.call("PUT", "/api/profile-like", {
        cookie: bad.cookie,
        json: { likerProfileId: bad.profileId, likedProfileId: to.profileId, likeType: "LIKE" },
      });
    // No time-out: the like lands (and the instance keeps that there is none).
    assert.equal((await like(x)).status, 200);
    const report = await saveReport(z.profileId, bad.profileId, "rude", "He was rude in chat.");
    const stay = await adminConfirmed(report.id, SYSTEM);
    assert.ok(stay);
    const refused = await like(y);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.data.error.code, "dungeon_restricted");
    // Ended by an admin: the next like lands.
    assert.equal((await endStay(SYSTEM, bad.profileId)).ok, true);
    assert.equal((await like(y)).status, 200);
  } finally {
    await eventBus().stop();
    t.close();
  }
});

Deno.test("likes - likes that come while another like is being committed read their stored likes in one store call", async () => {
  const t = await testApp();
  const db = kv();
  const atomic = db.atomic.bind(db);
  const { get, getMany } = Deno.Kv.prototype;
  // The first like's commit (the first atomic that writes a stored like) is held in flight until released.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let held!: () => void;
  const holding = new Promise<void>((r) => (held = r));
  let hold = false;
  db.atomic = () => {
    const op = atomic();
    const commit = op.commit.bind(op);
    const set = op.set.bind(op);
    let like = false;
    op.set = (key, value, options) => {
      like ||= key[0] === keys.profileLike("", "")[0];
      return set(key, value, options);
    };
    op.commit = async () => {
      if (hold && like) {
        hold = false;
        held();
        await released;
      }
      return await commit();
    };
    return op;
  };
  try {
    // As the server runs: the callers' sessions kept, so that a like's reads begin as its body is read.
    startKeptReads();
    await eventBus().log.tail();
    const [first, target, ...likers] = await Promise.all(Array.from({ length: 6 }, () => someone()));
    for (const m of [first, ...likers]) {
      assert.equal((await t.call("GET", "/api/ping", { cookie: m.cookie })).status, 200);
    }
    const like = (m: Someone, to: Someone, likeType = "LIKE") =>
      t.call("PUT", "/api/profile-like", {
        cookie: m.cookie,
        json: { likerProfileId: m.profileId, likedProfileId: to.profileId, likeType },
      });
    hold = true;
    const firstLike = like(first, target);
    await holding;
    // How many stored likes each store read call carried, from now on.
    const calls: number[] = [];
    const stored = keys.profileLike(first.profileId, target.profileId)[0];
    const count = (read: Deno.KvKey[]) => {
      const likes = read.filter((k) => k[0] === stored).length;
      if (likes > 0) calls.push(likes);
    };
    Deno.Kv.prototype.get = function (this: Deno.Kv, key: Deno.KvKey, o?: { consistency?: Deno.KvConsistencyLevel }) {
      count([key]);
      return get.call(this, key, o);
    } as typeof get;
    Deno.Kv.prototype.getMany = function (
      this: Deno.Kv,
      read: Deno.KvKey[],
      o?: { consistency?: Deno.KvConsistencyLevel },
    ) {
      count(read);
      return getMany.call(this, read, o);
    } as typeof getMany;
    // Four dislikes (a like's reads of the liker's limits and of what a notification needs would
    // fill a store call's ten keys) begun in one turn of the event loop, each a few steps of its
    // own behind the last, as requests come: their bodies read at different moments.
    const later: ReturnType<typeof like>[] = [];
    for (const m of likers) {
      later.push(like(m, target, "DISLIKE"));
      for (let i = 0; i < 40; i++) await Promise.resolve();
    }
    await until(() => Promise.resolve(calls.reduce((a, b) => a + b, 0) >= likers.length), "the likes' reads");
    Object.assign(Deno.Kv.prototype, { get, getMany });
    release();
    for (const r of [await firstLike, ...await Promise.all(later)]) assert.equal(r.status, 200, r.text);
    assert.deepEqual(calls, [likers.length]);
    const given = await Promise.all(
      likers.map((m) =>
        t.call("GET", `/api/profile-like?likerProfileId=${m.profileId}&likedProfileId=${target.profileId}`, {
          cookie: m.cookie,
        })
      ),
    );
    assert.deepEqual(given.map((r) => r.data.likeType), likers.map(() => "DISLIKE"));
  } finally {
    Object.assign(Deno.Kv.prototype, { get, getMany });
    db.atomic = atomic;
    release();
    await eventBus().stop();
    t.close();
  }
});
