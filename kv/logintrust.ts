/**
 * Login throttling without a lockout (OWASP ASVS 5.0 V6.3.1; NIST 800-63B 5.2.2): password
 * guesses are limited per address, per (account, address), and by a slow budget per account over
 * all strangers' addresses, while a place the member logged in from before keeps its own budget,
 * so strangers' failures never lock the member out.
 *
 * A place is remembered at every successful login (password or login link):
 * - the address, as a keyed hash (HMAC-SHA256 of account id and address, with a generated key
 *   kept in KV; IPv6 counts by its /64, the unit a single host controls), for 90 days;
 * - the browser, by a random device token in a long-lived HttpOnly cookie, whose SHA-256 is kept
 *   per account for 400 days.
 * At most `MAX_PLACES` of each per account, the oldest dropped first.
 *
 * The same split guards login-link requests (`/api/auth/register` for a known email), so an
 * attacker who asks for links cannot stop the member from getting one.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import { hit, type LimitName } from "./ratelimit.ts";

/** How long a remembered address and a device token count as known. */
export const KNOWN_ADDRESS_MS = 90 * 24 * 3_600_000;
export const KNOWN_DEVICE_MS = 400 * 24 * 3_600_000;
/** Remembered addresses (and devices) per account. */
export const MAX_PLACES = 20;

/** The message of a throttled login: the login link always works. */
export const LOGIN_THROTTLED_MESSAGE =
  "Too many login attempts for this account. Try again later, or ask for a login link on the Register page.";

/** A place the member logged in from before: the throttles give it its own budget. */
export type Trust = { kind: "device" | "address"; id: string };

/**
 * The unit an address is counted and remembered by: an IPv4 address as it is (also when written
 * as IPv4-mapped IPv6), an IPv6 address by its /64 (a single host gets a whole /64 to pick from).
 */
export function addressScope(address: string): string {
  const a = address.trim().toLowerCase().replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!a.includes(":")) return a;
  const groups = ipv6Groups(a);
  if (!groups) return a;
  if (groups.slice(0, 6).join(":") === "0:0:0:0:0:ffff") {
    const [hi, lo] = [parseInt(groups[6], 16), parseInt(groups[7], 16)];
    return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
  }
  return `${groups.slice(0, 4).join(":")}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros; null if it is not one. */
function ipv6Groups(a: string): string[] | null {
  let s = a;
  const v4 = s.match(/(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (v4) {
    const [b1, b2, b3, b4] = v4.slice(1).map(Number);
    if ([b1, b2, b3, b4].some((b) => b > 255)) return null;
    s = `${s.slice(0, v4.index)}${((b1 << 8) | b2).toString(16)}:${((b3 << 8) | b4).toString(16)}`;
  }
  const parts = s.split("::");
  if (parts.length > 2) return null;
  const left = parts[0] ? parts[0].split(":") : [];
  const right = parts.length === 2 && parts[1] ? parts[1].split(":") : [];
  const fill = parts.length === 2 ? 8 - left.length - right.length : 0;
  if (fill < 0 || (parts.length === 2 && fill === 0)) return null;
  const groups = [...left, ...Array(fill).fill("0"), ...right];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
  return groups.map((g) => parseInt(g, 16).toString(16));
}

const secrets = new WeakMap<Deno.Kv, CryptoKey>();

/**
 * The HMAC key of the address hashes, generated into KV by the first login that is remembered
 * (`create`). Before that no address can be known, and a look-up writes nothing.
 */
async function trustKey(create: boolean): Promise<CryptoKey | null> {
  const db = kv();
  const cached = secrets.get(db);
  if (cached) return cached;
  let stored = (await db.get<string>(keys.loginTrustSecret())).value;
  if (!stored) {
    if (!create) return null;
    const fresh = toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
    await db.atomic().check({ key: keys.loginTrustSecret(), versionstamp: null })
      .set(keys.loginTrustSecret(), fresh).commit();
    stored = (await db.get<string>(keys.loginTrustSecret())).value!;
  }
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(stored),
    {
      name: "HMAC",
      hash: "SHA-256",
    },
    false,
    ["sign"],
  );
  secrets.set(db, key);
  return key;
}

function toBase64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The keyed hash of an address for an account; null while no key exists (nothing remembered yet). */
async function addressHash(accountId: string, address: string, create = false): Promise<string | null> {
  const key = await trustKey(create);
  if (!key) return null;
  const data = new TextEncoder().encode(`${accountId}\n${addressScope(address)}`);
  return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, data)));
}

/**
 * The keyed hash of an address alone (no account in it), so two accounts made from one address
 * can be told apart from two that were not, without keeping the address (kv/origins.ts). Creates
 * the key when none exists yet.
 */
export async function placeHash(address: string): Promise<string> {
  const key = (await trustKey(true))!;
  const data = new TextEncoder().encode(`place\n${addressScope(address)}`);
  return toBase64Url(new Uint8Array(await crypto.subtle.sign("HMAC", key, data)));
}

/** The hash a device token is kept by; null when the token is not a well-formed one. */
export async function deviceHash(token: string | undefined): Promise<string | null> {
  return isDeviceToken(token) ? await tokenHash(token) : null;
}

async function tokenHash(token: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))));
}

/** A device token looks like one: 43 base64url characters (256 bits). */
function isDeviceToken(token: string | undefined): token is string {
  return token !== undefined && /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** Whether the member of `accountId` logged in before from this device (first) or address; null if neither. */
export async function loginTrust(accountId: string, address: string, deviceToken?: string): Promise<Trust | null> {
  if (isDeviceToken(deviceToken)) {
    const id = await tokenHash(deviceToken);
    if ((await kv().get(keys.loginDevice(accountId, id))).value) return { kind: "device", id };
  }
  const id = await addressHash(accountId, address);
  if (id && (await kv().get(keys.loginKnownAddress(accountId, id))).value) return { kind: "address", id };
  return null;
}

/**
 * Remembers a successful login's address and device; returns the device token for the cookie
 * (the browser's own when it sent a well-formed one, so one browser is one device for every
 * account logged in on it; else a new one).
 */
export async function rememberLogin(accountId: string, address: string, deviceToken?: string): Promise<string> {
  const token = isDeviceToken(deviceToken) ? deviceToken : toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
  const ts = now();
  const where = (await addressHash(accountId, address, true))!;
  await kv().atomic()
    .set(keys.loginKnownAddress(accountId, where), { ts }, { expireIn: KNOWN_ADDRESS_MS })
    .set(keys.loginDevice(accountId, await tokenHash(token)), { ts }, { expireIn: KNOWN_DEVICE_MS })
    .commit();
  await keepNewest(keys.loginKnownAddresses(accountId));
  await keepNewest(keys.loginDevices(accountId));
  return token;
}

/** Drops all but the `MAX_PLACES` newest entries under a prefix. */
async function keepNewest(prefix: Deno.KvKey): Promise<void> {
  const all: Deno.KvEntry<{ ts: number }>[] = [];
  for await (const e of kv().list<{ ts: number }>({ prefix })) all.push(e);
  if (all.length <= MAX_PLACES) return;
  all.sort((a, b) => b.value.ts - a.value.ts);
  const op = kv().atomic();
  for (const e of all.slice(MAX_PLACES)) op.delete(e.key);
  await op.commit();
}

/** Forgets every remembered address and device of an account (after a takeover: password change, log out everywhere). */
export async function forgetLoginTrust(accountId: string): Promise<void> {
  for (const prefix of [keys.loginKnownAddresses(accountId), keys.loginDevices(accountId)]) {
    const op = kv().atomic();
    for await (const e of kv().list({ prefix })) op.delete(e.key);
    await op.commit();
  }
}

/**
 * The budgets of one kind of login attempt: from a known place (its own budget only), else from
 * the address over all accounts, the (email, address) pair, and the email over all strangers'
 * addresses.
 */
interface AttemptBudgets {
  knownPlace: LimitName;
  byAddress: LimitName;
  byPair: LimitName;
  byEmail: LimitName;
}

/**
 * Counts an attempt on `email` from `address` against `b`; true when it may go on. From anywhere
 * but a known place the budgets count in order, and a refused attempt does not count against the
 * later, shared ones.
 */
async function attemptAllowed(
  b: AttemptBudgets,
  email: string,
  accountId: string | null,
  address: string,
  trust: Trust | null,
): Promise<boolean> {
  if (trust && accountId) return await hit(b.knownPlace, `${accountId}|${trust.kind}:${trust.id}`);
  const scope = addressScope(address);
  return await hit(b.byAddress, scope) &&
    await hit(b.byPair, `${email}|${scope}`) &&
    await hit(b.byEmail, email);
}

const PASSWORD: AttemptBudgets = {
  knownPlace: "loginKnownPlace",
  byAddress: "loginByAddress",
  byPair: "loginByAccountAddress",
  byEmail: "loginByAccount",
};
const LINK: AttemptBudgets = {
  knownPlace: "registerKnownPlace",
  byAddress: "registerByAddress",
  byPair: "registerByEmailAddress",
  byEmail: "registerByEmail",
};

/** Counts a password attempt on `email` from `address`; true when it may be checked. */
export function passwordAttemptAllowed(
  email: string,
  accountId: string | null,
  address: string,
  trust: Trust | null,
): Promise<boolean> {
  return attemptAllowed(PASSWORD, email, accountId, address, trust);
}

/** Counts a login-link request for `email` from `address`; the same split as password attempts. */
export function linkRequestAllowed(
  email: string,
  accountId: string | null,
  address: string,
  trust: Trust | null,
): Promise<boolean> {
  return attemptAllowed(LINK, email, accountId, address, trust);
}
