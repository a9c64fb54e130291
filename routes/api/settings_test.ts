import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { TEXTS } from "../../domain/texts.ts";
import { getAccount, getAccountByEmail } from "../../kv/accounts.ts";

Deno.test("settings - a member reads and saves name, email and a new password", async () => {
  const t = await testApp();
  try {
    const m = await t.member("set@example.com");
    const got = await t.call("GET", "/api/settings", { cookie: m.cookie });
    assert.equal(got.status, 200);
    assert.equal(got.data.defaultProfileId, m.profileId);
    assert.equal(got.data.hasPassword, false);
    assert.equal(got.data.password, undefined, "no hash or password ever leaves the server");
    const put = await t.call("PUT", "/api/settings", {
      cookie: m.cookie,
      json: { name: "Sam Smith", email: "Sam@Example.com", password: "a-long-password" },
    });
    assert.equal(put.status, 200);
    assert.equal(put.data.email, "sam@example.com");
    assert.equal(put.data.hasPassword, true);
    assert.equal(await getAccountByEmail("set@example.com"), null, "the old email index is gone");
    assert.equal((await getAccountByEmail("sam@example.com"))!.name, "Sam Smith");
  } finally {
    t.close();
  }
});

Deno.test("settings - an email of another account gives the spec's save-failure text and changes nothing", async () => {
  const t = await testApp();
  try {
    await t.member("taken@example.com");
    const m = await t.member("mine@example.com");
    const put = await t.call("PUT", "/api/settings", {
      cookie: m.cookie,
      json: { name: "X", email: "taken@example.com" },
    });
    assert.equal(put.status, 409);
    assert.equal(put.data.error.message, TEXTS.settingsSaveFailed);
    assert.equal((await getAccountByEmail("mine@example.com"))!.name, "mine");
  } finally {
    t.close();
  }
});

Deno.test("settings - bad input is a clear 400 and stores nothing", async () => {
  const t = await testApp();
  try {
    const m = await t.member("bad@example.com");
    const before = await getAccountByEmail("bad@example.com");
    for (
      const json of [
        { name: "", email: "bad@example.com" },
        { name: "A", email: "" },
        { name: "A", email: "not-an-email" },
        { name: "A", email: "bad@example.com", password: "short" },
        "nonsense",
      ]
    ) {
      const r = await t.call("PUT", "/api/settings", { cookie: m.cookie, json });
      assert.equal(r.status, 400, JSON.stringify(json));
      assert.equal(typeof r.data.error.message, "string");
    }
    assert.deepEqual(await getAccount(before!.id), before);
  } finally {
    t.close();
  }
});

Deno.test("settings - anonymous calls get 401", async () => {
  const t = await testApp();
  try {
    assert.equal((await t.call("GET", "/api/settings")).status, 401);
    assert.equal((await t.call("PUT", "/api/settings", { json: { name: "a", email: "a@b.c" } })).status, 401);
    assert.equal((await t.call("GET", "/api/sessions")).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("settings - sessions are listed with the current one marked, and can be ended", async () => {
  const t = await testApp();
  try {
    const m = await t.member("dev@example.com");
    const token = await t.registerAndGetToken("dev@example.com");
    const second = t.cookieOf((await t.call("POST", "/api/auth", { form: { token } })).headers);
    const list = await t.call("GET", "/api/sessions", { cookie: m.cookie });
    assert.equal(list.data.length, 2);
    assert.equal(list.data.filter((s: { current: boolean }) => s.current).length, 1);
    const other = list.data.find((s: { current: boolean }) => !s.current);
    assert.equal((await t.call("DELETE", `/api/sessions/${other.id}`, { cookie: m.cookie })).status, 200);
    assert.equal((await t.call("GET", "/api/settings", { cookie: second })).status, 401);
    // Another member cannot end my sessions.
    const stranger = await t.member();
    const mine = (await t.call("GET", "/api/sessions", { cookie: m.cookie })).data[0];
    assert.equal((await t.call("DELETE", `/api/sessions/${mine.id}`, { cookie: stranger.cookie })).status, 404);
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).status, 200);
  } finally {
    t.close();
  }
});
