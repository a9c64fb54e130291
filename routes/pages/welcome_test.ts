/**
 * Finishing onboarding (POST /welcome "done") leaves the member in discovery: the point chosen on
 * the last step is saved as part of finishing, a member with no point and no position is placed
 * near the default city, and a bad point ends nothing.
 */

import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";
import { getOwnPosition } from "../../kv/positions/mod.ts";
import { DEFAULT_CITY, RANDOM_SPREAD_DEG } from "../../domain/defaultPlace.ts";

type T = Awaited<ReturnType<typeof testApp>>;
type Member = Awaited<ReturnType<T["member"]>>;

/** The ids in a member's nearest list, as the grid asks for it. */
async function nearestIds(t: T, m: Member): Promise<string[]> {
  const r = await t.call("GET", "/api/profile-briefs/nearest?size=30", { cookie: m.cookie });
  assert.equal(r.status, 200, r.text);
  return (r.data.items as { profileId: string }[]).map((b) => b.profileId);
}

function finish(t: T, m: Member, form: Record<string, string> = {}) {
  return t.call("POST", "/welcome", { cookie: m.cookie, form: { step: "done", ...form } });
}

/** A member already in discovery near the default city. */
async function neighbour(t: T): Promise<Member> {
  const b = await t.member();
  const r = await t.call("PUT", `/api/profile-position/${b.profileId}`, {
    cookie: b.cookie,
    json: { overrideLat: DEFAULT_CITY.lat + 0.01, overrideLon: DEFAULT_CITY.lon, use: "OVERRIDE", hide: false },
  });
  assert.equal(r.status, 200, r.text);
  return b;
}

Deno.test("welcome - finishing without a saved position but with a chosen point leaves the member in discovery", async () => {
  const t = await testApp();
  try {
    const b = await neighbour(t);
    const a = await t.member(undefined, { onboarding: true });
    assert.equal(await getOwnPosition(a.profileId), null, "no position saved yet (the report never went out)");
    // The offered random point near Phoenix, kept: an override, as the reporter sends it.
    const r = await finish(t, a, { lat: "33.4712", lon: "-112.0433", use: "OVERRIDE", hide: "false" });
    assert.equal(r.status, 204, r.text);
    assert.equal((await getAccountByEmail(a.email))!.onboarding, undefined, "onboarding is done");
    const own = (await getOwnPosition(a.profileId))!;
    assert.deepEqual([own.lat, own.lon, own.use, own.hide], [33.4712, -112.0433, "OVERRIDE", false]);
    // At once, no waiting: each is in the other's nearest list.
    assert.ok((await nearestIds(t, b)).includes(a.profileId), "the newcomer is seen");
    assert.ok((await nearestIds(t, a)).includes(b.profileId), "the newcomer sees who is around");
  } finally {
    await t.close();
  }
});

Deno.test("welcome - finishing with no point and no position places the member near the default city", async () => {
  const t = await testApp();
  try {
    const b = await neighbour(t);
    const a = await t.member(undefined, { onboarding: true });
    const r = await finish(t, a);
    assert.equal(r.status, 204, r.text);
    const own = (await getOwnPosition(a.profileId))!;
    assert.ok(Math.abs(own.lat - DEFAULT_CITY.lat) <= RANDOM_SPREAD_DEG);
    assert.ok(Math.abs(own.lon - DEFAULT_CITY.lon) <= RANDOM_SPREAD_DEG);
    assert.ok((await nearestIds(t, b)).includes(a.profileId));
    // A position already saved is kept as it is when no point comes.
    const c = await t.member(undefined, { onboarding: true });
    const put = await t.call("PUT", `/api/profile-position/${c.profileId}`, {
      cookie: c.cookie,
      json: { gpsLat: 40.7128, gpsLon: -74.006, use: "DEVICE_GPS", hide: false },
    });
    assert.equal(put.status, 200, put.text);
    assert.equal((await finish(t, c)).status, 204);
    assert.equal((await getOwnPosition(c.profileId))!.lat, 40.7128);
  } finally {
    await t.close();
  }
});

Deno.test("welcome - a bad point or step is a 400 JSON error and onboarding goes on", async () => {
  const t = await testApp();
  try {
    const a = await t.member(undefined, { onboarding: true });
    for (
      const form of <Record<string, string>[]> [
        { lat: "91", lon: "0" },
        { lat: "abc", lon: "1" },
        { lat: "", lon: "" },
        { lat: "33.4", lon: "-112", use: "TELEPORT" },
      ]
    ) {
      const r = await finish(t, a, form);
      assert.equal(r.status, 400, `${JSON.stringify(form)}: ${r.text}`);
      assert.equal(r.data.error.code, "bad_request");
    }
    const step = await t.call("POST", "/welcome", { cookie: a.cookie, form: { step: "nowhere" } });
    assert.equal(step.status, 400);
    assert.ok((await getAccountByEmail(a.email))!.onboarding, "still onboarding");
    assert.equal(await getOwnPosition(a.profileId), null, "nothing saved");
    const anon = await t.call("POST", "/welcome", { form: { step: "done" } });
    assert.equal(anon.status, 401);
  } finally {
    await t.close();
  }
});
