/** Accounts: email, password hash, roles and the default profile. Private to their owner. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId, randomToken, sha256Hex } from "./ids.ts";
import { now } from "./clock.ts";
import { newProfile } from "./profiles.ts";
import { enqueueJob } from "./jobs.ts";
import { commitForgetting } from "./kept.ts";
import { type Place, registrationOrigin } from "./origins.ts";
import { config } from "../config/config.ts";
import { ACKNOWLEDGEMENTS } from "../domain/texts.ts";
import type { Locale } from "../domain/i18n.ts";
import type { Profile } from "../domain/shapes/profiles.ts";
import type { OnboardingStep } from "../domain/onboarding.ts";
import type { QuietHours } from "../domain/quietHours.ts";
import { firstUse } from "../domain/firstUse.ts";

/** A member's account (spec §3 Settings). */
export interface Account {
  id: string;
  email: string;
  name: string;
  /** argon2id hash; null until the member sets a password (accounts start from a login link). */
  passwordHash: string | null;
  roles: string[];
  defaultProfileId: string;
  /** The acknowledgement texts accepted at registration, and when. */
  consents: { texts: string[]; ts: number };
  /** When the email was last changed (the mail to the old address says when). */
  tsEmailChanged?: number;
  /** The member's language (domain/i18n.ts); absent: the browser's. */
  language?: Locale;
  /** The onboarding step the member is on (domain/onboarding.ts); absent: done. */
  onboarding?: OnboardingStep;
  /** Do-not-disturb hours (domain/quietHours.ts): no push in them; absent: none. */
  quietHours?: QuietHours;
  /** The home page's notices the member dismissed (`DISMISSABLE`): gone on every device of theirs. */
  dismissed?: Dismissable[];
  tsCreated: number;
  tsUpdated: number;
}

/** argon2 (a native module), loaded at the first password hashed or checked (domain/firstUse.ts). */
const argon2 = firstUse(() => import("@node-rs/argon2"));

/** OWASP ASVS 2.4: argon2id, m=19 MiB, t=2, p=1. */
const ARGON = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
/** A login link is valid for one hour and works once. */
export const LOGIN_TOKEN_TTL_MS = 3_600_000;

/** Hashes a password with argon2id. */
export async function hashPassword(password: string): Promise<string> {
  return (await argon2.load()).hash(password, ARGON);
}

let dummyHash: Promise<string> | undefined;

/** Checks a password; an unknown account costs the same time as a known one. */
export async function checkPassword(account: Account | null, password: string): Promise<boolean> {
  if (!account?.passwordHash) {
    dummyHash ??= hashPassword("not-a-real-password");
    await (await argon2.load()).verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return await (await argon2.load()).verify(account.passwordHash, password).catch(() => false);
}

/** Lowercases and trims an email: the one spelling used for look-ups. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** An account by id, or null. */
export async function getAccount(id: string): Promise<Account | null> {
  return (await kv().get<Account>(keys.account(id))).value;
}

/** An account by email (any case), or null. */
export async function getAccountByEmail(email: string): Promise<Account | null> {
  const id = (await kv().get<string>(keys.accountByEmail(normalizeEmail(email)))).value;
  return id ? await getAccount(id) : null;
}

export interface CreateAccountInput {
  email: string;
  name?: string;
  roles?: string[];
  consents?: string[];
  passwordHash?: string | null;
  /** Start onboarding at this step (registration). */
  onboarding?: OnboardingStep;
}

/**
 * Creates an account with its default profile, email index, role indexes and role counts in one
 * atomic; `extra` may add more to the same atomic (a job). Returns null if the email is taken.
 * `tsCreated` backdates the account (the test kits' established members).
 */
export async function createAccount(
  input: CreateAccountInput,
  extra?: (op: Deno.AtomicOperation, account: Account) => void,
  o: { tsCreated?: number } = {},
): Promise<Account | null> {
  const op = kv().atomic();
  const account = newAccountOp(op, input, o);
  extra?.(op, account);
  const res = await op.commit();
  return res.ok ? account : null;
}

/**
 * A new member's account as registering makes it (POST /api/auth/register), for the normalized
 * `address`: the roles ADMIN_EMAILS gives, every acknowledgement consented, onboarding still to do
 * (unless `onboarding: false`: the test kits' established members), and where it was made
 * (`place`, hashed) kept in the same atomic; `extra` adds more to it (the login mail's job).
 * Returns null if the email is taken.
 */
export function registerAccount(
  address: string,
  place: Place,
  o: {
    extra?: (op: Deno.AtomicOperation, account: Account) => void;
    onboarding?: boolean;
    tsCreated?: number;
  } = {},
): Promise<Account | null> {
  const roles = config.adminEmails.includes(address) ? ["USER", "ADMIN"] : ["USER"];
  return createAccount(
    {
      email: address,
      roles,
      consents: ACKNOWLEDGEMENTS.map((a) => a.text),
      // A new member goes through onboarding after their first login (routes/pages/welcome.tsx).
      ...(o.onboarding ?? true ? { onboarding: "name" as const } : {}),
    },
    (op, account) => {
      o.extra?.(op, account);
      // Kept so accounts made together cannot vouch for each other.
      registrationOrigin(op, account.id, place);
    },
    { tsCreated: o.tsCreated },
  );
}

/**
 * Adds to `op` a new account with its default profile, email index and role indexes, checked
 * against the email being taken (the commit fails then); the role counts are the caller's:
 * `createAccount` adds them, a batch of accounts sums them once (`roleCountOp`). `profile` fills
 * the new profile's fields in the same write; `tsCreated` backdates the account (a seed's
 * established members).
 */
export function newAccountOp(
  op: Deno.AtomicOperation,
  input: CreateAccountInput,
  o: { countRoles?: boolean; profile?: Partial<Profile>; tsCreated?: number } = {},
): Account {
  const email = normalizeEmail(input.email);
  const id = newId();
  const t = now();
  const roles = [...new Set(input.roles ?? ["USER"])];
  const name = input.name ?? defaultAccountName(email);
  const account: Account = {
    id,
    email,
    name,
    passwordHash: input.passwordHash ?? null,
    roles,
    defaultProfileId: newId(),
    consents: { texts: input.consents ?? [], ts: t },
    ...(input.onboarding ? { onboarding: input.onboarding } : {}),
    tsCreated: o.tsCreated ?? t,
    tsUpdated: t,
  };
  op.check({ key: keys.accountByEmail(email), versionstamp: null })
    .set(keys.account(id), account)
    .set(keys.accountByEmail(email), id)
    .set(keys.profile(account.defaultProfileId), {
      ...newProfile(account.defaultProfileId, id, name, roles),
      ...o.profile,
    });
  for (const role of roles) {
    op.set(keys.accountsByRole(role, id), id);
    if (o.countRoles ?? true) roleCountOp(op, role, 1);
  }
  return account;
}

/** Adds `n` accounts to the count of `role` in `op`. */
export function roleCountOp(op: Deno.AtomicOperation, role: string, n: number): void {
  op.sum(keys.roleCount(role), BigInt(n));
}

export interface SettingsChange {
  name: string;
  email: string;
  password?: string;
}

/**
 * Saves name, email and (when given) a new password. Returns null if the email belongs to another
 * account. A new email, in the same atomic: mails the old address that it was changed (the
 * `email-changed` mail job); login links mailed to the old address stop working (`consumeLoginToken`).
 */
export async function updateSettings(id: string, change: SettingsChange): Promise<Account | null> {
  const passwordHash = change.password ? await hashPassword(change.password) : undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv().get<Account>(keys.account(id));
    if (!entry.value) throw new Error("account not found");
    const old = entry.value;
    const email = normalizeEmail(change.email);
    const t = now();
    const next: Account = {
      ...old,
      name: change.name.trim(),
      email,
      passwordHash: passwordHash ?? old.passwordHash,
      ...(email !== old.email ? { tsEmailChanged: t } : {}),
      tsUpdated: t,
    };
    const op = kv().atomic().check(entry).set(keys.account(id), next);
    if (email !== old.email) {
      op.check({ key: keys.accountByEmail(email), versionstamp: null })
        .delete(keys.accountByEmail(old.email))
        .set(keys.accountByEmail(email), id);
      enqueueJob(op, { type: "mail", template: "email-changed", accountId: id, to: old.email });
    }
    if (await commitForgetting(op, "account", [id])) return next;
    if (email !== old.email && (await kv().get(keys.accountByEmail(email))).value) return null;
  }
  throw new Error("settings update kept conflicting");
}

/** Grants or revokes roles, keeping the role indexes and counts in step. */
export async function setRoles(id: string, roles: string[]): Promise<Account> {
  for (;;) {
    const entry = await kv().get<Account>(keys.account(id));
    if (!entry.value) throw new Error("account not found");
    const old = new Set(entry.value.roles), next = new Set(roles);
    const op = kv().atomic().check(entry).set(keys.account(id), { ...entry.value, roles: [...next], tsUpdated: now() });
    for (const r of next) if (!old.has(r)) op.set(keys.accountsByRole(r, id), id).sum(keys.roleCount(r), 1n);
    for (const r of old) {
      if (!next.has(r)) {
        const cur = (await kv().get<Deno.KvU64>(keys.roleCount(r))).value?.value ?? 1n;
        op.delete(keys.accountsByRole(r, id)).set(keys.roleCount(r), new Deno.KvU64(cur > 0n ? cur - 1n : 0n));
      }
    }
    if (await commitForgetting(op, "account", [id])) return { ...entry.value, roles: [...next] };
  }
}

/** Member counts per role (admin dashboard). */
export async function roleCounts(): Promise<{ role: string; count: number }[]> {
  const out: { role: string; count: number }[] = [];
  for await (const e of kv().list<Deno.KvU64>({ prefix: keys.all("role_counts") })) {
    out.push({ role: String(e.key[1]), count: Number(e.value.value) });
  }
  return out;
}

interface LoginTokenRecord {
  accountId: string;
  expires: number;
  /** The address the link is mailed to: it works only while that is still the account's email. */
  sentTo?: string;
}

/**
 * A new single-use login token (256 bits) for the account; only its hash is stored, for one hour.
 * `sentTo`: the address it is mailed to (a link to an address the account no longer has fails).
 */
export async function createLoginToken(accountId: string, sentTo?: string): Promise<string> {
  const token = randomToken(32);
  const record: LoginTokenRecord = { accountId, expires: now() + LOGIN_TOKEN_TTL_MS };
  if (sentTo !== undefined) record.sentTo = normalizeEmail(sentTo);
  await kv().set(keys.loginToken(await sha256Hex(token)), record, { expireIn: LOGIN_TOKEN_TTL_MS });
  return token;
}

/**
 * Uses up a login token: its account if it was valid and unused, else null (the account read once,
 * for the caller too). A token mailed to an address the account no longer has (the email changed
 * since) does not work.
 */
export async function consumeLoginToken(token: string): Promise<Account | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const key = keys.loginToken(await sha256Hex(token));
  const entry = await kv().get<LoginTokenRecord>(key);
  if (!entry.value || entry.value.expires < now()) return null;
  const res = await kv().atomic().check(entry).delete(key).commit();
  if (!res.ok) return null;
  const { accountId, sentTo } = entry.value;
  const account = await getAccount(accountId);
  if (!account || (sentTo !== undefined && account.email !== sentTo)) return null;
  return account;
}

/** Writes an account read as `entry`, if unchanged since; every instance's kept copy is forgotten. */
async function commitAccount(entry: Deno.KvEntryMaybe<Account>, next: Account): Promise<boolean> {
  return await commitForgetting(kv().atomic().check(entry).set(entry.key, next), "account", [next.id]);
}

/** Sets (or, with null, forgets) the member's language; false when there is no such account. */
export async function setLanguage(id: string, language: Locale | null): Promise<boolean> {
  for (;;) {
    const entry = await kv().get<Account>(keys.account(id));
    if (!entry.value) return false;
    const { language: _, ...rest } = entry.value;
    const next: Account = language ? { ...rest, language } : rest;
    if (await commitAccount(entry, next)) return true;
  }
}

/** Sets (or, with null, turns off) the member's do-not-disturb hours; false when there is no such account. */
export async function setQuietHours(id: string, quietHours: QuietHours | null): Promise<boolean> {
  for (;;) {
    const entry = await kv().get<Account>(keys.account(id));
    if (!entry.value) return false;
    const { quietHours: _, ...rest } = entry.value;
    const next: Account = quietHours ? { ...rest, quietHours } : rest;
    if (await commitAccount(entry, next)) return true;
  }
}

/** The home page's notices a member may dismiss: the development banner and the login-link notice. */
export const DISMISSABLE = ["banner", "link-login"] as const;
export type Dismissable = (typeof DISMISSABLE)[number];

/** Keeps `notice` dismissed for the member, on every device. False when there is no such account. */
export async function dismissNotice(id: string, notice: Dismissable): Promise<boolean> {
  for (;;) {
    const entry = await kv().get<Account>(keys.account(id));
    if (!entry.value) return false;
    if (entry.value.dismissed?.includes(notice)) return true;
    const next: Account = { ...entry.value, dismissed: [...entry.value.dismissed ?? [], notice] };
    if (await commitAccount(entry, next)) return true;
  }
}

/** Moves the member's onboarding to `step`, or ends it (null). False when there is no such account. */
export async function setOnboarding(accountId: string, step: OnboardingStep | null): Promise<boolean> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv().get<Account>(keys.account(accountId));
    if (!entry.value) return false;
    const { onboarding: _old, ...rest } = entry.value;
    const next: Account = step ? { ...rest, onboarding: step } : rest;
    if (await commitAccount(entry, next)) return true;
  }
  throw new Error("onboarding not saved");
}

/** The name an account has before its member gives one: the email's local part. */
export function defaultAccountName(email: string): string {
  return email.split("@")[0].slice(0, 40);
}

/**
 * The name a member gives their default profile (onboarding's name step, the profile editor)
 * becomes the account's, while the account still has the email's local part: Account settings
 * and the contact form then show "Rowan", not "rowan.k1987". A name the member set in Account
 * settings is kept.
 */
export async function adoptProfileName(accountId: string, profileId: string, name: string): Promise<void> {
  const given = name.trim();
  for (let attempt = 0; attempt < 5; attempt++) {
    const entry = await kv().get<Account>(keys.account(accountId));
    const a = entry.value;
    if (!a || !given || a.defaultProfileId !== profileId || a.name !== defaultAccountName(a.email)) return;
    const op = kv().atomic().check(entry).set(keys.account(accountId), { ...a, name: given, tsUpdated: now() });
    if (await commitForgetting(op, "account", [accountId])) return;
  }
}
