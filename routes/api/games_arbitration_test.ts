import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { newId } from "../../kv/ids.ts";
import { admin, count, near } from "../../tests/fixtures/games.ts";

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
