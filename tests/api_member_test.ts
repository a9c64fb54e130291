/**
 * The API kit's member (`t.member()`, tests/api.ts) is made in the store rather than through the
 * register route: these check that the store then holds what registering, the mail job and the
 * link's login leave, record for record, so that every test reading a member's records reads the
 * same ones.
 */

import assert from "node:assert/strict";
import { testApp } from "./api.ts";
import { kv } from "../kv/db.ts";
import { keys } from "../kv/keys.ts";
import type { Account } from "../kv/accounts.ts";
import type { Profile } from "../domain/shapes/profiles.ts";

type App = Awaited<ReturnType<typeof testApp>>;

/**
 * A key's shape: its parts, with the member's ids and every other id, hash or count named, not
 * spelled. A long base64url part is an id when it has a digit (a name such as
 * "registerByEmailAddress" has none) or is as long as a 256-bit hash (43 characters): one hash in
 * about 1,500 has no digit, and was once read as a name.
 */
function shape(key: Deno.KvKey, ids: Record<string, string>): string {
  return JSON.stringify(key.map((p) => {
    if (typeof p !== "string") return typeof p;
    const named = Object.entries(ids).find(([, v]) => v === p)?.[0];
    return named ?? (isId(p) ? "<id>" : p);
  }));
}

function isId(part: string): boolean {
  return /^[A-Za-z0-9_-]{20,}$/.test(part) && (/\d/.test(part) || part.length >= 40);
}

/** Every entry of the test's store: its key's shape, with its value. */
async function records(t: App, ids: Record<string, string>): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for await (const e of t.kv().list({ prefix: [] })) out.set(shape(e.key, ids), e.value);
  return out;
}

/** A member as a test made one before: registered through the route, its job run, logged in with the link, dated back, onboarding ended. */
async function registered(t: App, email: string, onboarding: boolean) {
  const token = await t.registerAndGetToken(email);
  const r = await t.call("POST", "/api/auth", { form: { token } });
  assert.equal(r.status, 200);
  const profileId = r.data.profileId as string;
  await t.backdateAccount(profileId, 2 * 24 * 3_600_000);
  if (!onboarding) {
    const profile = (await kv().get<Profile>(keys.profile(profileId))).value!;
    const entry = await kv().get<Account>(keys.account(profile.accountId));
    const { onboarding: _ended, ...rest } = entry.value!;
    await kv().set(entry.key, rest);
  }
  return profileId;
}

/** The store after one member made either way: the records' shapes, the account, profile and origin. */
async function storeAfter(way: "kit" | "route", onboarding: boolean) {
  const t = await testApp();
  try {
    const email = "Same.Member@Example.com";
    const profileId = way === "kit"
      ? (await t.member(email, { onboarding })).profileId
      : await registered(t, email, onboarding);
    const profile = (await kv().get<Profile>(keys.profile(profileId))).value!;
    const ids = { "<account>": profile.accountId, "<profile>": profileId };
    const all = await records(t, ids);
    const account = (await kv().get<Account>(keys.account(profile.accountId))).value!;
    return { all, account, profile, ids };
  } finally {
    t.close();
  }
}

Deno.test("api kit - a key's shape names a hash without a digit as an id, and a key name as itself", () => {
  const ids = { "<account>": "acc0000000000000000000001" };
  const digitless = "AbCdEfGhIjKlMnOpQrStUvWxYz_-abcdefghijklmnop".slice(0, 43);
  assert.equal(
    shape(["login_devices", "acc0000000000000000000001", digitless], ids),
    '["login_devices","<account>","<id>"]',
  );
  assert.equal(
    shape(["rate_limit_counts", "registerByEmailAddress"], ids),
    '["rate_limit_counts","registerByEmailAddress"]',
  );
});

for (const onboarding of [false, true]) {
  Deno.test(`api kit - a member it makes has every record registering leaves${onboarding ? " (onboarding to do)" : ""}`, async () => {
    const kit = await storeAfter("kit", onboarding);
    const route = await storeAfter("route", onboarding);
    // The register route's own rate-limit windows and the job queue's signal count are the only records left out.
    const leftOut = [...route.all.keys()].filter((k) => !kit.all.has(k));
    assert.deepEqual(leftOut.sort(), [
      '["jobs_signal"]',
      '["rate_limit_counts","registerByAddress","number","local"]',
      '["rate_limit_counts","registerByEmail","number","same.member@example.com"]',
      '["rate_limit_counts","registerByEmailAddress","number","same.member@example.com|local"]',
    ]);
    assert.deepEqual([...kit.all.keys()].filter((k) => !route.all.has(k)), [], "nothing more than registering");
    // The account as registering made it: its email, roles, consents, onboarding, and dated two days back.
    const strip = ({ id: _i, defaultProfileId: _p, tsCreated, tsUpdated, consents, ...rest }: Account) => ({
      ...rest,
      consents: consents.texts,
      age: Math.round((tsUpdated - tsCreated) / 3_600_000),
    });
    assert.deepEqual(strip(kit.account), strip(route.account));
    assert.equal(strip(kit.account).age, 48);
    assert.equal(kit.account.onboarding, onboarding ? "name" : undefined);
    const noIds = (p: Profile) => JSON.parse(JSON.stringify(p).replaceAll(/"(ts[A-Za-z]*)":\d+/g, '"$1":0'));
    assert.deepEqual(
      noIds({ ...kit.profile, id: "", accountId: "" }),
      noIds({ ...route.profile, id: "", accountId: "" }),
    );
    // The login link's mail in the outbox, the session and the places logged in from, as after a registration.
    for (const k of ['["outbox","<id>"]', '["sessions","<id>"]', '["account_origins","<account>"]']) {
      assert.ok(kit.all.has(k), k);
    }
    const mail = (m: Map<string, unknown>) => (m.get('["outbox","<id>"]') as { subject: string }).subject;
    assert.equal(mail(kit.all), mail(route.all));
  });
}

Deno.test("api kit - a member made again with a known email logs in again, as a member who lost their link", async () => {
  const t = await testApp();
  try {
    const first = await t.member("again@example.com");
    const second = await t.member("again@example.com");
    assert.equal(second.profileId, first.profileId);
    assert.notEqual(second.cookie, first.cookie);
    const me = await t.call("GET", "/api/settings", { cookie: second.cookie });
    assert.equal(me.status, 200);
  } finally {
    t.close();
  }
});
