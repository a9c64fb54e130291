import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { createAccount, getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile, updateProfile } from "../../kv/profiles.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { newId } from "../../kv/ids.ts";
import { now, shiftClock } from "../../kv/clock.ts";
import { addPicture, getPic } from "../../kv/pictures.ts";
import { normalizeUpload } from "../../images/pipeline.ts";
import sharp from "sharp";
import { CREDITS_PER_DAY, getCredits } from "../../kv/games/credits.ts";
import { getPicLikes } from "../../kv/likes.ts";
import { picLikeTally } from "../../tests/kv.ts";
import { createSession } from "../../kv/sessions.ts";
import { VOLUNTEER_CREDITS } from "../../domain/games.ts";
import { picRecord } from "../../tests/fixtures/pictures.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

const HOME = { lat: 33.4484, lon: -112.074 };
let spot = 0;

/** A member near HOME, with a profile text (or none). */
async function near(t: T, description = "I love hiking and bad puns.", email?: string): Promise<Member> {
  const m = await t.member(email);
  if (description) assert.ok((await updateProfile(m.profileId, { description })).ok);
  spot++;
  await reportPosition(m.profileId, {
    lat: HOME.lat + 0.003 * spot,
    lon: HOME.lon + 0.002 * spot,
    use: "OVERRIDE",
    hide: false,
  });
  return m;
}

/** A member near HOME made in the store (no login: registering is rate limited per address). */
async function seeded(description: string): Promise<string> {
  const a = (await createAccount({ email: `s${crypto.randomUUID().slice(0, 8)}@example.com` }))!;
  assert.ok((await updateProfile(a.defaultProfileId, { description })).ok);
  spot++;
  await reportPosition(a.defaultProfileId, {
    lat: HOME.lat + 0.003 * spot,
    lon: HOME.lon + 0.002 * spot,
    use: "OVERRIDE",
    hide: false,
  });
  return a.defaultProfileId;
}

async function admin(t: T, m?: Member): Promise<Member> {
  const a = m ?? await t.member(`admin-${crypto.randomUUID().slice(0, 6)}@example.com`);
  await setRoles((await getAccountByEmail(a.email))!.id, ["USER", "ADMIN"]);
  return a;
}

/** Gives a profile public pictures (records only: the game never reads the bytes). */
async function withPics(m: Member, n: number): Promise<string[]> {
  const p = (await getProfile(m.profileId))!;
  const pics = Array.from({ length: n }, () => {
    const at = now();
    return picRecord({ profileId: p.id, tsCreated: at, tsUpdated: at });
  });
  for (const x of pics) await kv().set(keys.pic(x.id), x);
  await kv().set(keys.profile(p.id), { ...p, profilePicIds: pics.map((x) => x.id) });
  return pics.map((x) => x.id);
}

async function count(prefix: string): Promise<number> {
  let n = 0;
  for await (const _ of kv().list({ prefix: [prefix] })) n++;
  return n;
}

const block = (t: T, a: Member, b: Member) =>
  t.call("PUT", "/api/profile-like", {
    cookie: a.cookie,
    json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "DISLIKE", blocked: true },
  });

Deno.test("games - a standard member has 0 credits, shown on /games", async () => {
  const t = await testApp();
  try {
    const a = await t.member();
    assert.deepEqual((await t.call("GET", "/api/games/credits", { cookie: a.cookie })).data, { credits: 0 });
    const page = await t.call("GET", "/games", { cookie: a.cookie });
    assert.equal(page.status, 200);
    assert.match(page.text, /Volunteer credits: 0/);
    assert.equal((await t.call("GET", "/api/games/credits")).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("gptbuster - next shows a nearby text, not mine, not empty, not blocked, not voted", async () => {
  const t = await testApp();
  try {
    const me = await near(t, "My own text");
    const empty = await near(t, "");
    const blocked = await near(t, "Blocked text");
    const other = await near(t, "A real human text");
    await block(t, me, blocked);
    const next = await t.call("GET", "/api/games/gptbuster/next", { cookie: me.cookie });
    assert.equal(next.status, 200);
    assert.equal(next.data.item.profileId, other.profileId);
    assert.equal(next.data.item.description, "A real human text");
    assert.equal(next.data.credits, 0);
    assert.equal(next.data.item.accountId, undefined, "no private fields");

    const vote = await t.call("PUT", `/api/games/gptbuster/${other.profileId}`, {
      cookie: me.cookie,
      json: { verdict: "MACHINE" },
    });
    assert.equal(vote.status, 200);
    assert.deepEqual(vote.data.tally, { human: 0, machine: 1 });
    assert.equal(vote.data.credits, 1);
    assert.equal(vote.data.credited, true);
    const after = await t.call("GET", "/api/games/gptbuster/next", { cookie: me.cookie });
    assert.equal(after.data.item, null, "nobody left: empty, blocked and voted are skipped");
    assert.equal(after.data.credits, 1);

    // Counted once.
    const again = await t.call("PUT", `/api/games/gptbuster/${other.profileId}`, {
      cookie: me.cookie,
      json: { verdict: "HUMAN" },
    });
    assert.equal(again.status, 409);
    assert.equal(again.data.error.code, "already_voted");
    assert.equal(await getCredits(me.profileId), 1);
    assert.equal(await count("gpt_votes"), 1);

    const page = await t.call("GET", "/games", { cookie: me.cookie });
    assert.match(page.text, /Volunteer credits: 1/);
    const game = await t.call("GET", "/games/gptbuster", { cookie: me.cookie });
    assert.equal(game.status, 200);
    assert.match(game.text, /GPT Buster/);
    assert.equal(empty.profileId.length > 0, true);
  } finally {
    t.close();
  }
});

Deno.test("gptbuster - bad input is a clear 400 and stores nothing; own, blocked, empty and anonymous refused", async () => {
  const t = await testApp();
  try {
    const me = await near(t), other = await near(t), empty = await near(t, ""), blocker = await near(t);
    await block(t, blocker, me);
    const cases: [string, unknown, number, string?][] = [
      [other.profileId, { verdict: "ROBOT" }, 400],
      [other.profileId, {}, 400],
      [other.profileId, "not json", 400],
      ["bad id!", { verdict: "HUMAN" }, 400],
      [me.profileId, { verdict: "HUMAN" }, 400],
      [newId(), { verdict: "HUMAN" }, 404],
      [empty.profileId, { verdict: "HUMAN" }, 404],
      [blocker.profileId, { verdict: "HUMAN" }, 404],
      [other.profileId, { verdict: "HUMAN" }, 401, "anonymous"],
    ];
    for (const [id, json, status, anon] of cases) {
      const r = typeof json === "string"
        ? await t.call("PUT", `/api/games/gptbuster/${encodeURIComponent(id)}`, {
          cookie: me.cookie,
          body: json,
          headers: { "content-type": "application/json" },
        })
        : await t.call("PUT", `/api/games/gptbuster/${encodeURIComponent(id)}`, {
          cookie: anon ? undefined : me.cookie,
          json,
        });
      assert.equal(r.status, status, `${id} ${JSON.stringify(json)}`);
      assert.ok(r.data.error?.message, "a message");
    }
    assert.equal(await count("gpt_votes"), 0);
    assert.equal(await count("gpt_tallies"), 0);
    assert.equal(await getCredits(me.profileId), 0);
    assert.equal((await t.call("GET", "/api/games/gptbuster/next")).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("gptbuster - five votes, 70% machine: flagged for admins only", async () => {
  const t = await testApp();
  try {
    const target = await near(t, "As an AI language model I love long walks.");
    const voters = [];
    for (let i = 0; i < 5; i++) voters.push(await near(t));
    const boss = await admin(t);
    const vote = (m: Member, verdict: string) =>
      t.call("PUT", `/api/games/gptbuster/${target.profileId}`, { cookie: m.cookie, json: { verdict } });
    for (const v of voters.slice(0, 3)) assert.equal((await vote(v, "MACHINE")).status, 200);
    assert.equal((await vote(voters[3], "HUMAN")).status, 200);
    let flagged = await t.call("GET", "/api/admin/games/gptbuster/flagged", { cookie: boss.cookie });
    assert.deepEqual(flagged.data.items, [], "4 votes are not enough");
    const last = await vote(voters[4], "MACHINE");
    assert.deepEqual(last.data.tally, { human: 1, machine: 4 });
    flagged = await t.call("GET", "/api/admin/games/gptbuster/flagged", { cookie: boss.cookie });
    assert.equal(flagged.status, 200);
    assert.equal(flagged.data.items.length, 1);
    assert.equal(flagged.data.items[0].profileId, target.profileId);
    assert.equal(flagged.data.items[0].machine, 4);
    assert.equal((await t.call("GET", "/api/admin/games/gptbuster/flagged", { cookie: voters[0].cookie })).status, 403);
    assert.equal((await t.call("GET", "/api/admin/games/gptbuster/flagged")).status, 401);
    // A sixth human vote brings the share under 70%: no longer flagged.
    const sixth = await near(t);
    await vote(sixth, "HUMAN");
    flagged = await t.call("GET", "/api/admin/games/gptbuster/flagged", { cookie: boss.cookie });
    assert.deepEqual(flagged.data.items, []);
  } finally {
    t.close();
  }
});

Deno.test("games - at most 20 credits a day; votes past the cap still count", async () => {
  const t = await testApp();
  t.alignClock(24 * 60 * 60_000);
  try {
    const me = await near(t);
    const others = [];
    for (let i = 0; i < CREDITS_PER_DAY + 2; i++) others.push(await seeded(`Text ${i}`));
    for (const o of others) {
      const r = await t.call("PUT", `/api/games/gptbuster/${o}`, {
        cookie: me.cookie,
        json: { verdict: "HUMAN" },
      });
      assert.equal(r.status, 200);
    }
    assert.equal(await getCredits(me.profileId), CREDITS_PER_DAY);
    assert.equal(await count("gpt_votes"), CREDITS_PER_DAY + 2);
  } finally {
    t.close();
  }
});

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

Deno.test("arbitration - jurors vote once; reporter and reported never judge; admins decide and close", async () => {
  const t = await testApp();
  try {
    const reporter = await near(t), reported = await near(t, "Buy cheap watches at example.com"), juror = await near(t);
    const boss = await admin(t);
    const rep = await t.call("POST", "/api/profile-report", {
      cookie: reporter.cookie,
      json: { reportedProfileId: reported.profileId, reason: "spam", text: "Sells watches." },
    });
    assert.equal(rep.status, 201);
    const id = rep.data.id as string;

    const next = await t.call("GET", "/api/games/arbitration/next", { cookie: juror.cookie });
    assert.equal(next.status, 200);
    assert.equal(next.data.item.report.id, id);
    assert.equal(next.data.item.report.reason, "spam");
    assert.equal(next.data.item.report.text, "Sells watches.");
    assert.equal(next.data.item.report.reporterProfileId, undefined, "the reporter stays unknown");
    assert.equal(next.data.item.reported.description, "Buy cheap watches at example.com");
    for (const m of [reporter, reported]) {
      assert.equal((await t.call("GET", "/api/games/arbitration/next", { cookie: m.cookie })).data.item, null);
      const r = await t.call("PUT", `/api/games/arbitration/${id}`, {
        cookie: m.cookie,
        json: { verdict: "VIOLATION" },
      });
      assert.equal(r.status, 409);
    }
    // Bad input: 400, nothing stored.
    for (const json of [{ verdict: "GUILTY" }, {}]) {
      const r = await t.call("PUT", `/api/games/arbitration/${id}`, { cookie: juror.cookie, json });
      assert.equal(r.status, 400);
    }
    assert.equal(
      (await t.call("PUT", `/api/games/arbitration/${newId()}`, {
        cookie: juror.cookie,
        json: { verdict: "VIOLATION" },
      })).status,
      404,
    );
    assert.equal(
      (await t.call("PUT", `/api/games/arbitration/${id}`, { json: { verdict: "VIOLATION" } })).status,
      401,
    );
    assert.equal(await count("arb_votes"), 0);

    const v = await t.call("PUT", `/api/games/arbitration/${id}`, {
      cookie: juror.cookie,
      json: { verdict: "VIOLATION" },
    });
    assert.equal(v.status, 200);
    assert.equal(v.data.case.violation, 1);
    assert.equal(v.data.credits, 1);
    const twice = await t.call("PUT", `/api/games/arbitration/${id}`, {
      cookie: juror.cookie,
      json: { verdict: "NO_VIOLATION" },
    });
    assert.equal(twice.status, 409);
    assert.equal((await t.call("GET", "/api/games/arbitration/next", { cookie: juror.cookie })).data.item, null);

    // Admin: the list with tallies; members may not.
    assert.equal((await t.call("GET", "/api/admin/reports", { cookie: juror.cookie })).status, 403);
    assert.equal((await t.call("GET", "/api/admin/reports")).status, 401);
    const list = await t.call("GET", "/api/admin/reports", { cookie: boss.cookie });
    assert.equal(list.status, 200);
    assert.equal(list.data.items[0].id, id);
    assert.deepEqual(list.data.items[0].case, { violation: 1, noViolation: 0, status: "OPEN" });

    const decide = (cookie: string | undefined, json: unknown, rid = id) =>
      t.call("PUT", `/api/admin/reports/${rid}`, { cookie, json });
    assert.equal((await decide(juror.cookie, { decision: "CONFIRM" })).status, 403);
    assert.equal((await decide(boss.cookie, { decision: "MAYBE" })).status, 400);
    assert.equal((await decide(boss.cookie, { decision: "CONFIRM" }, newId())).status, 404);
    const done = await decide(boss.cookie, { decision: "CONFIRM" });
    assert.equal(done.status, 200);
    assert.equal(done.data.case.status, "CONFIRMED");
    assert.equal((await decide(boss.cookie, { decision: "DISMISS" })).status, 409, "closed");

    // A closed report takes no more votes and is not shown.
    const late = await near(t);
    assert.equal((await t.call("GET", "/api/games/arbitration/next", { cookie: late.cookie })).data.item, null);
    const lateVote = await t.call("PUT", `/api/games/arbitration/${id}`, {
      cookie: late.cookie,
      json: { verdict: "NO_VIOLATION" },
    });
    assert.equal(lateVote.status, 409);
    assert.equal(lateVote.data.error.code, "closed");
    const page = await t.call("GET", "/games/arbitration", { cookie: late.cookie });
    assert.equal(page.status, 200);
  } finally {
    t.close();
  }
});

/** A real picture (its upload stored), 400 × 500. */
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

Deno.test("games - admin reads of one report and one tally; game pages need a login; admins see moderation", async () => {
  const t = await testApp();
  try {
    const a = await near(t), b = await near(t, "Text"), boss = await admin(t);
    const rep = await t.call("POST", "/api/profile-report", {
      cookie: a.cookie,
      json: { reportedProfileId: b.profileId, reason: "other", text: "Hm." },
    });
    const one = await t.call("GET", `/api/admin/reports/${rep.data.id}`, { cookie: boss.cookie });
    assert.equal(one.status, 200);
    assert.equal(one.data.reporterProfileId, a.profileId);
    assert.deepEqual(one.data.case, { violation: 0, noViolation: 0, status: "OPEN" });
    assert.equal((await t.call("GET", `/api/admin/reports/${rep.data.id}`, { cookie: a.cookie })).status, 403);
    assert.equal((await t.call("GET", `/api/admin/reports/${newId()}`, { cookie: boss.cookie })).status, 404);
    await t.call("PUT", `/api/games/gptbuster/${b.profileId}`, { cookie: a.cookie, json: { verdict: "HUMAN" } });
    const tally = await t.call("GET", `/api/admin/games/gptbuster/${b.profileId}`, { cookie: boss.cookie });
    assert.deepEqual(tally.data, { human: 1, machine: 0 });
    assert.equal((await t.call("GET", `/api/admin/games/gptbuster/${b.profileId}`, { cookie: a.cookie })).status, 403);
    assert.equal((await t.call("GET", `/api/admin/games/gptbuster/${b.profileId}`)).status, 401);

    for (const path of ["/games", "/games/gptbuster", "/games/ratinggame", "/games/arbitration", "/games/photocrop"]) {
      const anon = await t.call("GET", path);
      assert.equal(anon.status, 302, path);
      assert.equal(anon.headers.get("location"), "/login");
      const page = await t.call("GET", path, { cookie: a.cookie });
      assert.equal(page.status, 200, path);
      assert.match(page.text, /Volunteer credits: 1/, path);
    }
    const memberPage = await t.call("GET", "/games/arbitration", { cookie: a.cookie });
    assert.doesNotMatch(memberPage.text, /Reports \(admins\)/);
    const adminPage = await t.call("GET", "/games/arbitration", { cookie: boss.cookie });
    assert.match(adminPage.text, /Reports \(admins\)/);
    assert.match(adminPage.text, /Hm\./);
    assert.match((await t.call("GET", "/games/gptbuster", { cookie: boss.cookie })).text, /Flagged profiles/);
    assert.doesNotMatch((await t.call("GET", "/games/gptbuster", { cookie: a.cookie })).text, /Flagged profiles/);
  } finally {
    t.close();
  }
});

Deno.test("games - 100 credits within 30 days make a member a volunteer for 30 days: no daily limits, shown on /games and /billing; gone after", async () => {
  const t = await testApp();
  const DAY = 24 * 60 * 60_000;
  t.alignClock(DAY);
  try {
    const me = await near(t), owner = await near(t);
    const accountId = (await getAccountByEmail(me.email))!.id;
    const pics = await withPics(owner, VOLUNTEER_CREDITS + 1);
    let cookie = me.cookie;
    /** A fresh session: the test clock jumps days, further than a session stays idle. */
    const relogin = async () => {
      cookie = `sid=${(await createSession(accountId, false, "test")).token}`;
    };
    const meh = (picId: string) =>
      t.call("PUT", "/api/games/ratinggame", {
        cookie,
        json: { profilePicId: picId, profilePicProfileId: owner.profileId, likeType: "DISLIKE" },
      });
    const standing = async () => (await t.call("GET", "/api/games/volunteer", { cookie })).data;
    /** Starts `n` new conversations today; the statuses. */
    const converse = async (n: number) => {
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        const to = (await createAccount({ email: `c${crypto.randomUUID().slice(0, 8)}@example.com` }))!;
        const r = await t.call("POST", "/api/message", {
          cookie,
          json: { senderProfileId: me.profileId, recipientProfileId: to.defaultProfileId, bodyText: "hi" },
        });
        out.push(r.status);
      }
      return out;
    };

    // 20 a day (the cap): 80 after four days, not yet a volunteer.
    let next = 0;
    for (let day = 0; day < 4; day++) {
      if (day > 0) {
        shiftClock(DAY);
        await relogin();
      }
      for (let i = 0; i < CREDITS_PER_DAY; i++) assert.equal((await meh(pics[next++])).status, 200);
    }
    assert.deepEqual(await standing(), {
      credits: 80,
      recentCredits: 80,
      threshold: VOLUNTEER_CREDITS,
      toGo: 20,
      volunteerUntil: null,
    });
    assert.match((await t.call("GET", "/games", { cookie })).text, /80 credits in the last 30 days: 20 to go/);
    assert.match((await t.call("GET", "/billing", { cookie })).text, /You are a standard member\./);
    assert.equal((await t.call("GET", "/api/settings", { cookie })).data.volunteerUntil, null);

    // The fifth day's 20th credit makes 100: the VOLUNTEER role, for 30 days from then.
    shiftClock(DAY);
    await relogin();
    for (let i = 0; i < CREDITS_PER_DAY - 1; i++) await meh(pics[next++]);
    assert.equal((await standing()).volunteerUntil, null, "99: not yet");
    await meh(pics[next++]);
    const granted = await standing();
    assert.equal(granted.recentCredits, VOLUNTEER_CREDITS);
    assert.equal(granted.toGo, 0);
    assert.ok(Math.abs(granted.volunteerUntil - (now() + 30 * DAY)) < 5_000, "30 days from now");
    const hub = (await t.call("GET", "/games", { cookie })).text;
    assert.match(hub, /Volunteer until \d{1,2} \w+ \d{4}\. Thank you for helping!/);
    assert.match(hub, /Volunteer credits: 100/);
    assert.match((await t.call("GET", "/billing", { cookie })).text, /You are a volunteer until \d{1,2} \w+ \d{4}/);
    // Account settings say so too.
    const settings = (await t.call("GET", "/api/settings", { cookie })).data;
    assert.equal(settings.volunteerUntil, granted.volunteerUntil);
    assert.match((await t.call("GET", "/settings", { cookie })).text, /Volunteer until/);
    // The role lifts the standard daily limits: a 31st new conversation today is fine.
    assert.deepEqual(await converse(31), Array(31).fill(201));
    // The stored roles are untouched: the grant is its own record.
    assert.deepEqual((await getAccountByEmail(me.email))!.roles, ["USER"]);

    // A credit the next day, still at 100 or more in the window, renews the 30 days.
    shiftClock(DAY);
    await relogin();
    await meh(pics[next++]);
    const renewed = await standing();
    assert.ok(renewed.volunteerUntil - granted.volunteerUntil > DAY - 60_000, "renewed a day later");

    // 30 days without credits: the role is gone, and with it the unlimited use.
    shiftClock(30 * DAY + 60_000);
    await relogin();
    assert.deepEqual(await standing(), {
      credits: 101,
      recentCredits: 0,
      threshold: VOLUNTEER_CREDITS,
      toGo: VOLUNTEER_CREDITS,
      volunteerUntil: null,
    });
    const after = (await t.call("GET", "/games", { cookie })).text;
    assert.doesNotMatch(after, /Volunteer until/);
    assert.match(after, /0 credits in the last 30 days: 100 to go/);
    assert.match((await t.call("GET", "/billing", { cookie })).text, /You are a standard member\./);
    const statuses = await converse(31);
    assert.deepEqual(statuses.slice(0, 30), Array(30).fill(201));
    assert.equal(statuses[30], 429, "a standard member again: the 31st new conversation is refused");
    assert.equal((await t.call("GET", "/api/games/volunteer")).status, 401);
  } finally {
    t.close();
  }
});
