/**
 * Login throttling without a lockout (kv/logintrust.ts): strangers' guesses are
 * limited per address, per (account, address) and by 100 an hour per account, while the member
 * logs in from a known address or device, and by login link, whatever strangers do.
 */

import assert from "node:assert/strict";
import { ALL_ACKS, testApp } from "../../tests/api.ts";
import { TEXTS } from "../../domain/texts.ts";
import { shiftClock } from "../../kv/clock.ts";
import { keys } from "../../kv/keys.ts";
import { kv } from "../../kv/db.ts";
import { type Account, getAccountByEmail, hashPassword } from "../../kv/accounts.ts";
import { LOGIN_THROTTLED_MESSAGE } from "../../kv/logintrust.ts";
import { LIMITS } from "../../kv/ratelimit.ts";
import { hash } from "@node-rs/argon2";

const HOUR = 3_600_000;
const PASSWORD = "correct horse battery";
const OWNER_ADDRESS = "198.51.100.7";

/**
 * The owner's password hash, made at a small argon2id cost: a check reads the cost from the stored hash,
 * so the about 180 wrong guesses these cases check cost about a millisecond each instead of 23 at the
 * product's (OWASP) cost, which the last case pins. What they test is who may try, not the hash
 * (decision 0247).
 */
let cheap: Promise<string> | undefined;
const cheapHash = () => cheap ??= hash(PASSWORD, { memoryCost: 256, timeCost: 1, parallelism: 1 });

/** A stranger's address, a new one for each `i`. */
const stranger = (i: number) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;

type App = Awaited<ReturnType<typeof testApp>>;

/** The device cookie a response set, as a Cookie header. */
function deviceCookieOf(headers: Headers): string {
  const m = (headers.get("set-cookie") ?? "").match(/((?:__Host-)?login-device)=([^;,]+)/);
  if (!m) throw new Error("no device cookie");
  return `${m[1]}=${m[2]}`;
}

/** A member with a password who logged in once by link from OWNER_ADDRESS: their email and device cookie. */
async function owner(t: App, email = "owner@example.com") {
  const token = await t.registerAndGetToken(email);
  const first = await t.call("POST", "/api/auth", { form: { token }, address: OWNER_ADDRESS });
  assert.equal(first.status, 200);
  const account = (await getAccountByEmail(email))!;
  await kv().set(keys.account(account.id), { ...account, passwordHash: await cheapHash() } as Account);
  return { email, device: deviceCookieOf(first.headers) };
}

function login(t: App, email: string, password: string, address: string, cookie?: string) {
  return t.call("POST", "/api/auth", { form: { username: email, password }, address, cookie });
}

Deno.test("login throttle - 40 wrong passwords from 40 addresses, then the owner logs in from their earlier address at once", async () => {
  const t = await testApp();
  try {
    t.alignClock(HOUR);
    const { email } = await owner(t);
    for (let i = 1; i <= 40; i++) {
      const r = await login(t, email, `guess number ${i}`, stranger(i));
      assert.equal(r.status, 401, `guess ${i}`);
      assert.equal(r.data.error.message, TEXTS.loginIncorrect);
    }
    const back = await login(t, email, PASSWORD, OWNER_ADDRESS);
    assert.equal(back.status, 200, "the owner is not locked out");
    assert.equal(back.data.email, email);
  } finally {
    t.close();
  }
});

Deno.test("login throttle - strangers get 100 tries per account an hour: the 101st is refused even with the right password, a known address or device is not", async () => {
  const t = await testApp();
  try {
    t.alignClock(HOUR);
    const { email, device } = await owner(t);
    assert.equal(LIMITS.loginByAccount.max, 100);
    const statuses = [];
    for (let i = 1; i <= 100; i++) statuses.push((await login(t, email, `guess number ${i}`, stranger(i))).status);
    assert.deepEqual(statuses, Array(100).fill(401), "100 guesses checked (NIST: at most 100)");

    const refused = await login(t, email, PASSWORD, stranger(101));
    assert.equal(refused.status, 429, "the 101st try in the hour, from a fresh address, with the right password");
    assert.equal(refused.data.error.code, "rate_limited");
    assert.equal(refused.data.error.message, LOGIN_THROTTLED_MESSAGE);

    assert.equal((await login(t, email, PASSWORD, OWNER_ADDRESS)).status, 200, "from the address known before");
    assert.equal((await login(t, email, PASSWORD, stranger(102), device)).status, 200, "with the device cookie");

    // The login link always works.
    const token = await t.registerAndGetToken(email);
    const link = await t.call("POST", "/api/auth", { form: { token }, address: stranger(103) });
    assert.equal(link.status, 200, "the login link logs in during the attack");
    assert.equal(link.data.email, email);

    shiftClock(HOUR);
    assert.equal(
      (await login(t, email, PASSWORD, stranger(104))).status,
      200,
      "the next hour, strangers' budget is back",
    );
  } finally {
    t.close();
  }
});

Deno.test("login throttle - one stranger's address gets 10 tries on an account; the owner elsewhere is not throttled by it", async () => {
  const t = await testApp();
  try {
    t.alignClock(HOUR);
    const { email } = await owner(t);
    const attacker = "203.0.113.9";
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await login(t, email, `guess number ${i}`, attacker)).status);
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
    assert.equal((await login(t, email, PASSWORD, attacker)).status, 429, "refused before the password is checked");
    assert.equal((await login(t, email, PASSWORD, "192.0.2.44")).status, 200, "another stranger's address has its own");
    assert.equal((await login(t, email, PASSWORD, OWNER_ADDRESS)).status, 200);
  } finally {
    t.close();
  }
});

Deno.test("login throttle - guessing from the owner's own address is limited too, and does not stop the owner's device", async () => {
  const t = await testApp();
  try {
    t.alignClock(HOUR);
    const { email, device } = await owner(t);
    const statuses = [];
    for (let i = 0; i < 11; i++) statuses.push((await login(t, email, `guess number ${i}`, OWNER_ADDRESS)).status);
    assert.deepEqual(statuses, [...Array(10).fill(401), 429], "a known address has a budget of its own, not none");
    assert.equal((await login(t, email, PASSWORD, OWNER_ADDRESS, device)).status, 200, "the device has its own");
  } finally {
    t.close();
  }
});

Deno.test("login throttle - IPv6 addresses count by their /64: rotating the rest of the address does not reset the count", async () => {
  const t = await testApp();
  try {
    t.alignClock(HOUR);
    const { email } = await owner(t);
    const statuses = [];
    for (let i = 1; i <= 11; i++) {
      statuses.push((await login(t, email, `guess number ${i}`, `2001:db8:7:9:${i.toString(16)}::1`)).status);
    }
    assert.deepEqual(statuses, [...Array(10).fill(401), 429]);
    assert.equal((await login(t, email, PASSWORD, "2001:db8:7:a::1")).status, 200, "another /64 is another address");
  } finally {
    t.close();
  }
});

Deno.test("login throttle - login sets a long-lived HttpOnly, SameSite=Strict, __Host- device cookie, kept across logins", async () => {
  const t = await testApp();
  try {
    const { email, device } = await owner(t);
    const r = await login(t, email, PASSWORD, stranger(1), device);
    assert.equal(r.status, 200);
    const set = r.headers.get("set-cookie") ?? "";
    const cookie = set.split(/,(?=\s*[\w-]+=)/).find((c) => c.includes("login-device="))!;
    assert.match(cookie, /^\s*__Host-login-device=[A-Za-z0-9_-]{43};/);
    assert.match(cookie, /HttpOnly/i);
    assert.match(cookie, /Secure/i);
    assert.match(cookie, /SameSite=Strict/i);
    assert.match(cookie, /Path=\//);
    assert.match(cookie, /Max-Age=34560000/);
    assert.equal(deviceCookieOf(r.headers), device, "one browser keeps one device token");
    const forged = await login(t, email, "wrong password", stranger(2), "__Host-login-device=" + "A".repeat(43));
    assert.equal(forged.status, 401, "a made-up device token is just a stranger");
  } finally {
    t.close();
  }
});

Deno.test("login throttle - strangers asking for a member's login links cannot stop the member getting one", async () => {
  const t = await testApp();
  try {
    t.alignClock(HOUR);
    const { email } = await owner(t);
    shiftClock(HOUR); // a new hour: the owner's own registration is not counted
    const ask = (address: string) =>
      t.call("POST", "/api/auth/register", {
        json: { email, acknowledgements: ALL_ACKS },
        address,
      });
    const statuses = [];
    for (let i = 1; i <= 11; i++) statuses.push((await ask(stranger(i))).status);
    assert.deepEqual(statuses, [...Array(10).fill(202), 429], "10 links an hour for strangers over all addresses");
    assert.equal((await ask(stranger(12))).status, 429);
    assert.equal((await ask(OWNER_ADDRESS)).status, 202, "the member from a known address gets a link");
  } finally {
    t.close();
  }
});

Deno.test("login throttle - a password is hashed with argon2id at OWASP's cost (19 MiB, 2 passes, 1 lane), and checked against it", async () => {
  const stored = await hashPassword(PASSWORD);
  assert.match(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  const t = await testApp();
  try {
    const token = await t.registerAndGetToken("owasp@example.com");
    assert.equal((await t.call("POST", "/api/auth", { form: { token }, address: OWNER_ADDRESS })).status, 200);
    const account = (await getAccountByEmail("owasp@example.com"))!;
    await kv().set(keys.account(account.id), { ...account, passwordHash: stored } as Account);
    assert.equal((await login(t, "owasp@example.com", "not it", OWNER_ADDRESS)).status, 401);
    assert.equal((await login(t, "owasp@example.com", PASSWORD, OWNER_ADDRESS)).status, 200);
  } finally {
    t.close();
  }
});
