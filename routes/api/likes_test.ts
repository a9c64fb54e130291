import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { createAccount, getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile } from "../../kv/profiles.ts";
import { blockedSet, isBlockedEither } from "../../kv/blocks.ts";
import { likeSets, putProfileLike } from "../../kv/likes.ts";
import { picLikeTally, receivedLikeCounts } from "../../tests/kv.ts";
import { newId } from "../../kv/ids.ts";
import { now, shiftClock } from "../../kv/clock.ts";
import { grantPictureAccess, type ProfilePic } from "../../kv/pictures.ts";
import type { Profile } from "../../domain/shapes/profiles.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

const like = (a: Member, b: Member, likeType = "LIKE", extra: Record<string, unknown> = {}) => ({
  likerProfileId: a.profileId,
  likedProfileId: b.profileId,
  likeType,
  blocked: false,
  tsCreated: 0,
  ...extra,
});

/** Gives a profile public and private pictures (records only: likes never read the bytes). */
async function withPics(m: Member, pub: number, priv = 0): Promise<Profile> {
  const p = (await getProfile(m.profileId))!;
  const pic = (): ProfilePic => {
    const id = newId();
    const at = now();
    const base = { width: 800, height: 1000, sourceWidth: 800, sourceHeight: 1000, crop: null };
    return { id, profileId: p.id, nsfw: false, gen: newId(), ...base, tsCreated: at, tsUpdated: at };
  };
  const pubs = Array.from({ length: pub }, pic), privs = Array.from({ length: priv }, pic);
  const next = { ...p, profilePicIds: pubs.map((x) => x.id), profilePicIdsPrivate: privs.map((x) => x.id) };
  for (const x of [...pubs, ...privs]) await kv().set(keys.pic(x.id), x);
  await kv().set(keys.profile(p.id), next);
  return next;
}

async function adminMember(t: T): Promise<Member> {
  const a = await t.member(`admin-${crypto.randomUUID().slice(0, 6)}@example.com`);
  await setRoles((await getAccountByEmail(a.email))!.id, ["USER", "ADMIN"]);
  return a;
}

/** Every key under the likes and blocks prefixes: to prove bad input stored nothing. */
async function likeKeys(): Promise<number> {
  let n = 0;
  for (const prefix of ["profile_likes", "profile_likes_by_liker", "profile_likes_by_liked", "pic_likes", "blocks"]) {
    for await (const _ of kv().list({ prefix: [prefix] })) n++;
  }
  return n;
}

Deno.test("likes - a like is written with both indexes; the liked member sees it under by-liked", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const put = await t.call("PUT", "/api/profile-like", { cookie: a.cookie, json: like(a, b) });
    assert.equal(put.status, 200);
    assert.equal(put.data.likeType, "LIKE");
    assert.equal(put.data.blocked, false);
    assert.ok(put.data.tsCreated > 0, "the server sets the time");
    assert.equal(put.data.seq, undefined, "the index position is not sent");

    const mine = await t.call("GET", `/api/profile-likes/by-liker/${a.profileId}`, { cookie: a.cookie });
    assert.equal(mine.status, 200);
    assert.deepEqual(mine.data.items.map((i: { likedProfileId: string }) => i.likedProfileId), [b.profileId]);
    assert.equal(mine.data.items[0].other.profileId, b.profileId);
    assert.equal(mine.data.cursor, null);

    const theirs = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}`, { cookie: b.cookie });
    assert.equal(theirs.status, 200);
    assert.equal(theirs.data.items.length, 1);
    assert.equal(theirs.data.items[0].likerProfileId, a.profileId);
    assert.equal(theirs.data.items[0].other.profileId, a.profileId);
    assert.equal(typeof theirs.data.items[0].other.profileName, "string");

    const one = await t.call("GET", `/api/profile-like?likerProfileId=${a.profileId}&likedProfileId=${b.profileId}`, {
      cookie: a.cookie,
    });
    assert.equal(one.status, 200);
    assert.equal(one.data.likeType, "LIKE");
    const none = await t.call("GET", `/api/profile-like?likerProfileId=${b.profileId}&likedProfileId=${a.profileId}`, {
      cookie: b.cookie,
    });
    assert.equal(none.status, 200);
    assert.deepEqual(none.data, {
      likerProfileId: b.profileId,
      likedProfileId: a.profileId,
      likeType: "UNDETERMINED",
      blocked: false,
      tsCreated: 0,
    });
  } finally {
    t.close();
  }
});

Deno.test("likes - a second identical like is a no-op", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const first = await t.call("PUT", "/api/profile-like", { cookie: a.cookie, json: like(a, b) });
    const before = (await kv().get(keys.profileLike(a.profileId, b.profileId))).versionstamp;
    const second = await t.call("PUT", "/api/profile-like", { cookie: a.cookie, json: like(a, b) });
    assert.equal(second.status, 200);
    assert.deepEqual(second.data, first.data);
    assert.equal((await kv().get(keys.profileLike(a.profileId, b.profileId))).versionstamp, before, "nothing written");
    assert.equal((await receivedLikeCounts(b.profileId)).LIKE, 1);
    const list = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}`, { cookie: b.cookie });
    assert.equal(list.data.items.length, 1);
  } finally {
    t.close();
  }
});

Deno.test("likes - the likes received stay exact by type through like, dislike and remove; lists follow the type", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    const put = (m: Member, type: string) =>
      t.call("PUT", "/api/profile-like", { cookie: m.cookie, json: like(m, b, type) });
    assert.equal((await put(a, "LIKE")).status, 200);
    assert.equal((await put(c, "LIKE")).status, 200);
    assert.deepEqual(await receivedLikeCounts(b.profileId), { LIKE: 2, DISLIKE: 0, UNDETERMINED: 0 });
    assert.equal((await put(a, "DISLIKE")).status, 200);
    assert.deepEqual(await receivedLikeCounts(b.profileId), { LIKE: 1, DISLIKE: 1, UNDETERMINED: 0 });
    const byLiked = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}`, { cookie: b.cookie });
    assert.deepEqual(byLiked.data.items.map((i: { likerProfileId: string }) => i.likerProfileId), [c.profileId]);
    const disliked = await t.call("GET", `/api/profile-likes/by-liker/${a.profileId}?likeType=DISLIKE`, {
      cookie: a.cookie,
    });
    assert.equal(disliked.data.items.length, 1);
    assert.equal((await put(a, "UNDETERMINED")).status, 200); // Remove Like
    assert.deepEqual(await receivedLikeCounts(b.profileId), { LIKE: 1, DISLIKE: 0, UNDETERMINED: 1 });
    assert.equal((await put(c, "UNDETERMINED")).status, 200);
    assert.deepEqual(await receivedLikeCounts(b.profileId), { LIKE: 0, DISLIKE: 0, UNDETERMINED: 2 });
    const empty = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}`, { cookie: b.cookie });
    assert.deepEqual(empty.data, { items: [], cursor: null });
    const given = await t.call("GET", `/api/profile-likes/by-liker/${a.profileId}`, { cookie: a.cookie });
    assert.deepEqual(given.data.items, []);
    // Index entries are moved, not added: one per record in each index.
    let n = 0;
    for await (const _ of kv().list({ prefix: ["profile_likes_by_liked", b.profileId] })) n++;
    assert.equal(n, 2);
  } finally {
    t.close();
  }
});

Deno.test("likes - lists are newest first, 20 a page, with a cursor", async () => {
  const t = await testApp();
  try {
    const b = await t.member();
    // Registration is rate limited per address: the likers are made in the store.
    const likers: string[] = [];
    for (let i = 0; i < 23; i++) {
      const acc = (await createAccount({ email: `liker${i}@example.com` }))!;
      likers.push(acc.defaultProfileId);
      await putProfileLike(acc.defaultProfileId, b.profileId, "LIKE");
      shiftClock(1); // lists are ordered to the millisecond
    }
    const p1 = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}`, { cookie: b.cookie });
    assert.equal(p1.data.items.length, 20);
    assert.equal(p1.data.items[0].likerProfileId, likers[22], "newest first");
    assert.ok(p1.data.cursor);
    const p2 = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}?cursor=${p1.data.cursor}`, {
      cookie: b.cookie,
    });
    assert.equal(p2.data.items.length, 3);
    assert.equal(p2.data.cursor, null);
    assert.equal(p2.data.items[2].likerProfileId, likers[0]);
    const bad = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}?cursor=%25%25`, { cookie: b.cookie });
    assert.equal(bad.status, 400);
  } finally {
    t.close();
  }
});

Deno.test("likes - only as oneself and only about oneself: other member, admin, anonymous", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), admin = await adminMember(t);
    await t.call("PUT", "/api/profile-like", { cookie: a.cookie, json: like(a, b) });
    const before = await likeKeys();
    for (const who of [b, admin]) {
      const forged = await t.call("PUT", "/api/profile-like", { cookie: who.cookie, json: like(a, b, "DISLIKE") });
      assert.equal(forged.status, 403, "liking as someone else");
      for (
        const path of [
          `/api/profile-likes/by-liker/${a.profileId}`,
          `/api/profile-likes/by-liked/${a.profileId}`,
          `/api/profile-like?likerProfileId=${a.profileId}&likedProfileId=${b.profileId}`,
          `/api/profile-pic-likes/by-liker-profileid/${a.profileId}`,
          `/api/profile-pic-likes/by-liked-profileid/${a.profileId}`,
        ]
      ) assert.equal((await t.call("GET", path, { cookie: who.cookie })).status, 403, path);
    }
    for (
      const [method, path] of [
        ["GET", `/api/profile-likes/by-liker/${a.profileId}`],
        ["GET", `/api/profile-likes/by-liked/${a.profileId}`],
        ["GET", `/api/profile-like?likerProfileId=${a.profileId}&likedProfileId=${b.profileId}`],
        ["PUT", "/api/profile-like"],
        ["PUT", "/api/profile-pic-like"],
        ["GET", `/api/profile-pic-likes/by-liker-profileid/${a.profileId}`],
        ["GET", `/api/profile-pic-likes/by-liked-profileid/${a.profileId}`],
      ]
    ) {
      const r = await t.call(method, path, method === "PUT" ? { json: like(a, b) } : {});
      assert.equal(r.status, 401, `${method} ${path}`);
    }
    assert.equal(await likeKeys(), before, "nothing stored");
    const own = await t.call("GET", `/api/profile-like?likerProfileId=${a.profileId}&likedProfileId=${b.profileId}`, {
      cookie: a.cookie,
    });
    assert.equal(own.data.likeType, "LIKE", "the forged dislike changed nothing");
  } finally {
    t.close();
  }
});

Deno.test("likes - bad input is a clear 400 or 404 and stores nothing", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const cases: [unknown, number][] = [
      [like(a, b, "ERROR"), 400],
      [like(a, b, "MAYBE"), 400],
      [like(a, b, "like"), 400],
      [{ likedProfileId: b.profileId, likeType: "LIKE" }, 400],
      [{ likerProfileId: a.profileId, likeType: "LIKE" }, 400],
      [{ likerProfileId: a.profileId, likedProfileId: b.profileId }, 400],
      [like(a, b, "LIKE", { blocked: "yes" }), 400],
      [like(a, b, "LIKE", { likedProfileId: "../../x" }), 400],
      [like(a, b, "LIKE", { likedProfileId: newId() }), 404],
      [like(a, a), 400],
      ["LIKE", 400],
      [null, 400],
    ];
    for (const [json, status] of cases) {
      const r = await t.call("PUT", "/api/profile-like", { cookie: a.cookie, json });
      assert.equal(r.status, status, JSON.stringify(json));
      assert.ok(r.data.error.code && r.data.error.message, "the one error shape");
    }
    const notJson = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      body: "{",
      headers: { "content-type": "application/json" },
    });
    assert.equal(notJson.status, 400);
    const ghost = newId();
    assert.equal(
      (await t.call("GET", `/api/profile-like?likerProfileId=${a.profileId}&likedProfileId=${ghost}`, {
        cookie: a.cookie,
      }))
        .status,
      404,
    );
    assert.equal(
      (await t.call("GET", `/api/profile-like?likerProfileId=${a.profileId}`, { cookie: a.cookie })).status,
      400,
    );
    assert.equal(
      (await t.call("GET", `/api/profile-likes/by-liker/${a.profileId}?likeType=ERROR`, { cookie: a.cookie })).status,
      400,
    );
    assert.equal((await t.call("GET", `/api/profile-likes/by-liker/${ghost}`, { cookie: a.cookie })).status, 403);
    assert.equal(await likeKeys(), 0, "nothing stored");
    assert.deepEqual(await receivedLikeCounts(b.profileId), { LIKE: 0, DISLIKE: 0, UNDETERMINED: 0 });
  } finally {
    t.close();
  }
});

Deno.test("likes - blocking sets the flag and the symmetric index; blocked either way hides from lists", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    // a and b like each other; c likes both.
    for (const [x, y] of [[a, b], [b, a], [c, a], [c, b]]) {
      await t.call("PUT", "/api/profile-like", { cookie: x.cookie, json: like(x, y) });
    }
    const block = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: like(a, b, "LIKE", { blocked: true }),
    });
    assert.equal(block.status, 200);
    assert.equal(block.data.blocked, true);
    assert.equal(await isBlockedEither(a.profileId, b.profileId), true);
    assert.equal(await isBlockedEither(b.profileId, a.profileId), true);
    assert.equal(await isBlockedEither(a.profileId, c.profileId), false);
    assert.deepEqual([...await blockedSet(a.profileId)], [b.profileId]);
    assert.deepEqual([...await blockedSet(b.profileId)], [a.profileId]);

    const ids = (r: { data: { items: { other: { profileId: string } }[] } }) =>
      r.data.items.map((i) => i.other.profileId);
    for (const [m, other] of [[a, b], [b, a]]) {
      const liked = await t.call("GET", `/api/profile-likes/by-liked/${m.profileId}`, { cookie: m.cookie });
      assert.deepEqual(ids(liked), [c.profileId], "the blocked member is hidden from who liked me");
      const given = await t.call("GET", `/api/profile-likes/by-liker/${m.profileId}`, { cookie: m.cookie });
      assert.deepEqual(ids(given), [], "and from whom I liked");
      assert.ok(!(await likeSets(m.profileId)).likedMyProfile.has(other.profileId));
    }
    // The blocked member cannot reach the blocker: same 404 as a missing profile.
    const back = await t.call("PUT", "/api/profile-like", { cookie: b.cookie, json: like(b, a, "DISLIKE") });
    assert.equal(back.status, 404);
    const peek = await t.call("GET", `/api/profile-like?likerProfileId=${b.profileId}&likedProfileId=${a.profileId}`, {
      cookie: b.cookie,
    });
    assert.equal(peek.status, 404);
    // The blocker's like of b keeps its type; counts did not move.
    assert.deepEqual(await receivedLikeCounts(b.profileId), { LIKE: 2, DISLIKE: 0, UNDETERMINED: 0 });

    // Unblocking restores everything.
    const unblock = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: like(a, b, "LIKE", { blocked: false }),
    });
    assert.equal(unblock.data.blocked, false);
    assert.equal(await isBlockedEither(a.profileId, b.profileId), false);
    const liked = await t.call("GET", `/api/profile-likes/by-liked/${b.profileId}`, { cookie: b.cookie });
    assert.equal(liked.data.items.length, 2);
  } finally {
    t.close();
  }
});

Deno.test("likes - a like without `blocked` keeps the stored flag", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    await t.call("PUT", "/api/profile-like", { cookie: a.cookie, json: like(a, b, "UNDETERMINED", { blocked: true }) });
    const r = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "DISLIKE" },
    });
    assert.equal(r.data.blocked, true);
    assert.equal(await isBlockedEither(a.profileId, b.profileId), true);
  } finally {
    t.close();
  }
});

Deno.test("picture likes - visible pictures only, counts exact, lists both ways", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), admin = await adminMember(t);
    const pb = await withPics(b, 3, 1);
    const [pub0, pub1] = pb.profilePicIds;
    const priv = pb.profilePicIdsPrivate[0];
    const picLike = (picId: string, likeType = "LIKE", extra = {}) => ({
      likerProfileId: a.profileId,
      profilePicId: picId,
      profilePicProfileId: b.profileId,
      likeType,
      tsCreated: 0,
      ...extra,
    });
    const put = (json: unknown, m = a) => t.call("PUT", "/api/profile-pic-like", { cookie: m.cookie, json });

    const r = await put(picLike(pub0));
    assert.equal(r.status, 200);
    assert.deepEqual(
      { ...r.data, tsCreated: 0 },
      {
        likerProfileId: a.profileId,
        profilePicId: pub0,
        profilePicProfileId: b.profileId,
        likeType: "LIKE",
        tsCreated: 0,
      },
    );
    assert.equal((await put(picLike(pub0))).status, 200, "again: no-op");
    assert.equal((await put(picLike(pub1))).status, 200);
    assert.deepEqual(await picLikeTally(pub0), { LIKE: 1, DISLIKE: 0, UNDETERMINED: 0 });
    assert.equal((await put(picLike(pub0, "DISLIKE"))).status, 200);
    assert.equal((await put(picLike(pub0, "UNDETERMINED"))).status, 200);
    assert.deepEqual(await picLikeTally(pub0), { LIKE: 0, DISLIKE: 0, UNDETERMINED: 1 });

    // Private pictures, pictures of another profile, unknown pictures: 404; bad input: 400.
    assert.equal((await put(picLike(priv))).status, 404);
    assert.equal((await put(picLike(newId()))).status, 404);
    assert.equal((await put(picLike(pub0, "LIKE", { profilePicProfileId: admin.profileId }))).status, 404);
    assert.equal((await put(picLike(pub0, "LIKE", { profilePicProfileId: newId() }))).status, 404);
    assert.equal((await put(picLike(pub0, "ERROR"))).status, 400);
    assert.equal((await put({ likerProfileId: a.profileId, likeType: "LIKE" })).status, 400);
    assert.equal((await put(picLike(pub0), b)).status, 403, "as someone else");
    assert.equal((await put(picLike(pub0), admin)).status, 403, "admin as someone else");
    assert.equal((await put({ ...picLike(pub0), likerProfileId: b.profileId }, b)).status, 400, "own picture");
    assert.deepEqual(await picLikeTally(priv), { LIKE: 0, DISLIKE: 0, UNDETERMINED: 0 });
    // A private picture sent in a chat (a grant) may be liked by its recipient.
    await grantPictureAccess(priv, a.profileId);
    assert.equal((await put(picLike(priv, "DISLIKE"))).status, 200);
    assert.equal((await put(picLike(priv, "UNDETERMINED"))).status, 200);

    const given = await t.call("GET", `/api/profile-pic-likes/by-liker-profileid/${a.profileId}`, { cookie: a.cookie });
    assert.deepEqual(given.data.items.map((i: { profilePicId: string }) => i.profilePicId), [pub1]);
    assert.equal(given.data.items[0].other.profileId, b.profileId);
    const onB = await t.call(
      "GET",
      `/api/profile-pic-likes/by-liker-profileid/${a.profileId}?profilePicProfileId=${b.profileId}`,
      { cookie: a.cookie },
    );
    assert.deepEqual(
      onB.data.items.map((i: { profilePicId: string; likeType: string }) => [i.profilePicId, i.likeType]).sort(),
      [[pub0, "UNDETERMINED"], [pub1, "LIKE"], [priv, "UNDETERMINED"]].sort(),
    );
    const received = await t.call("GET", `/api/profile-pic-likes/by-liked-profileid/${b.profileId}`, {
      cookie: b.cookie,
    });
    assert.deepEqual(received.data.items.map((i: { profilePicId: string }) => i.profilePicId), [pub1]);
    assert.equal(received.data.items[0].other.profileId, a.profileId);
    assert.deepEqual((await likeSets(b.profileId)).likedMyPics, new Set([a.profileId]));
    assert.deepEqual((await likeSets(a.profileId)).iLikedPics, new Set([b.profileId]));

    // A picture moved to private leaves the liker's list; blocking hides both lists.
    await kv().set(keys.profile(b.profileId), { ...pb, profilePicIds: [pub0], profilePicIdsPrivate: [priv, pub1] });
    const after = await t.call("GET", `/api/profile-pic-likes/by-liker-profileid/${a.profileId}`, { cookie: a.cookie });
    assert.deepEqual(after.data.items, []);
    await kv().set(keys.profile(b.profileId), pb);
    await t.call("PUT", "/api/profile-like", { cookie: b.cookie, json: like(b, a, "UNDETERMINED", { blocked: true }) });
    const hidden = await t.call("GET", `/api/profile-pic-likes/by-liked-profileid/${b.profileId}`, {
      cookie: b.cookie,
    });
    assert.deepEqual(hidden.data.items, []);
    assert.equal((await put(picLike(pub0))).status, 404, "the blocked member cannot like the blocker's pictures");
  } finally {
    t.close();
  }
});

Deno.test("picture likes - pages of 30", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    const pb = await withPics(b, 16);
    for (const m of [a, c]) {
      for (const picId of pb.profilePicIds) {
        const r = await t.call("PUT", "/api/profile-pic-like", {
          cookie: m.cookie,
          json: {
            likerProfileId: m.profileId,
            profilePicId: picId,
            profilePicProfileId: b.profileId,
            likeType: "LIKE",
          },
        });
        assert.equal(r.status, 200);
        shiftClock(1);
      }
    }
    const p1 = await t.call("GET", `/api/profile-pic-likes/by-liked-profileid/${b.profileId}`, { cookie: b.cookie });
    assert.equal(p1.data.items.length, 30);
    assert.equal(p1.data.items[0].profilePicId, pb.profilePicIds[15]);
    assert.equal(p1.data.items[0].likerProfileId, c.profileId);
    const p2 = await t.call(
      "GET",
      `/api/profile-pic-likes/by-liked-profileid/${b.profileId}?cursor=${p1.data.cursor}`,
      {
        cookie: b.cookie,
      },
    );
    assert.equal(p2.data.items.length, 2);
    assert.equal(p2.data.cursor, null);
  } finally {
    t.close();
  }
});

Deno.test("likes - a member lists whom they blocked and unblocks them; both see each other again", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member(), c = await t.member();
    const block = await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "LIKE", blocked: true, tsCreated: 0 },
    });
    assert.equal(block.status, 200);
    const list = await t.call("GET", "/api/blocks", { cookie: a.cookie });
    assert.deepEqual(list.data.map((x: { profileId: string }) => x.profileId), [b.profileId]);
    assert.equal(typeof list.data[0].profileName, "string");
    assert.deepEqual((await t.call("GET", "/api/blocks", { cookie: b.cookie })).data, [], "only the blocker's list");
    assert.equal((await t.call("GET", `/api/profile/${a.profileId}`, { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/blocks/${b.profileId}`, { cookie: c.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/blocks/${a.profileId}`, { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/blocks/${"x".repeat(65)}`, { cookie: a.cookie })).status, 400);
    assert.equal((await t.call("GET", "/api/blocks")).status, 401);
    assert.equal((await t.call("DELETE", `/api/blocks/${b.profileId}`, { cookie: a.cookie })).status, 200);
    assert.deepEqual((await t.call("GET", "/api/blocks", { cookie: a.cookie })).data, []);
    assert.equal((await t.call("GET", `/api/profile/${a.profileId}`, { cookie: b.cookie })).status, 200);
    const like = await t.call("GET", `/api/profile-like?likerProfileId=${a.profileId}&likedProfileId=${b.profileId}`, {
      cookie: a.cookie,
    });
    assert.equal(like.data.likeType, "LIKE", "the like kept its type");
    assert.equal(like.data.blocked, false);
  } finally {
    t.close();
  }
});

Deno.test("likes - a like sent again (an outbox's retry, with its idempotency key) lands the same and is not counted again toward the daily limit", async () => {
  const t = await testApp();
  try {
    const [a, b] = [await t.member(), await t.member()];
    const headers = { "idempotency-key": "0123456789abcdef0123456789abcdef" };
    for (let i = 0; i < 205; i++) {
      const r = await t.call("PUT", "/api/profile-like", { cookie: a.cookie, json: like(a, b), headers });
      assert.equal(r.status, 200, `attempt ${i + 1}`);
      assert.equal(r.data.likeType, "LIKE");
    }
    const pic = (await withPics(b, 1)).profilePicIds[0];
    const picLike = {
      likerProfileId: a.profileId,
      profilePicProfileId: b.profileId,
      profilePicId: pic,
      likeType: "LIKE",
    };
    for (let i = 0; i < 3; i++) {
      const r = await t.call("PUT", "/api/profile-pic-like", {
        cookie: a.cookie,
        json: { ...picLike, tsCreated: 0 },
        headers,
      });
      assert.equal(r.status, 200);
    }
    assert.equal((await receivedLikeCounts(b.profileId)).LIKE, 1, "one like however often sent");
  } finally {
    t.close();
  }
});
