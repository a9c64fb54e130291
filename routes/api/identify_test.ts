/**
 * 3 2 1 Identify through the API: a pose, a selfie, three judges or an admin, the badge, the
 * selfie deleted once decided, the same selfie refused, judges who know the member never dealt
 * it, and "Only verified members can message me".
 */

import assert from "node:assert/strict";
import sharp from "sharp";
import { testApp } from "../../tests/api.ts";
import { getAccountByEmail, setRoles } from "../../kv/accounts.ts";
import { kv } from "../../kv/db.ts";
import { keys } from "../../kv/keys.ts";
import { getProfile, updateProfile } from "../../kv/profiles.ts";
import { reportPosition } from "../../kv/positions.ts";
import { now } from "../../kv/clock.ts";
import { getBlob } from "../../kv/blobs.ts";
import { picRecord } from "../../tests/fixtures/pictures.ts";
import { collectMemberData } from "../../kv/memberData.ts";
import { loadMaster, loadVariant } from "../../workers/pictures.ts";
import { ATTEMPTS_PER_DAY, POSES } from "../../domain/identify.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

let spot = 0;
async function near(t: T, email?: string): Promise<Member> {
  const m = await t.member(email);
  spot++;
  await reportPosition(m.profileId, { lat: 33.45 + 0.002 * spot, lon: -112.07, use: "OVERRIDE", hide: false });
  return m;
}

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

const answer = (t: T, j: Member, id: string, a: string) =>
  t.call("PUT", `/api/games/identify/attempts/${id}`, { cookie: j.cookie, json: { answer: a } });

Deno.test("identify - ask, judge as three members, badge, selfie deleted, reuse refused, admin decides a disagreement", async () => {
  const t = await testApp();
  try {
    const m = await near(t);
    const judges = [await near(t), await near(t), await near(t)];
    const admin = await near(t, "boss@example.com");
    await setRoles((await getAccountByEmail(admin.email))!.id, ["USER", "ADMIN"]);

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
    assert.equal((await t.call("GET", "/api/games/identify/next", { cookie: m.cookie })).data.item, null);

    for (const [i, j] of judges.entries()) {
      const next = await t.call("GET", "/api/games/identify/next", { cookie: j.cookie });
      assert.equal(next.data.item.attemptId, attemptId);
      // Nothing that finds the member: no id, no name.
      assert.ok(!next.text.includes(m.profileId));
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
      const next = await t.call("GET", "/api/games/identify/next", { cookie: j.cookie });
      assert.equal(next.data.item.attemptId, id2);
      const a = await answer(t, j, id2, i === 1 ? "WRONG_POSE" : "SAME");
      assert.equal(a.data.status, i === 2 ? "ESCALATED" : "OPEN");
    }
    const queue = await t.call("GET", "/api/admin/games/identify", { cookie: admin.cookie });
    assert.deepEqual(queue.data.items.map((x: { attemptId: string; status: string }) => [x.attemptId, x.status]), [
      [id2, "ESCALATED"],
    ]);
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
    const liker = await near(t);
    await withPics(m, 1);
    await t.call("PUT", "/api/profile-like", {
      cookie: liker.cookie,
      json: { likerProfileId: liker.profileId, likedProfileId: m.profileId, likeType: "LIKE" },
    });
    const r = (await send(t, m, await selfie(10))).r;
    assert.equal(r.status, 201, r.text);
    assert.equal((await t.call("GET", "/api/games/identify/next", { cookie: liker.cookie })).data.item, null);
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
