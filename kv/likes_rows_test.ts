import assert from "node:assert/strict";
import { testApp } from "../tests/api.ts";
import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { likeSets, listedLikeOf, listRow } from "./likes.ts";
import type { ProfileLike } from "../domain/shapes/likes.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

/** The stored record of a like and its two list rows' keys. */
async function rowsOf(liker: Member, liked: Member) {
  const record = (await kv().get<ProfileLike & { seq: string }>(keys.profileLike(liker.profileId, liked.profileId)))
    .value!;
  return {
    record,
    given: keys.profileLikeByLiker(liker.profileId, record.likeType, record.seq, liked.profileId),
    received: keys.profileLikeByLiked(liked.profileId, record.likeType, record.seq, liker.profileId),
  };
}

/** Both lists of a like as the two members get them (JSON text: byte for byte). */
async function lists(t: T, liker: Member, liked: Member, type = "LIKE"): Promise<string[]> {
  const given = await t.call("GET", `/api/profile-likes/by-liker/${liker.profileId}?likeType=${type}`, {
    cookie: liker.cookie,
  });
  const received = await t.call("GET", `/api/profile-likes/by-liked/${liked.profileId}`, { cookie: liked.cookie });
  assert.equal(given.status, 200);
  assert.equal(received.status, 200);
  return [given.text, received.text];
}

Deno.test("like rows - a like's list rows are one number each: its time and its blocked flag", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const put = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "LIKE" },
    });
    assert.equal(put.status, 200);
    const { record, given, received } = await rowsOf(a, b);
    for (const key of [given, received]) {
      const row = (await kv().get(key)).value;
      assert.ok(row instanceof Deno.KvU64, "stored as a number, not a serialized object");
      assert.equal(row.value, BigInt(record.tsCreated) * 2n);
      assert.deepEqual(listedLikeOf(row), { tsCreated: put.data.tsCreated, blocked: false });
    }
    // Blocked: the same time, the flag in the lowest bit.
    const block = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "LIKE", blocked: true },
    });
    assert.equal(block.status, 200);
    const row = (await kv().get<Deno.KvU64>(given)).value!;
    assert.equal(row.value, BigInt(record.tsCreated) * 2n + 1n);
    assert.deepEqual(listedLikeOf(row), { tsCreated: record.tsCreated, blocked: true });
    // A time one number cannot hold whole is written as before.
    assert.deepEqual(listRow(1.5, true), { tsCreated: 1.5, blocked: true });
  } finally {
    t.close();
  }
});

Deno.test("like rows - rows written before as objects list the same, byte for byte, and count in the map's filters", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    for (const [x, y, likeType] of [[a, b, "LIKE"], [a, c, "DISLIKE"], [c, b, "LIKE"]] as const) {
      const put = await t.call("PUT", "/api/profile-like", {
        cookie: x.cookie,
        json: { likerProfileId: x.profileId, likedProfileId: y.profileId, likeType },
      });
      assert.equal(put.status, 200);
    }
    const now = [await lists(t, a, b), await lists(t, a, c, "DISLIKE"), await lists(t, c, b)];
    // Each list shows its like (a list of nothing would read the same either way).
    assert.ok(now[0][0].includes(b.profileId) && now[0][1].includes(a.profileId) && now[2][1].includes(c.profileId));
    assert.ok(now[1][0].includes(c.profileId));
    const sets = JSON.stringify(Object.entries(await likeSets(b.profileId)).map(([k, v]) => [k, [...v].sort()]));

    // The same rows as an older app wrote them: `{tsCreated, blocked}`, and the whole record before that.
    for (const [x, y, whole] of [[a, b, false], [a, c, true], [c, b, false]] as const) {
      const { record, given, received } = await rowsOf(x, y);
      const old = whole ? { ...record } : { tsCreated: record.tsCreated, blocked: record.blocked };
      await kv().atomic().set(given, old).set(received, old).commit();
      assert.ok(!((await kv().get(given)).value instanceof Deno.KvU64));
    }
    assert.deepEqual([await lists(t, a, b), await lists(t, a, c, "DISLIKE"), await lists(t, c, b)], now);
    assert.equal(JSON.stringify(Object.entries(await likeSets(b.profileId)).map(([k, v]) => [k, [...v].sort()])), sets);
  } finally {
    t.close();
  }
});
