import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { listReports } from "../../kv/reports.ts";
import { newId } from "../../kv/ids.ts";

Deno.test("reports - a member reports another with a reason and text; it is stored for moderation", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const r = await t.call("POST", "/api/profile-report", {
      cookie: a.cookie,
      json: { reportedProfileId: b.profileId, reason: "spam", text: "  Sells things.  " },
    });
    assert.equal(r.status, 201);
    const [stored] = await listReports(b.profileId);
    assert.equal(stored.id, r.data.id);
    assert.equal(stored.reporterProfileId, a.profileId);
    assert.equal(stored.reportedProfileId, b.profileId);
    assert.equal(stored.reason, "spam");
    assert.equal(stored.text, "Sells things.");
    assert.equal((await listReports()).length, 1);
  } finally {
    t.close();
  }
});

Deno.test("reports - not oneself, not as another, not anonymous, valid reason, text at most 4000", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const ok = { reportedProfileId: b.profileId, reason: "harassment", text: "x" };
    const cases: [unknown, number, string?][] = [
      [{ ...ok, reportedProfileId: a.profileId }, 400],
      [{ ...ok, reason: "boring" }, 400],
      [{ ...ok, reason: undefined }, 400],
      [{ ...ok, text: "x".repeat(4001) }, 400],
      [{ ...ok, reportedProfileId: undefined }, 400],
      [{ ...ok, reportedProfileId: newId() }, 404],
      [{ ...ok, reporterProfileId: b.profileId }, 403],
      [ok, 401, "anonymous"],
    ];
    for (const [json, status, anon] of cases) {
      const r = await t.call("POST", "/api/profile-report", { cookie: anon ? undefined : a.cookie, json });
      assert.equal(r.status, status, JSON.stringify(json));
    }
    assert.equal((await listReports()).length, 0, "nothing stored");
    const max = await t.call("POST", "/api/profile-report", {
      cookie: a.cookie,
      json: { ...ok, text: "y".repeat(4000) },
    });
    assert.equal(max.status, 201);
  } finally {
    t.close();
  }
});

Deno.test("reports - rate limited per account", async () => {
  const t = await testApp();
  t.alignClock(24 * 60 * 60_000);
  try {
    const a = await t.member(), b = await t.member();
    const send = () =>
      t.call("POST", "/api/profile-report", {
        cookie: a.cookie,
        json: { reportedProfileId: b.profileId, reason: "other" },
      });
    for (let i = 0; i < 10; i++) assert.equal((await send()).status, 201);
    assert.equal((await send()).status, 429);
    assert.equal((await listReports()).length, 10);
  } finally {
    t.close();
  }
});

Deno.test("reports - the blocker may report the blocked member; the blocked member cannot report back", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    await t.call("PUT", "/api/profile-like", {
      cookie: a.cookie,
      json: { likerProfileId: a.profileId, likedProfileId: b.profileId, likeType: "UNDETERMINED", blocked: true },
    });
    const mine = await t.call("POST", "/api/profile-report", {
      cookie: a.cookie,
      json: { reportedProfileId: b.profileId, reason: "harassment" },
    });
    assert.equal(mine.status, 201);
    const back = await t.call("POST", "/api/profile-report", {
      cookie: b.cookie,
      json: { reportedProfileId: a.profileId, reason: "harassment" },
    });
    assert.equal(back.status, 404);
  } finally {
    t.close();
  }
});
