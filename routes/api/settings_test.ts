import assert from "node:assert/strict";
import { testApp } from "../../tests/api.ts";
import { TEXTS } from "../../domain/texts.ts";
import { getAccount, getAccountByEmail } from "../../kv/accounts.ts";
import { FRESH_LINK_LOGIN_MS } from "../../kv/sessions.ts";
import { LIMITS } from "../../kv/ratelimit.ts";
import { shiftClock } from "../../kv/clock.ts";
import { listOutbox } from "../../kv/outbox.ts";
import { runDueJobs } from "../../workers/jobs.ts";
import { handlers } from "../../workers/run.ts";
import { loginTrust } from "../../kv/logintrust.ts";

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

// --- confirming who changes the email or password

type T = Awaited<ReturnType<typeof testApp>>;

/** A time after which a login-link session no longer counts as a fresh login. */
const PAST_FRESH_MS = FRESH_LINK_LOGIN_MS + 60_000;

/** A member with a password, logged in with it (not a link): their cookie, email and account id. */
async function memberWithPassword(t: T, email: string, password = "the-old-password") {
  const m = await t.member(email);
  const set = await t.call("PUT", "/api/settings", { cookie: m.cookie, json: { name: "Pat", email, password } });
  assert.equal(set.status, 200, set.text);
  const cookie = await passwordLogin(t, email, password);
  return { ...m, cookie, password, accountId: (await getAccountByEmail(email))!.id };
}

async function passwordLogin(t: T, email: string, password: string): Promise<string> {
  const r = await t.call("POST", "/api/auth", { form: { username: email, password } });
  assert.equal(r.status, 200, r.text);
  return t.cookieOf(r.headers);
}

const put = (t: T, cookie: string, json: unknown) => t.call("PUT", "/api/settings", { cookie, json });

Deno.test("settings - without the current password a password login cannot change the email or password, and nothing changes", async () => {
  const t = await testApp();
  try {
    const m = await memberWithPassword(t, "keep@example.com");
    const before = await getAccount(m.accountId);
    const settings = await t.call("GET", "/api/settings", { cookie: m.cookie });
    assert.equal(settings.data.reauth, "password");
    for (
      const json of [
        { name: "Thief", email: "thief@example.com" },
        { name: "Thief", email: "keep@example.com", password: "the-thiefs-password" },
        { name: "Thief", email: "thief@example.com", currentPassword: "" },
      ]
    ) {
      const r = await put(t, m.cookie, json);
      assert.equal(r.status, 403, JSON.stringify(json));
      assert.equal(r.data.error.code, "current_password_required");
      assert.equal(r.data.error.message, TEXTS.currentPasswordRequired);
    }
    assert.deepEqual(await getAccount(m.accountId), before, "not even the name changed");
    assert.equal(await getAccountByEmail("thief@example.com"), null);
    // A name alone needs no password.
    assert.equal((await put(t, m.cookie, { name: "Pat Smith", email: "keep@example.com" })).status, 200);
  } finally {
    t.close();
  }
});

Deno.test("settings - a wrong current password is refused and changes nothing; the right one changes email and password", async () => {
  const t = await testApp();
  try {
    const m = await memberWithPassword(t, "right@example.com");
    const before = await getAccount(m.accountId);
    const wrong = await put(t, m.cookie, {
      name: "Pat",
      email: "new-right@example.com",
      password: "a-new-password",
      currentPassword: "not-the-password",
    });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.data.error.code, "current_password_wrong");
    assert.equal(wrong.data.error.message, TEXTS.currentPasswordWrong);
    assert.deepEqual(await getAccount(m.accountId), before);

    const right = await put(t, m.cookie, {
      name: "Pat",
      email: "new-right@example.com",
      password: "a-new-password",
      currentPassword: m.password,
    });
    assert.equal(right.status, 200, right.text);
    assert.equal(right.data.email, "new-right@example.com");
    assert.equal((await getAccountByEmail("new-right@example.com"))!.id, m.accountId);
    assert.equal(
      (await t.call("POST", "/api/auth", { form: { username: "new-right@example.com", password: m.password } })).status,
      401,
    );
    await passwordLogin(t, "new-right@example.com", "a-new-password");
  } finally {
    t.close();
  }
});

Deno.test("settings - guessing the current password stops after 10 tries an hour, right or wrong; a fresh login link still works", async () => {
  const t = await testApp();
  try {
    const m = await memberWithPassword(t, "guess@example.com");
    t.alignClock(LIMITS.reauthByAccount.windowMs);
    const statuses: number[] = [];
    for (let i = 0; i < LIMITS.reauthByAccount.max; i++) {
      statuses.push(
        (await put(t, m.cookie, { name: "P", email: "x@example.com", currentPassword: `guess-${i}` })).status,
      );
    }
    assert.deepEqual(statuses, Array(LIMITS.reauthByAccount.max).fill(403));
    const limited = await put(t, m.cookie, { name: "P", email: "x@example.com", currentPassword: m.password });
    assert.equal(limited.status, 429, "even the right password waits");
    assert.equal(limited.data.error.message, TEXTS.reauthThrottled);
    assert.equal((await getAccount(m.accountId))!.email, "guess@example.com");
    // The owner is never locked out: a new login link confirms without the password.
    const token = await t.registerAndGetToken("guess@example.com");
    const fresh = t.cookieOf((await t.call("POST", "/api/auth", { form: { token } })).headers);
    assert.equal((await put(t, fresh, { name: "P", email: "x@example.com" })).status, 200);
  } finally {
    t.close();
  }
});

Deno.test("settings - a new password ends every other session of the account; the current one stays", async () => {
  const t = await testApp();
  try {
    const m = await memberWithPassword(t, "ends@example.com");
    const phone = await passwordLogin(t, "ends@example.com", m.password);
    const token = await t.registerAndGetToken("ends@example.com");
    const laptop = t.cookieOf((await t.call("POST", "/api/auth", { form: { token } })).headers);
    const stranger = await t.member("stranger@example.com");
    assert.equal(
      (await t.call("GET", "/api/sessions", { cookie: m.cookie })).data.length,
      4,
      "m.member's link, m, phone, laptop",
    );

    const r = await put(t, m.cookie, {
      name: "Pat",
      email: "ends@example.com",
      password: "a-brand-new-password",
      currentPassword: m.password,
    });
    assert.equal(r.status, 200, r.text);
    assert.equal((await t.call("GET", "/api/settings", { cookie: phone })).status, 401);
    assert.equal((await t.call("GET", "/api/settings", { cookie: laptop })).status, 401);
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).status, 200, "this session stays");
    const left = await t.call("GET", "/api/sessions", { cookie: m.cookie });
    assert.deepEqual(left.data.map((s: { current: boolean }) => s.current), [true]);
    assert.equal(
      (await t.call("GET", "/api/settings", { cookie: stranger.cookie })).status,
      200,
      "other accounts keep theirs",
    );
  } finally {
    t.close();
  }
});

Deno.test("settings - a new email mails the old address, discreetly, and login links sent there stop working", async () => {
  const t = await testApp();
  try {
    const m = await t.member("old@example.com");
    const oldLink = await t.registerAndGetToken("old@example.com");
    const r = await put(t, m.cookie, { name: "Pat", email: "new@example.com" });
    assert.equal(r.status, 200, r.text);
    await runDueJobs(handlers);
    const mails = (await listOutbox()).filter((x) => x.subject === "Your account email was changed");
    assert.equal(mails.length, 1);
    assert.equal(mails[0].to, "old@example.com", "the old address is told");
    assert.match(mails[0].text, /changed/);
    assert.match(mails[0].text, /\/support/, "it says where to get help");
    assert.doesNotMatch(mails[0].subject + mails[0].text, /lambda|gay|lesbian|dating|chat|profile|new@example/i);
    assert.doesNotMatch(mails[0].text, /token=/, "no login link to the old address");
    assert.equal((await t.call("POST", "/api/auth", { form: { token: oldLink } })).status, 401);
    const newLink = await t.registerAndGetToken("new@example.com");
    assert.equal((await t.call("POST", "/api/auth", { form: { token: newLink } })).status, 200);
    // A name change mails nobody.
    await put(t, m.cookie, { name: "Pat Again", email: "new@example.com" });
    await runDueJobs(handlers);
    assert.equal((await listOutbox()).filter((x) => x.subject === "Your account email was changed").length, 1);
  } finally {
    t.close();
  }
});

Deno.test("settings - Log out everywhere else ends every other session and keeps this one, after the current password", async () => {
  const t = await testApp();
  try {
    const m = await memberWithPassword(t, "everywhere@example.com");
    const other = await passwordLogin(t, "everywhere@example.com", m.password);
    const stranger = await t.member();
    const refused = await t.call("POST", "/api/sessions/end-others", { cookie: m.cookie });
    assert.equal(refused.status, 403);
    assert.equal(refused.data.error.code, "current_password_required");
    const wrong = await t.call("POST", "/api/sessions/end-others", {
      cookie: m.cookie,
      json: { currentPassword: "nope-nope" },
    });
    assert.equal(wrong.status, 403);
    assert.equal((await t.call("GET", "/api/settings", { cookie: other })).status, 200, "nothing ended yet");
    // Ending one session asks the same.
    const list = await t.call("GET", "/api/sessions", { cookie: m.cookie });
    const one = list.data.find((s: { current: boolean }) => !s.current);
    assert.equal((await t.call("DELETE", `/api/sessions/${one.id}`, { cookie: m.cookie })).status, 403);

    const ok = await t.call("POST", "/api/sessions/end-others", {
      cookie: m.cookie,
      json: { currentPassword: m.password },
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.data.ended, 2, "the member's first link session and the other password login");
    assert.equal((await t.call("GET", "/api/settings", { cookie: other })).status, 401);
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).status, 200);
    assert.equal((await t.call("GET", "/api/sessions", { cookie: m.cookie })).data.length, 1);
    assert.equal((await t.call("GET", "/api/settings", { cookie: stranger.cookie })).status, 200);
    assert.equal((await t.call("POST", "/api/sessions/end-others")).status, 401);
  } finally {
    t.close();
  }
});

Deno.test("settings - closing a takeover forgets the places others logged in from, keeping only this one", async () => {
  const t = await testApp();
  try {
    const m = await memberWithPassword(t, "takeover@example.com");
    const thief = "203.0.113.7", owner = "198.51.100.20";
    const stolen = await t.call("POST", "/api/auth", {
      form: { username: m.email, password: m.password },
      address: thief,
    });
    assert.equal(stolen.status, 200);
    assert.notEqual(await loginTrust(m.accountId, thief), null, "the thief's address became a known place");
    const ok = await t.call("POST", "/api/sessions/end-others", {
      cookie: m.cookie,
      json: { currentPassword: m.password },
      address: owner,
    });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(
      await loginTrust(m.accountId, thief),
      null,
      "forgotten: the thief is a stranger to the throttle again",
    );
    assert.notEqual(await loginTrust(m.accountId, owner), null, "the owner's place stays known");
  } finally {
    t.close();
  }
});

Deno.test("settings - a link-only account changes email and password within 10 minutes of a link login, not after", async () => {
  const t = await testApp();
  try {
    const m = await t.member("linkonly@example.com");
    const fresh = await t.call("GET", "/api/settings", { cookie: m.cookie });
    assert.equal(fresh.data.hasPassword, false);
    assert.equal(fresh.data.reauth, "fresh");
    assert.ok(fresh.data.freshUntil > Date.now());

    shiftClock(FRESH_LINK_LOGIN_MS - 60_000);
    const within = await put(t, m.cookie, { name: "L", email: "linkonly2@example.com" });
    assert.equal(within.status, 200, "within the window: no password needed");

    shiftClock(2 * 60_000);
    const after = await t.call("GET", "/api/settings", { cookie: m.cookie });
    assert.equal(after.data.reauth, "link");
    assert.equal(after.data.freshUntil, null);
    const before = await getAccountByEmail("linkonly2@example.com");
    for (
      const json of [
        { name: "L", email: "linkonly2@example.com", password: "a-long-password" },
        { name: "L", email: "linkonly3@example.com", currentPassword: "anything-at-all" },
      ]
    ) {
      const r = await put(t, m.cookie, json);
      assert.equal(r.status, 403);
      assert.equal(r.data.error.code, "fresh_login_required");
      assert.equal(r.data.error.message, TEXTS.freshLoginRequired);
    }
    assert.equal((await t.call("POST", "/api/sessions/end-others", { cookie: m.cookie })).status, 403);
    assert.deepEqual(await getAccountByEmail("linkonly2@example.com"), before);

    // A new login link makes a fresh login again.
    const token = await t.registerAndGetToken("linkonly2@example.com");
    const again = t.cookieOf((await t.call("POST", "/api/auth", { form: { token } })).headers);
    const set = await put(t, again, { name: "L", email: "linkonly2@example.com", password: "a-long-password" });
    assert.equal(set.status, 200, set.text);
    assert.equal(set.data.hasPassword, true);
  } finally {
    t.close();
  }
});

Deno.test("settings - a login link stands in for a forgotten password only while fresh; a password login never does", async () => {
  const t = await testApp();
  try {
    const m = await memberWithPassword(t, "forgot@example.com");
    const token = await t.registerAndGetToken("forgot@example.com");
    const link = t.cookieOf((await t.call("POST", "/api/auth", { form: { token } })).headers);
    assert.equal((await t.call("GET", "/api/settings", { cookie: link })).data.reauth, "fresh");
    assert.equal(
      (await t.call("GET", "/api/settings", { cookie: m.cookie })).data.reauth,
      "password",
      "a new password login is no link",
    );
    const reset = await put(t, link, { name: "P", email: "forgot@example.com", password: "remembered-now" });
    assert.equal(reset.status, 200, "recovery: a fresh link sets a new password without the old one");
    shiftClock(PAST_FRESH_MS);
    const later = await t.call("GET", "/api/settings", { cookie: link });
    assert.equal(later.data.reauth, "password");
    assert.equal(
      (await put(t, link, { name: "P", email: "forgot@example.com", password: "yet-another-one" })).status,
      403,
    );
  } finally {
    t.close();
  }
});

Deno.test("settings - adding a passkey (a way in that outlives a new password) needs the same confirmation", async () => {
  const t = await testApp();
  try {
    const m = await memberWithPassword(t, "passkey-add@example.com");
    const options = (json?: unknown) =>
      t.call("POST", "/api/passkeys/register/options", { cookie: m.cookie, ...(json ? { json } : {}) });
    assert.equal((await options()).data.error.code, "current_password_required");
    assert.equal((await options({ currentPassword: "wrong-password" })).data.error.code, "current_password_wrong");
    const ok = await options({ currentPassword: m.password });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(typeof ok.data.challenge, "string");
    // A fresh login-link session needs nothing more.
    const link = await t.member("passkey-link@example.com");
    assert.equal(
      (await t.call("POST", "/api/passkeys/register/options", { cookie: link.cookie })).status,
      200,
    );
    shiftClock(PAST_FRESH_MS);
    const later = await t.call("POST", "/api/passkeys/register/options", { cookie: link.cookie });
    assert.equal(later.status, 403);
    assert.equal(later.data.error.code, "fresh_login_required");
  } finally {
    t.close();
  }
});

Deno.test("settings - the name is the one given at onboarding, not the email's local part", async () => {
  const t = await testApp();
  try {
    const m = await t.member("rowan.k1987@example.com", { onboarding: true });
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).data.name, "rowan.k1987");
    // Onboarding's name step saves the profile's name: the account takes it.
    const named = await t.call("PUT", "/api/profile", { cookie: m.cookie, json: { profilename: "Rowan Alexander" } });
    assert.equal(named.status, 200);
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).data.name, "Rowan Alexander");
    assert.equal((await getAccountByEmail("rowan.k1987@example.com"))!.name, "Rowan Alexander");
    // A name set in Account settings is the member's choice: a later profile name leaves it.
    await t.call("PUT", "/api/settings", { cookie: m.cookie, json: { name: "Ro", email: "rowan.k1987@example.com" } });
    await t.call("PUT", "/api/profile", { cookie: m.cookie, json: { profilename: "Rowan A." } });
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).data.name, "Ro");
  } finally {
    t.close();
  }
});

Deno.test("settings - a member onboarded before shows their profile's name, not the email's local part", async () => {
  const t = await testApp();
  try {
    const m = await t.member("sasha99@example.com");
    const account = (await getAccountByEmail("sasha99@example.com"))!;
    const { updateProfile } = await import("../../kv/profiles.ts");
    await updateProfile(account.defaultProfileId, { profilename: "Sasha" });
    assert.equal((await t.call("GET", "/api/settings", { cookie: m.cookie })).data.name, "Sasha");
  } finally {
    t.close();
  }
});
