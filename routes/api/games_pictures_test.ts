import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile } from "../../kv/profiles.ts";
import { newId } from "../../kv/ids.ts";
import { addPicture, getPic } from "../../kv/pictures.ts";
import { normalizeUpload } from "../../images/pipeline.ts";
import sharp from "sharp";
import { getCredits } from "../../kv/games/credits.ts";
import { getPicLikes } from "../../kv/likes.ts";
import { picLikeTally } from "../../tests/kv.ts";
import { block, count, type Member, near, withPics } from "../../tests/fixtures/games.ts";

Deno.test("ratinggame - a deck of nearby public pictures; a rating is a picture like and a credit, once", async () => {
  const t = await testApp();
  try {
    const me = await near(t), a = await near(t), b = await near(t), blocked = await near(t);
    const [a1, a2] = await withPics(a, 2);
    const [b1] = await withPics(b, 1);
    await withPics(blocked, 1);
    await withPics(me, 1);
    await block(t, blocked, me);
    const deck = await t.call("GET", "/api/games/ratinggame/deck", { cookie: me.cookie });
    assert.equal(deck.status, 200);
    // Shown positions are cells, so a and b may come in either order; a member's pictures stay in order.
    const ids = deck.data.items.map((c: { picId: string }) => c.picId);
    assert.deepEqual([...ids].sort(), [a1, a2, b1].sort());
    assert.ok(ids.indexOf(a1) < ids.indexOf(a2));
    assert.equal(deck.data.credits, 0);

    const rate = (picId: string, owner: Member, likeType: string) =>
      t.call("PUT", "/api/games/ratinggame", {
        cookie: me.cookie,
        json: { profilePicId: picId, profilePicProfileId: owner.profileId, likeType },
      });
    const r = await rate(a1, a, "LIKE");
    assert.equal(r.status, 200);
    assert.equal(r.data.like.likeType, "LIKE");
    assert.equal(r.data.credits, 1);
    assert.equal((await picLikeTally(a1)).LIKE, 1);
    assert.equal((await rate(a2, a, "DISLIKE")).data.credits, 2);
    // Rating the same picture again changes the like but earns nothing.
    const again = await rate(a1, a, "UNDETERMINED");
    assert.equal(again.status, 200);
    assert.equal(again.data.credited, false);
    assert.equal(again.data.credits, 2);
    assert.equal((await picLikeTally(a1)).LIKE, 0);
    // A picture liked before outside the game (the same like again writes no like) still earns its credit once.
    const pre = await t.call("PUT", "/api/profile-pic-like", {
      cookie: me.cookie,
      json: { likerProfileId: me.profileId, profilePicId: b1, profilePicProfileId: b.profileId, likeType: "LIKE" },
    });
    assert.equal(pre.status, 200);
    const same = await rate(b1, b, "LIKE");
    assert.equal(same.data.credited, true);
    assert.equal(same.data.credits, 3);
    assert.equal((await rate(b1, b, "LIKE")).data.credits, 3);
    const left = await t.call("GET", "/api/games/ratinggame/deck", { cookie: me.cookie });
    assert.deepEqual(left.data.items, []);
  } finally {
    t.close();
  }
});

Deno.test("ratinggame - a Skip earns nothing and passes the picture; Nice and Meh earn one credit a picture, even after a Skip", async () => {
  const t = await testApp();
  try {
    const me = await near(t), a = await near(t);
    const [p1, p2, p3, p4] = await withPics(a, 4);
    const rate = (picId: string, likeType: string) =>
      t.call("PUT", "/api/games/ratinggame", {
        cookie: me.cookie,
        json: { profilePicId: picId, profilePicProfileId: a.profileId, likeType },
      });
    const skip = await rate(p1, "UNDETERMINED");
    assert.equal(skip.status, 200);
    assert.equal(skip.data.credited, false);
    assert.equal(skip.data.credits, 0);
    assert.deepEqual((await getPicLikes(me.profileId, [p1])).map((l) => l.likeType), ["UNDETERMINED"]);
    const deck = await t.call("GET", "/api/games/ratinggame/deck", { cookie: me.cookie });
    assert.ok(!deck.data.items.some((c: { picId: string }) => c.picId === p1), "a skipped picture leaves the deck");
    assert.equal((await rate(p1, "UNDETERMINED")).data.credits, 0, "skipping again: nothing");
    // A judgement after the Skip earns the picture's one credit.
    assert.equal((await rate(p1, "LIKE")).data.credits, 1);
    assert.equal((await rate(p2, "DISLIKE")).data.credits, 2, "Meh earns");
    // Nice, Meh, Skip and Nice again on one picture: one credit.
    for (const type of ["LIKE", "DISLIKE", "UNDETERMINED", "LIKE"]) await rate(p3, type);
    assert.equal(await getCredits(me.profileId), 3);
    // Skipping a picture already UNDETERMINED outside the game (no like is written): still nothing, then Meh earns.
    const pre = await t.call("PUT", "/api/profile-pic-like", {
      cookie: me.cookie,
      json: {
        likerProfileId: me.profileId,
        profilePicId: p4,
        profilePicProfileId: a.profileId,
        likeType: "UNDETERMINED",
      },
    });
    assert.equal(pre.status, 200);
    assert.equal((await rate(p4, "UNDETERMINED")).data.credited, false);
    assert.equal((await rate(p4, "DISLIKE")).data.credits, 4);
    assert.deepEqual((await t.call("GET", "/api/games/ratinggame/deck", { cookie: me.cookie })).data.items, []);
  } finally {
    t.close();
  }
});

Deno.test("ratinggame - bad input 400, others' or unknown pictures 404, anonymous 401: nothing stored", async () => {
  const t = await testApp();
  try {
    const me = await near(t), a = await near(t), b = await near(t);
    const [a1] = await withPics(a, 1);
    const [mine] = await withPics(me, 1);
    const ok = { profilePicId: a1, profilePicProfileId: a.profileId, likeType: "LIKE" };
    const cases: [unknown, number, string?][] = [
      [{ ...ok, likeType: "ERROR" }, 400],
      [{ ...ok, likeType: undefined }, 400],
      [{ ...ok, profilePicId: "x y" }, 400],
      [{ ...ok, profilePicProfileId: me.profileId, profilePicId: mine }, 400],
      [{ ...ok, profilePicProfileId: b.profileId }, 404],
      [{ ...ok, profilePicId: newId() }, 404],
      [ok, 401, "anonymous"],
    ];
    for (const [json, status, anon] of cases) {
      const r = await t.call("PUT", "/api/games/ratinggame", { cookie: anon ? undefined : me.cookie, json });
      assert.equal(r.status, status, JSON.stringify(json));
    }
    assert.equal(await count("pic_likes"), 0);
    assert.equal(await count("rating_plays"), 0);
    assert.equal(await getCredits(me.profileId), 0);
    assert.equal((await t.call("GET", "/api/games/ratinggame/deck")).status, 401);
  } finally {
    t.close();
  }
});

async function realPic(m: Member): Promise<string> {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="500"><rect width="400" height="500" fill="#c33"/></svg>`;
  const res = await addPicture(
    m.profileId,
    await normalizeUpload(await sharp(new TextEncoder().encode(svg)).png().toBuffer()),
  );
  assert.ok(res.ok);
  return res.pic.id;
}

Deno.test("photocrop - a member suggests a crop once; the owner sees it without the suggester and accepts it", async () => {
  const t = await testApp();
  try {
    const me = await near(t), owner = await near(t), other = await near(t);
    const picId = await realPic(owner);
    const next = await t.call("GET", "/api/games/photocrop/next", { cookie: me.cookie });
    assert.equal(next.status, 200);
    assert.equal(next.data.item.picId, picId);
    assert.equal(next.data.item.width, 400);
    assert.equal(next.data.item.height, 500);
    const gen = next.data.item.gen as string;
    // 200 × 250 px at (100, 50): 0.5 × 0.5 of a 400 × 500 picture.
    const box = { gen, x: 0.25, y: 0.1, width: 0.5, height: 0.5 };
    const put = await t.call("PUT", `/api/games/photocrop/${picId}`, { cookie: me.cookie, json: box });
    assert.equal(put.status, 201);
    assert.equal(put.data.credited, false, "a suggestion alone earns nothing");
    assert.equal(put.data.credits, 0);
    const again = await t.call("PUT", `/api/games/photocrop/${picId}`, { cookie: me.cookie, json: box });
    assert.equal(again.status, 409);
    assert.equal((await t.call("GET", "/api/games/photocrop/next", { cookie: me.cookie })).data.item, null);

    const notes = await t.call("GET", `/api/notifications/${owner.profileId}`, { cookie: owner.cookie });
    assert.ok(JSON.stringify(notes.data).includes("/games/photocrop"), "the owner is told, discreetly");
    const list = await t.call("GET", "/api/games/photocrop/suggestions", { cookie: owner.cookie });
    assert.equal(list.data.items.length, 1);
    assert.equal(list.data.items[0].suggesterProfileId, undefined, "the suggester stays unknown");
    const sid = list.data.items[0].id as string;
    assert.deepEqual((await t.call("GET", "/api/games/photocrop/suggestions", { cookie: me.cookie })).data.items, []);
    // The owner's Profile Editor points to it; nobody else's does.
    assert.match((await t.call("GET", "/profileEdit", { cookie: owner.cookie })).text, /Members suggested a crop/);
    assert.doesNotMatch((await t.call("GET", "/profileEdit", { cookie: me.cookie })).text, /Members suggested/);
    // Only the owner answers.
    for (const m of [me, other]) {
      const r = await t.call("PUT", `/api/games/photocrop/suggestions/${sid}`, {
        cookie: m.cookie,
        json: { action: "ACCEPT" },
      });
      assert.equal(r.status, 404);
    }
    assert.equal(
      (await t.call("PUT", `/api/games/photocrop/suggestions/${sid}`, { json: { action: "ACCEPT" } })).status,
      401,
    );
    assert.equal(
      (await t.call("PUT", `/api/games/photocrop/suggestions/${sid}`, {
        cookie: owner.cookie,
        json: { action: "MAYBE" },
      })).status,
      400,
    );
    const ok = await t.call("PUT", `/api/games/photocrop/suggestions/${sid}`, {
      cookie: owner.cookie,
      json: { action: "ACCEPT" },
    });
    assert.equal(ok.status, 200);
    assert.equal(await getCredits(me.profileId), 1, "the owner used it: its suggester earns the credit");
    const twice = await t.call("PUT", `/api/games/photocrop/suggestions/${sid}`, {
      cookie: owner.cookie,
      json: { action: "ACCEPT" },
    });
    assert.equal(twice.status, 404, "used once");
    assert.equal(await getCredits(me.profileId), 1, "and credited once");
    const pic = (await getPic(picId))!;
    assert.notEqual(pic.gen, gen);
    assert.deepEqual(pic.crop, { x: 100, y: 50, width: 200, height: 250, rotate: 0 });
    assert.deepEqual(
      (await t.call("GET", "/api/games/photocrop/suggestions", { cookie: owner.cookie })).data.items,
      [],
    );

    // A suggestion on the old generation no longer fits.
    const late = await t.call("PUT", `/api/games/photocrop/${picId}`, { cookie: other.cookie, json: box });
    assert.equal(late.status, 409);
    assert.equal(late.data.error.code, "picture_changed");
  } finally {
    t.close();
  }
});

Deno.test("photocrop - bad boxes are 400, own/unknown/private pictures refused, dismiss removes; nothing stored", async () => {
  const t = await testApp();
  try {
    const me = await near(t), owner = await near(t);
    const picId = await realPic(owner);
    const mine = await realPic(me);
    const gen = (await getPic(picId))!.gen;
    const ok = { gen, x: 0, y: 0, width: 1, height: 1 };
    const cases: [string, unknown, number, string?][] = [
      [picId, { ...ok, width: 0.5 }, 400], // not 4:5
      [picId, { ...ok, x: 0.5 }, 400], // outside
      [picId, { ...ok, width: 0.2, height: 0.2 }, 400], // too small
      [picId, { ...ok, x: -0.1 }, 400],
      [picId, { x: 0, y: 0, width: 1, height: 1 }, 400], // no gen
      [mine, { ...ok, gen: (await getPic(mine))!.gen }, 400], // own
      [newId(), ok, 404],
      [picId, ok, 401, "anonymous"],
    ];
    for (const [id, json, status, anon] of cases) {
      const r = await t.call("PUT", `/api/games/photocrop/${id}`, { cookie: anon ? undefined : me.cookie, json });
      assert.equal(r.status, status, JSON.stringify(json));
      assert.ok(r.data.error.message);
    }
    // A private picture is not offered.
    const p = (await getProfile(owner.profileId))!;
    await kv().set(keys.profile(p.id), { ...p, profilePicIds: [], profilePicIdsPrivate: [picId] });
    assert.equal((await t.call("PUT", `/api/games/photocrop/${picId}`, { cookie: me.cookie, json: ok })).status, 404);
    assert.equal(await count("crop_suggestions"), 0);
    assert.equal(await count("crop_suggested"), 0);
    assert.equal(await getCredits(me.profileId), 0);

    await kv().set(keys.profile(p.id), p);
    assert.equal((await t.call("PUT", `/api/games/photocrop/${picId}`, { cookie: me.cookie, json: ok })).status, 201);
    const [s] = (await t.call("GET", "/api/games/photocrop/suggestions", { cookie: owner.cookie })).data.items;
    const d = await t.call("PUT", `/api/games/photocrop/suggestions/${s.id}`, {
      cookie: owner.cookie,
      json: { action: "DISMISS" },
    });
    assert.equal(d.status, 200);
    assert.equal(await getCredits(me.profileId), 0, "a dismissed suggestion earns nothing");
    assert.equal(await count("crop_suggestions"), 0);
    assert.equal((await getPic(picId))!.gen, gen, "dismissed: the picture is unchanged");
  } finally {
    t.close();
  }
});
