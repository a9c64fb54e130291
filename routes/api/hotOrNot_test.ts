import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { createAccount, getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { createSession } from "../../kv/sessions.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile } from "../../kv/profiles.ts";
import { now, shiftClock } from "../../kv/clock.ts";
import { getCredits } from "../../kv/games/credits.ts";
import { fromRaw, picRecord, quadrants } from "../../tests/fixtures/pictures.ts";
import { HOT_DAYS, HOT_SAME_SIDE_RUN, HOT_TARGET_VOTES } from "../../domain/hotOrNot.ts";

type T = Awaited<ReturnType<typeof testApp>>;
interface Someone {
  profileId: string;
  cookie: string;
}

/** A member made in the store with a session (registering through the API is limited per address). */
async function someone(): Promise<Someone> {
  const a = (await createAccount({ email: `h${crypto.randomUUID().slice(0, 10)}@example.com` }))!;
  const { token } = await createSession(a.id, true, "Test", "link");
  return { profileId: a.defaultProfileId, cookie: `__Host-sid=${token}` };
}

/** Gives a member public pictures (records only: the game never reads the bytes); `nsfw` flags the first. */
async function withPics(m: Someone, n: number, nsfw = false): Promise<string[]> {
  const p = (await getProfile(m.profileId))!;
  const pics = Array.from({ length: n }, (_, i) => {
    const at = now();
    return picRecord({ profileId: p.id, tsCreated: at, tsUpdated: at, nsfw: nsfw && i === 0 });
  });
  for (const x of pics) await kv().set(keys.pic(x.id), x);
  await kv().set(keys.profile(p.id), { ...p, profilePicIds: pics.map((x) => x.id) });
  return pics.map((x) => x.id);
}

/** The pictures of the pair dealt to `voter` from `testId`, as the store keeps them (the voter never gets their ids). */
async function dealOf(voter: Someone, testId: string): Promise<{ left: string; right: string }> {
  return (await kv().get<{ left: string; right: string }>(keys.hotDeal(voter.profileId, testId))).value!;
}

const start = (t: T, m: Someone, picIds: unknown) =>
  t.call("POST", "/api/games/hotornot/tests", { cookie: m.cookie, json: { picIds } });
const next = (t: T, m: Someone, nsfw = false) =>
  t.call("GET", `/api/games/hotornot/next?nsfw=${nsfw ? 1 : 0}`, { cookie: m.cookie });
// deno-lint-ignore no-explicit-any
const vote = (t: T, m: Someone, item: any, choice: string, ms = 4000) =>
  t.call("PUT", "/api/games/hotornot/vote", {
    cookie: m.cookie,
    json: { testId: item.testId, deal: item.deal, choice, ms },
  });

/** Deals `m` a pair and votes on it after a careful look (the server's clock moved past the minimum). */
async function dealAndVote(
  t: T,
  m: Someone,
  choice: "LEFT" | "RIGHT" | "SKIP" | ((deal: { left: string; right: string }) => string),
) {
  const r = await next(t, m);
  assert.equal(r.status, 200);
  assert.ok(r.data.item, "a pair is dealt");
  shiftClock(2_000);
  const deal = await dealOf(m, r.data.item.testId);
  const v = await vote(t, m, r.data.item, typeof choice === "function" ? choice(deal) : choice);
  assert.equal(v.status, 200, v.text);
  return { item: r.data.item, deal, answer: v.data };
}

Deno.test("hot or not - starting a test: 2 to 4 of one's own public pictures, one test at a time, bad input 4xx", async () => {
  const t = await testApp();
  try {
    const owner = await someone();
    const other = await someone();
    const pics = await withPics(owner, 5);
    const theirs = await withPics(other, 2);

    for (const bad of [[pics[0]], pics.slice(0, 5), "x", [pics[0], pics[0]], ["../x", pics[1]], [pics[0], theirs[0]]]) {
      const r = await start(t, owner, bad);
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.ok(r.data.error.code && r.data.error.message);
    }
    assert.equal((await start(t, owner, [pics[0], theirs[0]])).data.error.code, "not_your_picture");
    const bodyless = await t.call("POST", "/api/games/hotornot/tests", { cookie: owner.cookie, body: "{" });
    assert.equal(bodyless.status, 400);
    assert.equal(
      (await t.call("POST", "/api/games/hotornot/tests", { json: { picIds: pics.slice(0, 2) } })).status,
      401,
    );

    const ok = await start(t, owner, pics.slice(0, 3));
    assert.equal(ok.status, 201);
    assert.equal(ok.data.test.status, "RUNNING");
    assert.deepEqual(ok.data.test.pictures.map((p: { picId: string }) => p.picId), pics.slice(0, 3));
    assert.equal(ok.data.test.target, HOT_TARGET_VOTES);
    // A test earns no credit.
    assert.equal(await getCredits(owner.profileId), 0);

    const again = await start(t, owner, pics.slice(3, 5));
    assert.equal(again.status, 409);
    assert.equal(again.data.error.code, "test_running");

    const state = await t.call("GET", "/api/games/hotornot", { cookie: owner.cookie });
    assert.equal(state.data.current.id, ok.data.test.id);
    assert.equal(state.data.pictures.length, 5);

    // Stopping ends it; then a new one may start.
    const stop = await t.call("DELETE", `/api/games/hotornot/tests/${ok.data.test.id}`, { cookie: owner.cookie });
    assert.equal(stop.data.test.status, "STOPPED");
    assert.equal((await start(t, owner, pics.slice(3, 5))).status, 201);
  } finally {
    await t.close();
  }
});

Deno.test("hot or not - voters see two pictures of one member, never their own test, never a name; a careful vote counts and earns a credit", async () => {
  const t = await testApp();
  try {
    const owner = await someone();
    const voter = await someone();
    const pics = await withPics(owner, 2);
    const test = (await start(t, owner, pics)).data.test;

    // Never one's own test.
    assert.equal((await next(t, owner)).data.item, null);

    const r = await next(t, voter);
    assert.equal(r.data.item.testId, test.id);
    const deal = await dealOf(voter, test.id);
    assert.deepEqual([deal.left, deal.right].sort(), [...pics].sort());
    // Nothing names the member: no profile id, no name, not even a picture's id, anywhere in the answer.
    assert.ok(!r.text.includes(owner.profileId));
    assert.ok(!pics.some((p) => r.text.includes(p)));
    assert.ok(!/name/i.test(r.text));
    // Asking again deals the same pair (its clock keeps running).
    assert.deepEqual((await next(t, voter)).data.item, r.data.item);

    // The owner cannot vote on their own test.
    const own = await vote(t, owner, r.data.item, "LEFT");
    assert.equal(own.status, 403);
    // A pair not dealt is refused; a bad choice or a missing field is a 400.
    const stale = { ...r.data.item, deal: r.data.item.deal - 1 };
    assert.equal((await vote(t, voter, stale, "LEFT")).status, 409);
    assert.equal((await vote(t, voter, r.data.item, "MIDDLE")).status, 400);
    const noMs = await t.call("PUT", "/api/games/hotornot/vote", {
      cookie: voter.cookie,
      json: { testId: test.id, deal: r.data.item.deal, choice: "LEFT" },
    });
    assert.equal(noMs.status, 400);
    const badDeal = await t.call("PUT", "/api/games/hotornot/vote", {
      cookie: voter.cookie,
      json: { testId: test.id, deal: "soon", choice: "LEFT", ms: 3000 },
    });
    assert.equal(badDeal.status, 400);

    shiftClock(2_000);
    const v = await vote(t, voter, r.data.item, "RIGHT");
    assert.equal(v.status, 200);
    assert.deepEqual(v.data, { counted: true, why: null, credited: true, credits: 1, ended: false });
    // The same vote again (the outbox retrying) answers as it was and earns nothing more.
    const retry = await vote(t, voter, r.data.item, "RIGHT");
    assert.equal(retry.status, 200);
    assert.equal(retry.data.counted, true);
    assert.equal(retry.data.credited, false);
    assert.equal(await getCredits(voter.profileId), 1);
    // With every pair of the test voted on, nothing more is dealt to this voter.
    assert.equal((await next(t, voter)).data.item, null);

    const mine = await t.call("GET", `/api/games/hotornot/tests/${test.id}`, { cookie: owner.cookie });
    const chosen = deal.right;
    const res = mine.data.test.pictures.find((p: { picId: string }) => p.picId === chosen);
    assert.equal(res.votes, 1);
    assert.ok(res.share > 0.5);
  } finally {
    await t.close();
  }
});

Deno.test("hot or not - careless votes are not counted: too fast, or a long run on the same side; skips earn nothing", async () => {
  const t = await testApp();
  try {
    const fast = await someone();
    const lefty = await someone();
    const owners = [await someone(), await someone(), await someone()];
    for (const o of owners) assert.equal((await start(t, o, await withPics(o, 4))).status, 201);

    // Too fast: the device says 300 ms (the server's measure is shorter still).
    const r = await next(t, fast);
    const quick = await vote(t, fast, r.data.item, "LEFT", 300);
    assert.deepEqual(quick.data, { counted: false, why: "FAST", credited: false, credits: 0, ended: false });
    // A device that claims a long look is still measured by the server: dealt and answered at once.
    const r2 = await next(t, fast);
    const liar = await vote(t, fast, r2.data.item, "LEFT", 60_000);
    assert.equal(liar.data.why, "FAST");

    // A skip is stored, earns nothing, and is not careless.
    const skip = await dealAndVote(t, fast, "SKIP");
    assert.deepEqual(skip.answer, { counted: false, why: null, credited: false, credits: 0, ended: false });

    // Always the left picture: the run's HOT_SAME_SIDE_RUN-th vote and the ones after are not counted.
    const answers = [];
    for (let i = 0; i < HOT_SAME_SIDE_RUN + 2; i++) answers.push((await dealAndVote(t, lefty, "LEFT")).answer);
    assert.deepEqual(answers.map((a) => a.counted), answers.map((_, i) => i < HOT_SAME_SIDE_RUN - 1));
    assert.equal(answers.at(-1)!.why, "SAME_SIDE");
    assert.equal(await getCredits(lefty.profileId), HOT_SAME_SIDE_RUN - 1);
    // A vote for the other side breaks the run and counts again.
    assert.equal((await dealAndVote(t, lefty, "RIGHT")).answer.counted, true);

    // The owners see how many careless votes were left out.
    let careless = 0;
    for (const o of owners) {
      const s = await t.call("GET", "/api/games/hotornot", { cookie: o.cookie });
      careless += s.data.current.careless;
    }
    assert.equal(careless, 2 + 3);
  } finally {
    await t.close();
  }
});

Deno.test("hot or not - blocks either way and NSFW: a pair only for those who may see it", async () => {
  const t = await testApp();
  try {
    const owner = await someone();
    const blocked = await someone();
    const blocker = await someone();
    const viewer = await someone();
    const pics = await withPics(owner, 2, true);
    const test = (await start(t, owner, pics)).data.test;
    assert.equal(test.pictures[0].nsfw, true);

    // The blocked member gets a pair while nobody has blocked anyone...
    const dealt = await next(t, blocked, true);
    assert.equal(dealt.data.item.testId, test.id);
    for (const [who, whom] of [[owner, blocked], [blocker, owner]]) {
      const b = await t.call("PUT", "/api/profile-like", {
        cookie: who.cookie,
        json: { likerProfileId: who.profileId, likedProfileId: whom.profileId, likeType: "DISLIKE", blocked: true },
      });
      assert.equal(b.status, 200);
    }
    // ...then none, and their vote on the pair dealt before is answered as if the test did not exist.
    assert.equal((await next(t, blocked, true)).data.item, null);
    shiftClock(2_000);
    assert.equal((await vote(t, blocked, dealt.data.item, "LEFT")).status, 404);
    // Who blocked the owner is not dealt their pictures either.
    assert.equal((await next(t, blocker, true)).data.item, null);

    // NSFW: never to a device that hides it; to one that shows it, yes.
    assert.equal((await next(t, viewer, false)).data.item, null);
    assert.equal((await next(t, viewer, true)).data.item.testId, test.id);
    assert.equal((await t.call("GET", "/api/games/hotornot/next?nsfw=yes", { cookie: viewer.cookie })).status, 400);
  } finally {
    await t.close();
  }
});

Deno.test("hot or not - the result is the owner's alone: not to others, not to admins beyond counts, never on a profile", async () => {
  const t = await testApp();
  try {
    const owner = await someone();
    const other = await someone();
    const admin = await t.member(`admin-${crypto.randomUUID().slice(0, 6)}@example.com`);
    await setRoles((await getAccountByEmail(admin.email))!.id, ["USER", "ADMIN"]);
    const pics = await withPics(owner, 2);
    const test = (await start(t, owner, pics)).data.test;
    await dealAndVote(t, other, "LEFT");

    for (const who of [other, admin]) {
      for (
        const [method, path] of [
          ["GET", `/api/games/hotornot/tests/${test.id}`],
          ["DELETE", `/api/games/hotornot/tests/${test.id}`],
          ["POST", `/api/games/hotornot/tests/${test.id}/best-first`],
        ]
      ) {
        const r = await t.call(method, path, { cookie: who.cookie });
        assert.equal(r.status, 404, `${method} ${path}`);
        assert.ok(!r.text.includes("share"));
      }
    }
    // The owner's profile, as others and admins read it, says nothing of a test.
    for (const who of [other, admin]) {
      const p = await t.call("GET", `/api/profile/${owner.profileId}`, { cookie: who.cookie });
      assert.equal(p.status, 200);
      assert.ok(!/share|hot|test/i.test(JSON.stringify(Object.keys(p.data))));
      assert.ok(!p.text.includes(test.id));
    }
    const page = await t.call("GET", `/profile/${owner.profileId}`, { cookie: other.cookie });
    assert.ok(!page.text.includes(test.id));
    // Admins: counts only.
    const counts = await t.call("GET", "/api/admin/games/hotornot", { cookie: admin.cookie });
    assert.deepEqual(counts.data, { running: 1, votes: 1, careless: 0 });
    assert.equal((await t.call("GET", "/api/admin/games/hotornot", { cookie: other.cookie })).status, 403);
    // The owner reads it.
    const mine = await t.call("GET", `/api/games/hotornot/tests/${test.id}`, { cookie: owner.cookie });
    assert.equal(mine.status, 200);
    assert.equal(mine.data.test.pictures.reduce((n: number, p: { votes: number }) => n + p.votes, 0), 2);
  } finally {
    await t.close();
  }
});

Deno.test("hot or not - a test ends at its votes (lean corrected) or after 7 days; Put the best first reorders", async () => {
  const t = await testApp();
  try {
    const owner = await someone();
    const pics = await withPics(owner, 3);
    const test = (await start(t, owner, pics.slice(0, 2))).data.test;
    const [a, b] = pics;
    // Twenty voters: fourteen prefer b, six prefer a, whatever its side.
    let ended = false;
    for (let i = 0; i < HOT_TARGET_VOTES; i++) {
      const v = await someone();
      const want = i < 14 ? b : a;
      const { answer } = await dealAndVote(t, v, (d) => d.left === want ? "LEFT" : "RIGHT");
      assert.equal(answer.counted, true);
      ended = answer.ended;
    }
    assert.ok(ended, "the twentieth vote ends it");
    const done = (await t.call("GET", `/api/games/hotornot/tests/${test.id}`, { cookie: owner.cookie })).data.test;
    assert.equal(done.status, "DONE");
    assert.equal(done.best, b);
    const rb = done.pictures.find((p: { picId: string }) => p.picId === b);
    assert.equal(rb.votes, HOT_TARGET_VOTES);
    assert.ok(rb.share > 0.6 && rb.share < 0.8, String(rb.share));
    assert.ok(rb.low < rb.share && rb.share < rb.high && rb.low > 0.4 && rb.high < 0.95);
    // Nobody is dealt an ended test.
    assert.equal((await next(t, await someone())).data.item, null);

    const best = await t.call("POST", `/api/games/hotornot/tests/${test.id}/best-first`, { cookie: owner.cookie });
    assert.equal(best.status, 200);
    assert.deepEqual(best.data.profilePicIds, [b, a, pics[2]]);
    assert.deepEqual((await getProfile(owner.profileId))!.profilePicIds, [b, a, pics[2]]);

    // A new test ends by itself after 7 days, with whatever votes it has.
    const second = (await start(t, owner, [a, pics[2]])).data.test;
    const early = await t.call("POST", `/api/games/hotornot/tests/${second.id}/best-first`, { cookie: owner.cookie });
    assert.equal(early.status, 409);
    shiftClock(HOT_DAYS * 86_400_000 + 1);
    const late = (await t.call("GET", "/api/games/hotornot", { cookie: owner.cookie })).data;
    assert.equal(late.current, null);
    assert.equal(late.earlier[0].id, second.id);
    assert.equal(late.earlier[0].status, "DONE");
  } finally {
    await t.close();
  }
});

Deno.test("hot or not - keep my best picture first: likes and opens move the best first, shown, and Undo puts the order back", async () => {
  const t = await testApp();
  try {
    const owner = await someone();
    const pics = await withPics(owner, 3);
    const viewers = [await someone(), await someone(), await someone()];
    const on = await t.call("PUT", "/api/games/hotornot/keep-best", { cookie: owner.cookie, json: { on: true } });
    assert.equal(on.data.keepBest.on, true);
    assert.equal(
      (await t.call("PUT", "/api/games/hotornot/keep-best", { cookie: owner.cookie, json: { on: 1 } })).status,
      400,
    );

    // The third picture earns every like; profile opens and likes go on until the app puts it first.
    let moved = false;
    for (let round = 0; round < 40 && !moved; round++) {
      const v = viewers[round % viewers.length];
      assert.equal((await t.call("GET", `/api/profile/${owner.profileId}`, { cookie: v.cookie })).status, 200);
      await t.call("PUT", "/api/profile-pic-like", {
        cookie: v.cookie,
        json: {
          likerProfileId: v.profileId,
          profilePicId: pics[2],
          profilePicProfileId: owner.profileId,
          likeType: "LIKE",
        },
      });
      // A like once per member: the like goes back to undetermined so the next round can like again.
      await t.call("PUT", "/api/profile-pic-like", {
        cookie: v.cookie,
        json: {
          likerProfileId: v.profileId,
          profilePicId: pics[2],
          profilePicProfileId: owner.profileId,
          likeType: "UNDETERMINED",
        },
      });
      moved = (await getProfile(owner.profileId))!.profilePicIds[0] === pics[2];
    }
    assert.ok(moved, "the liked picture went first");
    const state = (await t.call("GET", "/api/games/hotornot", { cookie: owner.cookie })).data;
    assert.ok(state.keepBest.moves.some((m: { picId: string }) => m.picId === pics[2]));
    assert.equal(state.keepBest.canUndo, true);

    const undo = await t.call("POST", "/api/games/hotornot/keep-best/undo", { cookie: owner.cookie });
    assert.equal(undo.status, 200);
    assert.deepEqual(undo.data.profilePicIds, pics);
    assert.equal(undo.data.keepBest.on, false);
    assert.deepEqual((await getProfile(owner.profileId))!.profilePicIds, pics);
  } finally {
    await t.close();
  }
});

Deno.test("hot or not - the pair's pictures are served through the deal, to its voter only, never by id", async () => {
  const t = await testApp();
  try {
    const owner = await t.member();
    const voter = await someone();
    const stranger = await someone();
    const jpeg = new Uint8Array(await fromRaw(quadrants(160, 200), 160, 200).jpeg().toBuffer());
    const pics = [];
    for (let i = 0; i < 2; i++) {
      const r = await t.call("POST", "/api/profile-pic", {
        cookie: owner.cookie,
        form: { authorProfileId: owner.profileId, picfile: new File([jpeg], "me.jpg", { type: "image/jpeg" }) },
      });
      assert.equal(r.status, 201, r.text);
      pics.push(r.data.id);
    }
    const test = (await start(t, { profileId: owner.profileId, cookie: owner.cookie }, pics)).data.test;
    const pair = (await next(t, voter)).data.item;
    for (const side of ["left", "right"]) {
      const img = await t.call("GET", `/api/games/hotornot/pair/${test.id}/${side}?v=${pair.deal}`, {
        cookie: voter.cookie,
      });
      assert.equal(img.status, 200);
      assert.match(img.headers.get("content-type")!, /^image\//);
      assert.equal(img.headers.get("cache-control"), "no-store, private");
      // Not dealt to them: nothing to see.
      const none = await t.call("GET", `/api/games/hotornot/pair/${test.id}/${side}`, { cookie: stranger.cookie });
      assert.equal(none.status, 404);
    }
    assert.equal(
      (await t.call("GET", `/api/games/hotornot/pair/${test.id}/middle`, { cookie: voter.cookie })).status,
      400,
    );
    assert.equal((await t.call("GET", `/api/games/hotornot/pair/${test.id}/left`)).status, 401);
  } finally {
    await t.close();
  }
});
