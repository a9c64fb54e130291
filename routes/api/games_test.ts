import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { createAccount, getAccountByEmail } from "../../kv/accounts.ts";
import { newId } from "../../kv/ids.ts";
import { now, shiftClock } from "../../kv/clock.ts";
import { CREDITS_PER_DAY, getCredits } from "../../kv/games/credits.ts";
import { createSession } from "../../kv/sessions.ts";
import { VOLUNTEER_CREDITS } from "../../domain/games.ts";
import { admin, block, count, type Member, near, seeded, withPics } from "../../tests/fixtures/games.ts";

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
