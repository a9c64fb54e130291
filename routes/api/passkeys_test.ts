import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { addPasskey, listPasskeys } from "../../kv/passkeys.ts";
import { TEXTS } from "../../domain/texts.ts";
import { getAccountByEmail } from "../../kv/accounts.ts";
import { locale, withLocale } from "../../domain/i18n.ts";

const fakeCredential = (id: string) => ({
  id,
  rawId: id,
  type: "public-key",
  response: { clientDataJSON: "e30", authenticatorData: "AAAA", signature: "AAAA" },
  clientExtensionResults: {},
});

// These two first in this file: the library is loaded at the first passkey call (in a process of its own,
// this one), and what that call left behind shows in what runs after its test.
Deno.test("passkeys - the first passkey call, in Spanish, is answered", async () => {
  const t = await testApp();
  try {
    const login = await t.call("POST", "/api/passkeys/login/options", { headers: { "accept-language": "es" } });
    assert.equal(login.status, 200);
  } finally {
    t.close();
  }
});

Deno.test("passkeys - after the first passkey call, work outside requests keeps its own language (a worker's push or mail)", () => {
  assert.equal(locale(), "en");
  assert.equal(withLocale("fr", () => locale()), "fr");
});

Deno.test("passkeys - options need a member to register; login options are for anyone, single-use challenges", async () => {
  const t = await testApp();
  try {
    assert.equal((await t.call("POST", "/api/passkeys/register/options")).status, 401);
    assert.equal((await t.call("GET", "/api/passkeys")).status, 401);
    const m = await t.member();
    const reg = await t.call("POST", "/api/passkeys/register/options", { cookie: m.cookie });
    assert.equal(reg.status, 200);
    assert.equal(reg.data.rp.id, "localhost");
    assert.equal(reg.data.authenticatorSelection.userVerification, "required");
    assert.equal(reg.data.authenticatorSelection.residentKey, "required");
    const login = await t.call("POST", "/api/passkeys/login/options");
    assert.equal(login.status, 200);
    assert.equal(login.data.options.userVerification, "required");
    assert.match(login.data.challengeId, /^[\w-]{16,64}$/);
  } finally {
    t.close();
  }
});

Deno.test("passkeys - a forged or unknown answer never logs in; a challenge works once", async () => {
  const t = await testApp();
  try {
    const m = await t.member();
    const { challengeId } = (await t.call("POST", "/api/passkeys/login/options")).data;
    const unknown = await t.call("POST", "/api/passkeys/login", {
      json: { challengeId, response: fakeCredential("bm9ib2R5") },
    });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.data.error.message, TEXTS.passkeyUnknown);
    assert.equal(unknown.headers.get("set-cookie"), null, "no session");
    // The challenge is gone now, whatever the answer was.
    const again = await t.call("POST", "/api/passkeys/login", {
      json: { challengeId, response: fakeCredential("bm9ib2R5") },
    });
    assert.deepEqual([again.status, again.data.error.message], [401, TEXTS.passkeyExpired]);
    // A stored passkey with a forged signature.
    const accountId = (await getAccountByEmail(m.email))!.id;
    assert.ok(
      await addPasskey({
        id: "a2V5LW9uZQ",
        accountId,
        publicKey: "pQECAyYgASFYIA",
        counter: 0,
        transports: ["internal"],
        deviceType: "singleDevice",
        backedUp: false,
        name: "Phone",
      }),
    );
    const next = (await t.call("POST", "/api/passkeys/login/options")).data.challengeId;
    const forged = await t.call("POST", "/api/passkeys/login", {
      json: { challengeId: next, response: fakeCredential("a2V5LW9uZQ") },
    });
    assert.deepEqual([forged.status, forged.data.error.message], [401, TEXTS.passkeyNotVerified]);
    assert.equal(forged.headers.get("set-cookie"), null);
    // Bad shapes are 400, never 500.
    for (const json of [{}, { challengeId: "x", response: {} }, { challengeId: next, response: { id: 1 } }]) {
      assert.equal((await t.call("POST", "/api/passkeys/login", { json })).status, 400, JSON.stringify(json));
    }
    const reg = await t.call("POST", "/api/passkeys/register", {
      cookie: m.cookie,
      json: { response: fakeCredential("bmV3") },
    });
    assert.equal(reg.status, 400, "no registration without its options first");
  } finally {
    t.close();
  }
});

Deno.test("passkeys - a member lists and removes only their own", async () => {
  const t = await testApp();
  try {
    const a = await t.member(), b = await t.member();
    const accountOf = async (email: string) => (await getAccountByEmail(email))!.id;
    const base = {
      publicKey: "x",
      counter: 0,
      transports: [],
      deviceType: "multiDevice",
      backedUp: true,
      name: "Laptop",
    };
    await addPasskey({ ...base, id: "cGstYQ", accountId: await accountOf(a.email) });
    const listA = await t.call("GET", "/api/passkeys", { cookie: a.cookie });
    assert.deepEqual(listA.data.map((p: { id: string }) => p.id), ["cGstYQ"]);
    assert.equal(listA.data[0].publicKey, undefined, "the key is never sent");
    assert.deepEqual((await t.call("GET", "/api/passkeys", { cookie: b.cookie })).data, []);
    assert.equal((await t.call("DELETE", "/api/passkeys/cGstYQ", { cookie: b.cookie })).status, 404);
    assert.equal((await t.call("DELETE", `/api/passkeys/${"x".repeat(2000)}`, { cookie: a.cookie })).status, 400);
    assert.equal((await t.call("DELETE", "/api/passkeys/a%2Fb", { cookie: a.cookie })).status, 400);
    assert.equal((await t.call("DELETE", "/api/passkeys/cGstYQ", { cookie: a.cookie })).status, 200);
    assert.deepEqual(await listPasskeys(await accountOf(a.email)), []);
  } finally {
    t.close();
  }
});
