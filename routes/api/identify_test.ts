/**
 * 3 2 1 Identify through the API: a pose, a selfie, three eligible judges or an admin, the badge,
 * the selfie deleted once decided, the same selfie refused, judges who know the member never
 * dealt it, and "Only verified members can message me". Who may judge: sock puppets (new accounts
 * without pictures from one address) verify nobody; judges made where the member was, or in one
 * burst together, are not dealt the selfie; agreement among judges sharing an address goes to the
 * admins; an admin decides any waiting selfie (audited); dealing is random; a judge who keeps
 * disagreeing with the outcomes is no longer dealt selfies.
 */

import assert from "node:assert/strict";
import sharp from "sharp";
import { testApp } from "../../tests/api.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile, updateProfile } from "../../kv/profiles.ts";
import { reportPosition } from "../../kv/positions/mod.ts";
import { now } from "../../kv/clock.ts";
import { getBlob } from "../../kv/blobs.ts";
import { picRecord } from "../../tests/fixtures/pictures.ts";
import { collectMemberData } from "../../kv/memberData.ts";
import { loadMaster, loadVariant } from "../../workers/pictures.ts";
import { ATTEMPTS_PER_DAY, POSES } from "../../domain/identify.ts";
import { JUDGE_MIN_AGE_MS, JUDGE_MIN_CASES } from "../../kv/games/identifyJudges.ts";

type T = Awaited<ReturnType<typeof testApp>>;
/** A member and the address they registered from (and call from). */
type Member = Awaited<ReturnType<T["member"]>> & { address: string };

const DAY_MS = 24 * 3_600_000;
let spot = 0;
/** A member registered from an address of their own (or `opts.address`), placed near the others. */
async function near(
  t: T,
  email?: string,
  opts: { address?: string; newcomer?: boolean; ageMs?: number } = {},
): Promise<Member> {
  spot++;
  const address = opts.address ?? `198.51.${Math.floor(spot / 250)}.${spot % 250 + 1}`;
  const m = { ...await t.member(email, { address, newcomer: opts.newcomer, ageMs: opts.ageMs }), address };
  await reportPosition(m.profileId, { lat: 33.45 + 0.002 * spot, lon: -112.07, use: "OVERRIDE", hide: false });
  return m;
}

/**
 * An eligible judge: an account older than a week (`ageDays`, 8 unless told), with a public
 * picture, registered from an address of their own (or `address`).
 */
async function judge(t: T, opts: { address?: string; ageDays?: number } = {}): Promise<Member> {
  // The kit's two days of an established member, and `ageDays` more.
  const j = await near(t, undefined, { address: opts.address, ageMs: (2 + (opts.ageDays ?? 8)) * DAY_MS });
  await withPics(j, 1);
  return j;
}

/** The selfie dealt to `j` (asked from their own address), or null. */
const next = (t: T, j: Member) => t.call("GET", "/api/games/identify/next", { cookie: j.cookie, address: j.address });

/** Public picture records for a member (the game reads the records; judges' picture bytes are not asked here). */
async function withPics(m: Member, n: number): Promise<string[]> {
  const p = (await getProfile(m.profileId))!;
  const pics = Array.from({ length: n }, () => picRecord({ profileId: p.id, tsCreated: now(), tsUpdated: now() }));
  for (const x of pics) await kv().set(keys.pic(x.id), x);
  await kv().set(keys.profile(p.id), { ...p, profilePicIds: pics.map((x) => x.id) });
  return pics.map((x) => x.id);
}

/** A selfie unlike any other `seed`: bars of seeded brightness (a different perceptual hash each). */
async function selfie(seed: number): Promise<Uint8Array> {
  let x = seed * 7919 + 17;
  const rnd = () => (x = (x * 48271) % 2147483647) / 2147483647;
  const bars = Array.from(
    { length: 24 },
    (_, i) =>
      `<rect x="${(i % 6) * 60}" y="${Math.floor(i / 6) * 60}" width="60" height="60" fill="hsl(0,0%,${
        Math.round(rnd() * 100)
      }%)"/>`,
  ).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="360" height="240">${bars}</svg>`;
  return new Uint8Array(await sharp(new TextEncoder().encode(svg)).jpeg().toBuffer());
}

async function send(t: T, m: Member, bytes: Uint8Array, noHands = false) {
  const c = await t.call("POST", "/api/games/identify/challenge", { cookie: m.cookie, json: { noHands } });
  assert.equal(c.status, 201, c.text);
  const r = await t.call("POST", "/api/games/identify/selfie", {
    cookie: m.cookie,
    form: {
      challenge: c.data.challenge.id,
      selfie: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: "image/jpeg" }),
    },
  });
  return { challenge: c.data.challenge, r };
}

/** `j` answers on selfie `id`, from their own address (or `from`). */
const answer = (t: T, j: Member, id: string, a: string, from = j.address) =>
  t.call("PUT", `/api/games/identify/attempts/${id}`, { cookie: j.cookie, json: { answer: a }, address: from });

/** An admin: a member given the ADMIN role. */
async function makeAdmin(t: T, email = `boss${spot}@example.com`): Promise<Member> {
  const admin = await near(t, email);
  await setRoles((await getAccountByEmail(admin.email))!.id, ["USER", "ADMIN"]);
  return admin;
}

/** A member with a public picture and a selfie being judged: its attempt id. */
async function waiting(t: T, seed: number, address?: string): Promise<{ m: Member; attemptId: string }> {
  const m = await near(t, undefined, { address });
  await withPics(m, 1);
  const r = (await send(t, m, await selfie(seed))).r;
  assert.equal(r.status, 201, r.text);
  return { m, attemptId: r.data.attemptId };
}

Deno.test("identify - ask, judge as three eligible members, badge, selfie deleted, reuse refused, admin decides a disagreement", async () => {
  const t = await testApp();
  try {
    const m = await near(t);
    const judges = [await judge(t), await judge(t), await judge(t)];
    const admin = await makeAdmin(t, "boss@example.com");

    // No public picture: nothing to compare with.
    const none = await t.call("POST", "/api/games/identify/challenge", { cookie: m.cookie, json: {} });
    assert.equal(none.data.error.code, "no_picture");
    await withPics(m, 2);

    // A pose without hands when asked.
    const noHands = await t.call("POST", "/api/games/identify/challenge", {
      cookie: m.cookie,
      json: { noHands: true },
    });
    assert.ok(
      POSES.filter((p) => !p.hands).map((p) => p.id as string).includes(noHands.data.challenge.poseId),
    );

    const bytes = await selfie(1);
    const { challenge, r } = await send(t, m, bytes);
    assert.equal(r.status, 201, r.text);
    const attemptId: string = r.data.attemptId;
    // The challenge cannot be replayed, and one selfie is in flight at a time.
    const replay = await t.call("POST", "/api/games/identify/selfie", {
      cookie: m.cookie,
      form: { challenge: challenge.id, selfie: new Blob([await selfie(2) as Uint8Array<ArrayBuffer>]) },
    });
    assert.equal(replay.status, 410);
    const again = await t.call("POST", "/api/games/identify/challenge", { cookie: m.cookie, json: {} });
    assert.equal(again.data.error.code, "attempt_open");

    // Nobody sees the selfie before it is dealt to them; the member never judges their own.
    const early = await t.call("GET", `/api/games/identify/attempts/${attemptId}/selfie`, { cookie: judges[0].cookie });
    assert.equal(early.status, 404);
    assert.equal((await next(t, m)).data.item, null);

    for (const [i, j] of judges.entries()) {
      const dealt = await next(t, j);
      assert.equal(dealt.data.item.attemptId, attemptId);
      assert.equal(dealt.data.why, null);
      // Nothing that finds the member: no id, no name.
      assert.ok(!dealt.text.includes(m.profileId));
      const seen = await t.call("GET", `/api/games/identify/attempts/${attemptId}/selfie`, { cookie: j.cookie });
      assert.equal(seen.status, 200);
      assert.equal(seen.headers.get("cache-control"), "no-store, private");
      const a = await answer(t, j, attemptId, "SAME");
      assert.equal(a.status, 200, a.text);
      assert.equal(a.data.credited, true);
      assert.equal(a.data.status, i === 2 ? "DECIDED" : "OPEN");
    }

    // The badge, on the profile and in discovery; the selfie is gone, the outcome kept and exported.
    const view = await t.call("GET", `/api/profile/${m.profileId}`, { cookie: judges[0].cookie });
    assert.equal(view.data.verified, true);
    const briefs = await t.call("GET", "/api/profile-briefs/nearest?verified=1", { cookie: judges[0].cookie });
    assert.deepEqual(briefs.data.items.map((b: { profileId: string }) => b.profileId), [m.profileId]);
    assert.equal(await getBlob(`identify-selfie:${attemptId}`), null);
    const gone = await t.call("GET", `/api/games/identify/attempts/${attemptId}/selfie`, { cookie: admin.cookie });
    assert.equal(gone.status, 404);
    const exported = JSON.stringify(
      (await collectMemberData((await getProfile(m.profileId))!.accountId, { loadMaster, loadVariant }))!.json,
    );
    assert.ok(exported.includes('"outcome":"VERIFIED"'));

    // The same selfie from another account is refused.
    const other = await near(t);
    await withPics(other, 1);
    const reused = (await send(t, other, bytes)).r;
    assert.equal(reused.data.error.code, "selfie_reused");

    // A disagreement goes to the admins; the admin's answer decides alone.
    const second = (await send(t, other, await selfie(3))).r;
    assert.equal(second.status, 201, second.text);
    const id2: string = second.data.attemptId;
    for (const [i, j] of judges.entries()) {
      assert.equal((await next(t, j)).data.item.attemptId, id2);
      const a = await answer(t, j, id2, i === 1 ? "WRONG_POSE" : "SAME");
      assert.equal(a.data.status, i === 2 ? "ESCALATED" : "OPEN");
    }
    const queue = await t.call("GET", "/api/admin/games/identify", { cookie: admin.cookie });
    assert.deepEqual(
      queue.data.items.map((x: { attemptId: string; status: string; escalation: string }) => [
        x.attemptId,
        x.status,
        x.escalation,
      ]),
      [[id2, "ESCALATED", "DISAGREED"]],
    );
    assert.ok(!queue.text.includes(other.profileId));
    assert.equal((await t.call("GET", "/api/admin/games/identify", { cookie: m.cookie })).status, 403);
    const decided = await t.call("PUT", `/api/admin/games/identify/${id2}`, {
      cookie: admin.cookie,
      json: { answer: "SAME" },
    });
    assert.equal(decided.data.outcome, "VERIFIED");
    assert.equal((await t.call("GET", `/api/profile/${other.profileId}`, { cookie: m.cookie })).data.verified, true);
    assert.equal(await getBlob(`identify-selfie:${id2}`), null);

    // A new first picture the judges did not compare ends the badge until the member verifies again.
    const [, newFirst] = await withPics(other, 0).then(async () => {
      const p = (await getProfile(other.profileId))!;
      const pic = picRecord({ profileId: p.id, tsCreated: now(), tsUpdated: now() });
      await kv().set(keys.pic(pic.id), pic);
      await kv().set(keys.profile(p.id), { ...p, profilePicIds: [...p.profilePicIds, pic.id] });
      return [p, pic.id] as const;
    });
    const old = (await getProfile(other.profileId))!.profilePicIds.filter((id) => id !== newFirst);
    assert.ok((await updateProfile(other.profileId, { profilePicIds: [newFirst, ...old] })).ok);
    assert.equal((await t.call("GET", `/api/profile/${other.profileId}`, { cookie: m.cookie })).data.verified, false);
    const status = await t.call("GET", "/api/games/identify", { cookie: other.cookie });
    assert.equal(status.data.status.lapsed, true);
  } finally {
    t.close();
  }
});

Deno.test("identify - judges who know the member are never dealt it; withdraw deletes; 3 a day", async () => {
  const t = await testApp();
  try {
    const m = await near(t);
    const liker = await judge(t);
    const stranger = await judge(t);
    await withPics(m, 1);
    await t.call("PUT", "/api/profile-like", {
      cookie: liker.cookie,
      json: { likerProfileId: liker.profileId, likedProfileId: m.profileId, likeType: "LIKE" },
    });
    const r = (await send(t, m, await selfie(10))).r;
    assert.equal(r.status, 201, r.text);
    // An eligible judge who liked the member is not dealt it; one who never met them is.
    const toLiker = await next(t, liker);
    assert.equal(toLiker.data.item, null);
    assert.equal(toLiker.data.why, null);
    assert.equal((await next(t, stranger)).data.item.attemptId, r.data.attemptId);
    // Not dealt: cannot answer.
    assert.equal((await answer(t, liker, r.data.attemptId, "SAME")).status, 404);

    // Withdraw: the selfie goes at once.
    assert.equal((await t.call("DELETE", "/api/games/identify/attempt", { cookie: m.cookie })).status, 200);
    assert.equal(await getBlob(`identify-selfie:${r.data.attemptId}`), null);
    for (let i = 1; i < ATTEMPTS_PER_DAY; i++) {
      const x = (await send(t, m, await selfie(20 + i))).r;
      assert.equal(x.status, 201, x.text);
      await t.call("DELETE", "/api/games/identify/attempt", { cookie: m.cookie });
    }
    const fourth = await t.call("POST", "/api/games/identify/challenge", { cookie: m.cookie, json: {} });
    assert.equal(fourth.status, 429);
  } finally {
    t.close();
  }
});

Deno.test("identify - only verified members can message me: others are told why", async () => {
  const t = await testApp();
  try {
    const picky = await near(t);
    const stranger = await near(t);
    const verified = await near(t);
    await withPics(verified, 1);
    const p = (await getProfile(verified.profileId))!;
    await kv().set(keys.profile(p.id), { ...p, verifiedPicIds: p.profilePicIds, tsVerified: now() });
    const on = await t.call("PUT", "/api/settings/verified-only", { cookie: picky.cookie, json: { on: true } });
    assert.equal(on.data.on, true);
    const msg = (from: Member) =>
      t.call("POST", "/api/message", {
        cookie: from.cookie,
        json: {
          senderProfileId: from.profileId,
          recipientProfileId: picky.profileId,
          bodyText: "hello there",
          profilePicIds: [],
          tsCreated: 0,
        },
      });
    const refused = await msg(stranger);
    assert.equal(refused.status, 403);
    assert.equal(refused.data.error.code, "recipient_verified_only");
    assert.match(refused.data.error.message, /verified/);
    assert.equal((await msg(verified)).status, 201);
  } finally {
    t.close();
  }
});

Deno.test("identify - three sock puppets made minutes ago from one address cannot verify anyone", async () => {
  const t = await testApp();
  try {
    const { m, attemptId } = await waiting(t, 100);
    // Three accounts made seconds after the selfie, without pictures, from one address.
    const puppets = [
      await near(t, undefined, { address: "203.0.113.66", newcomer: true }),
      await near(t, undefined, { address: "203.0.113.66", newcomer: true }),
      await near(t, undefined, { address: "203.0.113.66", newcomer: true }),
    ];
    for (const p of puppets) {
      const asked = await next(t, p);
      assert.equal(asked.status, 200, asked.text);
      assert.equal(asked.data.item, null);
      assert.equal(asked.data.why, "NO_PICTURE");
      // Never dealt it: the answer is refused and counts for nothing.
      assert.equal((await answer(t, p, attemptId, "SAME")).status, 404);
    }
    // With pictures they are still too new: told from when they may judge.
    for (const p of puppets) await withPics(p, 1);
    const tooNew = await next(t, puppets[0]);
    assert.equal(tooNew.data.why, "NEW_ACCOUNT");
    assert.ok(Math.abs(tooNew.data.judgeFrom - (now() + JUDGE_MIN_AGE_MS)) < 60_000);
    // The page says so too, instead of an error.
    const page = await t.call("GET", "/games/identify", { cookie: puppets[0].cookie });
    assert.equal(page.status, 200);
    assert.match(page.text, /when your account is a week old/);

    // Were they a week old, they would still be one registration burst from one address: only one
    // of them is dealt it.
    for (const p of puppets) await t.backdateAccount(p.profileId, JUDGE_MIN_AGE_MS + DAY_MS);
    const dealt: (string | null)[] = [];
    for (const p of puppets) dealt.push((await next(t, p)).data.item?.attemptId ?? null);
    assert.deepEqual(dealt.filter((x) => x === attemptId).length, 1);
    for (const [i, p] of puppets.entries()) {
      await answer(t, p, attemptId, "SAME").then((r) => assert.equal(r.status, dealt[i] ? 200 : 404));
    }

    // An eligible judge made from the member's own address is never dealt it.
    const housemate = await judge(t, { address: m.address });
    assert.equal((await next(t, housemate)).data.item, null);

    // The member still waits; no badge.
    const status = await t.call("GET", "/api/games/identify", { cookie: m.cookie });
    assert.equal(status.data.status.pending, attemptId);
    assert.equal(status.data.status.verified, false);
    assert.equal(
      (await t.call("GET", `/api/profile/${m.profileId}`, { cookie: puppets[0].cookie })).data.verified,
      false,
    );
  } finally {
    t.close();
  }
});

Deno.test("identify - a new community has no eligible judges: the selfie waits, an admin decides it from the queue, audited", async () => {
  const t = await testApp();
  try {
    const { m, attemptId } = await waiting(t, 200);
    const newcomer = await near(t);
    await withPics(newcomer, 1);
    assert.equal((await next(t, newcomer)).data.why, "NEW_ACCOUNT");
    const admin = await makeAdmin(t);

    // The admins' queue (API and the moderation page) holds it while it is still with the judges.
    const queue = await t.call("GET", "/api/admin/games/identify", { cookie: admin.cookie });
    assert.deepEqual(
      queue.data.items.map((x: { attemptId: string; status: string; escalation: null }) => [
        x.attemptId,
        x.status,
        x.escalation,
      ]),
      [[attemptId, "OPEN", null]],
    );
    const page = await t.call("GET", "/admin/moderation", { cookie: admin.cookie });
    assert.equal(page.status, 200);
    assert.ok(page.text.includes(`data-attempt="${attemptId}"`), "the moderation queue shows the selfie");
    assert.ok(page.text.includes("Still with the judges: you may decide it now."));
    assert.equal(
      (await t.call("GET", `/api/games/identify/attempts/${attemptId}/selfie`, { cookie: admin.cookie })).status,
      200,
    );

    // Not an admin: refused. The admin's answer decides.
    const refused = await t.call("PUT", `/api/admin/games/identify/${attemptId}`, {
      cookie: newcomer.cookie,
      json: { answer: "SAME" },
    });
    assert.equal(refused.status, 403);
    const decided = await t.call("PUT", `/api/admin/games/identify/${attemptId}`, {
      cookie: admin.cookie,
      json: { answer: "SAME" },
    });
    assert.equal(decided.status, 200, decided.text);
    assert.equal(decided.data.outcome, "VERIFIED");
    assert.equal((await t.call("GET", `/api/profile/${m.profileId}`, { cookie: newcomer.cookie })).data.verified, true);
    assert.equal(
      (await t.call("PUT", `/api/admin/games/identify/${attemptId}`, {
        cookie: admin.cookie,
        json: { answer: "SAME" },
      }))
        .status,
      404,
    );

    // The audit log names the admin, the member, the selfie and the answer.
    const audit = await t.call("GET", "/api/admin/audit", { cookie: admin.cookie });
    const line = audit.data.items.find((e: { action: string }) => e.action === "IDENTIFY_VERIFIED");
    assert.ok(line, audit.text);
    assert.equal(line.target, m.profileId);
    assert.equal(line.by, (await getAccountByEmail(admin.email))!.id);
    assert.equal(line.reason, "SAME");
    assert.match(line.detail, new RegExp(`selfie ${attemptId}; waiting for judges`));
  } finally {
    t.close();
  }
});

Deno.test("identify - agreement among judges sharing an address goes to the admins", async () => {
  const t = await testApp();
  try {
    const admin = await makeAdmin(t);
    // Made from one address, weeks apart (no registration burst): each may be dealt it, but
    // their agreement does not decide.
    const { m, attemptId } = await waiting(t, 300);
    const household = [
      await judge(t, { address: "203.0.113.7", ageDays: 10 }),
      await judge(t, { address: "203.0.113.7", ageDays: 30 }),
      await judge(t, { address: "203.0.113.7", ageDays: 60 }),
    ];
    const statuses: string[] = [];
    for (const j of household) {
      assert.equal((await next(t, j)).data.item.attemptId, attemptId);
      statuses.push((await answer(t, j, attemptId, "SAME")).data.status);
    }
    assert.deepEqual(statuses, ["OPEN", "OPEN", "ESCALATED"]);
    assert.equal((await t.call("GET", `/api/profile/${m.profileId}`, { cookie: admin.cookie })).data.verified, false);

    // Made from three addresses, but answering from one: the same.
    const second = await waiting(t, 301);
    const apart = [await judge(t), await judge(t), await judge(t)];
    const answered: string[] = [];
    for (const j of apart) {
      assert.equal((await next(t, j)).data.item.attemptId, second.attemptId);
      answered.push((await answer(t, j, second.attemptId, "SAME", "192.0.2.99")).data.status);
    }
    assert.deepEqual(answered, ["OPEN", "OPEN", "ESCALATED"]);

    const queue = await t.call("GET", "/api/admin/games/identify", { cookie: admin.cookie });
    assert.deepEqual(
      queue.data.items.map((x: { attemptId: string; escalation: string; same: number }) => [
        x.attemptId,
        x.escalation,
        x.same,
      ]).sort(),
      [[attemptId, "SHARED_PLACE", 3], [second.attemptId, "SHARED_PLACE", 3]].sort(),
    );
    const audit = await t.call("GET", "/api/admin/audit", { cookie: admin.cookie });
    assert.deepEqual(
      audit.data.items.filter((e: { action: string }) => e.action === "IDENTIFY_TO_ADMINS")
        .map((e: { target: string }) => e.target).sort(),
      [m.profileId, second.m.profileId].sort(),
    );
  } finally {
    t.close();
  }
});

Deno.test("identify - selfies are dealt at random, never newest first; asking again deals the same one", async () => {
  const t = await testApp();
  try {
    const attempts: string[] = [];
    for (let i = 0; i < 5; i++) attempts.push((await waiting(t, 400 + i)).attemptId);
    const newest = attempts[attempts.length - 1];
    const firsts: string[] = [];
    for (let i = 0; i < 8; i++) {
      const j = await judge(t);
      const first = (await next(t, j)).data.item.attemptId;
      assert.ok(attempts.includes(first));
      // Asking again (a reload) deals the same selfie: a judge cannot fish for one.
      assert.equal((await next(t, j)).data.item.attemptId, first);
      firsts.push(first);
    }
    // Oldest first or newest first would deal all eight judges the same selfie.
    assert.ok(new Set(firsts).size > 1, `dealt ${firsts.join(", ")}`);
    assert.ok(firsts.some((id) => id !== newest));
  } finally {
    t.close();
  }
});

Deno.test("identify - a judge who keeps disagreeing with the outcomes stops being dealt selfies", async () => {
  const t = await testApp();
  try {
    const admin = await makeAdmin(t);
    const [a, b, contrarian] = [await judge(t), await judge(t), await judge(t)];
    for (let round = 0; round < JUDGE_MIN_CASES; round++) {
      const { m, attemptId } = await waiting(t, 500 + round);
      for (const j of [a, contrarian, b]) {
        assert.equal((await next(t, j)).data.item.attemptId, attemptId, `round ${round}`);
        await answer(t, j, attemptId, j === contrarian ? "NOT_SAME" : "SAME");
      }
      const decided = await t.call("PUT", `/api/admin/games/identify/${attemptId}`, {
        cookie: admin.cookie,
        json: { answer: "SAME" },
      });
      assert.equal(decided.data.outcome, "VERIFIED");
      assert.equal((await t.call("GET", `/api/profile/${m.profileId}`, { cookie: a.cookie })).data.verified, true);
    }
    const { attemptId } = await waiting(t, 599);
    const paused = await next(t, contrarian);
    assert.equal(paused.data.item, null);
    assert.equal(paused.data.why, "PAUSED");
    assert.equal((await answer(t, contrarian, attemptId, "NOT_SAME")).status, 404);
    // Those who agreed still judge.
    assert.equal((await next(t, a)).data.item.attemptId, attemptId);
  } finally {
    t.close();
  }
});

Deno.test("identify - a judge whose account was first used in the member's browser is not dealt the selfie", async () => {
  const t = await testApp();
  try {
    // One browser (one device token), two accounts registered from two addresses.
    const device = "d".repeat(43);
    const inBrowser = async (address: string) => {
      const token = await t.registerAndGetToken(`b${++spot}@example.com`, address);
      const r = await t.call("POST", "/api/auth", {
        form: { token },
        address,
        headers: { cookie: `login-device=${device}` },
      });
      assert.equal(r.status, 200, r.text);
      return { email: "", cookie: t.cookieOf(r.headers), profileId: r.data.profileId as string, address };
    };
    const m = await inBrowser("198.18.0.1");
    await withPics(m, 1);
    const r = (await send(t, m, await selfie(700))).r;
    assert.equal(r.status, 201, r.text);
    const sameBrowser = await inBrowser("198.18.0.2");
    await withPics(sameBrowser, 1);
    await t.backdateAccount(sameBrowser.profileId, 30 * DAY_MS);
    const asked = await next(t, sameBrowser);
    assert.equal(asked.data.item, null);
    assert.equal(asked.data.why, null);
    // Another eligible judge is dealt it.
    assert.equal((await next(t, await judge(t))).data.item.attemptId, r.data.attemptId);
  } finally {
    t.close();
  }
});
