import assert from "node:assert/strict";
import { ALL_ACKS, testApp } from "../../tests/api.ts";
import { TEXTS } from "../../domain/texts.ts";
import { shiftClock } from "../../kv/clock.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";
import { listOutbox } from "../../kv/outbox.ts";
import { wrapKv } from "../../kv/db.ts";
import { originOf } from "../../kv/origins.ts";
import { countedKv, nameCallsByCaller, tripsOf } from "../../kv/roundTrips.ts";

Deno.test("auth - register sends a single-use login link that logs in", async () => {
  const t = await testApp();
  try {
    const token = await t.registerAndGetToken("New.Member@Example.com");
    const account = await getAccountByEmail("new.member@example.com");
    assert.ok(account, "account created under the lowercased email");
    assert.equal(account.passwordHash, null);
    assert.deepEqual(account.consents.texts, ALL_ACKS);
    const ok = await t.call("POST", "/api/auth", { form: { token } });
    assert.equal(ok.status, 200);
    assert.equal(ok.data.needsPassword, true);
    const cookie = t.cookieOf(ok.headers);
    assert.match(ok.headers.get("set-cookie")!, /HttpOnly/i);
    assert.match(ok.headers.get("set-cookie")!, /SameSite=Lax/i);
    assert.equal((await t.call("GET", "/api/settings", { cookie })).data.email, "new.member@example.com");
    const again = await t.call("POST", "/api/auth", { form: { token } });
    assert.equal(again.status, 401, "a login link works once");
  } finally {
    t.close();
  }
});

Deno.test("auth - a login by link reads its account once, and its deletion, sanction and origin in one store call", async () => {
  const t = await testApp();
  try {
    const token = await t.registerAndGetToken("once@example.com");
    wrapKv((db) => countedKv(db, 0));
    nameCallsByCaller(true);
    const { result: r, trips } = await tripsOf(() => t.call("POST", "/api/auth", { form: { token } }));
    assert.equal(r.status, 200);
    // Every remote KV call is a round trip the member waits for.
    const accountReads = trips.names.filter((n) => n.includes("getAccount"));
    assert.equal(accountReads.length, 1, trips.names.join("\n"));
    const together = ["getDeletion", "withdrawalOf", "originEntry"];
    assert.equal(trips.names.filter((n) => together.some((f) => n.includes(f))).length, 3, trips.names.join("\n"));
    assert.equal(
      trips.path.filter((n) => together.some((f) => n.includes(f))).length,
      1,
      `asked for together, not one after another: ${trips.path.join(", ")}`,
    );
    // The first login added its device to the account's origin, checked against the origin it read.
    const accountId = (await getAccountByEmail("once@example.com"))!.id;
    const origin = await originOf(accountId);
    assert.equal(origin?.firstLogin, true);
    assert.equal(origin?.devices.length, 1);
  } finally {
    nameCallsByCaller(false);
    t.close();
  }
});

Deno.test("auth - a login link expires after one hour", async () => {
  const t = await testApp();
  try {
    const token = await t.registerAndGetToken("late@example.com");
    shiftClock(3_600_001);
    assert.equal((await t.call("POST", "/api/auth", { form: { token } })).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("auth - register refuses missing acknowledgements and bad emails, storing nothing", async () => {
  const t = await testApp();
  try {
    const missing = await t.call("POST", "/api/auth/register", {
      json: { email: "a@example.com", acknowledgements: ALL_ACKS.slice(0, 2) },
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.data.error.message, TEXTS.acknowledgementsRequired);
    const bad = await t.call("POST", "/api/auth/register", { json: { email: "nope", acknowledgements: ALL_ACKS } });
    assert.equal(bad.status, 400);
    assert.equal(bad.data.error.code, "bad_request");
    const notJson = await t.call("POST", "/api/auth/register", {
      body: "{",
      headers: { "content-type": "application/json" },
    });
    assert.equal(notJson.status, 400);
    assert.equal(await getAccountByEmail("a@example.com"), null);
    assert.equal((await listOutbox()).length, 0);
  } finally {
    t.close();
  }
});

Deno.test("auth - registering a known email again is a recovery: same answer, new link, same account", async () => {
  const t = await testApp();
  try {
    await t.registerAndGetToken("twice@example.com");
    const first = await getAccountByEmail("twice@example.com");
    const token2 = await t.registerAndGetToken("twice@example.com");
    assert.equal((await getAccountByEmail("twice@example.com"))!.id, first!.id);
    assert.equal((await t.call("POST", "/api/auth", { form: { token: token2 } })).status, 200);
  } finally {
    t.close();
  }
});

Deno.test("auth - password login: lowercased email, the spec's 401 text, both fields required", async () => {
  const t = await testApp();
  try {
    const m = await t.member("pw@example.com");
    const set = await t.call("PUT", "/api/settings", {
      cookie: m.cookie,
      json: { name: "Pat", email: "pw@example.com", password: "correct horse battery" },
    });
    assert.equal(set.status, 200);
    const ok = await t.call("POST", "/api/auth", {
      form: { username: "PW@Example.com", password: "correct horse battery" },
    });
    assert.equal(ok.status, 200);
    const wrong = await t.call("POST", "/api/auth", {
      form: { username: "pw@example.com", password: "wrong password" },
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.data.error.message, TEXTS.loginIncorrect);
    const unknown = await t.call("POST", "/api/auth", { form: { username: "who@example.com", password: "whatever1" } });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.data.error.message, TEXTS.loginIncorrect);
    assert.equal((await t.call("POST", "/api/auth", { form: { username: "pw@example.com" } })).status, 400);
    assert.equal((await t.call("POST", "/api/auth", { json: { username: "a", password: "b" } })).status, 400);
  } finally {
    t.close();
  }
});

Deno.test("auth - login is rate limited per account and per address", async () => {
  const t = await testApp();
  try {
    t.alignClock(15 * 60_000);
    let last = 0;
    for (let i = 0; i < 11; i++) {
      last = (await t.call("POST", "/api/auth", { form: { username: "victim@example.com", password: `guess${i}xx` } }))
        .status;
    }
    assert.equal(last, 429, "the 11th try on one account within 15 minutes is refused");
    let byAddress = 0;
    for (let i = 0; i < 25; i++) {
      byAddress = (await t.call("POST", "/api/auth", { form: { username: `u${i}@example.com`, password: "guessxxx" } }))
        .status;
    }
    assert.equal(byAddress, 429, "one address trying many accounts is refused too");
  } finally {
    t.close();
  }
});

Deno.test("auth - logout ends the session on the server", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).status, 200);
    const out = await t.call("POST", "/api/auth/logout", { cookie: m.cookie });
    assert.equal(out.status, 200);
    const after = await t.call("GET", "/api/settings", { cookie: m.cookie });
    assert.equal(after.status, 401, "the old cookie no longer works");
    assert.equal(after.data.error.code, "unauthorized");
  } finally {
    t.close();
  }
});

Deno.test("auth - sessions end when idle too long", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    shiftClock(31 * 24 * 3_600_000);
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("auth - cross-site state changes are refused", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const evil = await t.call("PUT", "/api/settings", {
      cookie: m.cookie,
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      json: { name: "Hacked", email: "evil@example.com" },
    });
    assert.equal(evil.status, 403);
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).data.email, m.email);
    const same = await t.call("PUT", "/api/settings", {
      cookie: m.cookie,
      headers: { origin: "http://localhost", "sec-fetch-site": "same-origin" },
      json: { name: "Fine", email: m.email },
    });
    assert.equal(same.status, 200);
  } finally {
    t.close();
  }
});

Deno.test("auth - ADMIN_EMAILS get the ADMIN role", async () => {
  Deno.env.set("ADMIN_EMAILS", "boss@example.com");
  const t = await testApp();
  try {
    const boss = await t.member("boss@example.com");
    assert.deepEqual((await t.call("GET", "/api/settings", { cookie: boss.cookie })).data.roles, ["USER", "ADMIN"]);
    const counts = await t.call("GET", "/api/admin/dashboard/userRoleCounts", { cookie: boss.cookie });
    assert.deepEqual(counts.data, [{ role: "ADMIN", count: 1 }, { role: "USER", count: 1 }]);
  } finally {
    Deno.env.delete("ADMIN_EMAILS");
    t.close();
  }
});
