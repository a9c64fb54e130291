/**
 * Passkeys (WebAuthn credentials) of accounts: stored by credential id with an index per account,
 * and the challenges of registration and login ceremonies (single use, a few minutes). The
 * ceremonies themselves (options, verification) are in routes/api/passkeys.ts.
 */

import { getAll, kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";

/** How long a challenge waits for its answer. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** At most this many passkeys per account. */
export const MAX_PASSKEYS = 20;

/** A stored passkey. `publicKey` is the COSE key, base64url. */
export interface Passkey {
  id: string;
  accountId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  /** "singleDevice" or "multiDevice" (synced); `backedUp` when a sync provider holds it. */
  deviceType: string;
  backedUp: boolean;
  name: string;
  tsCreated: number;
  lastUsed: number | null;
}

/** What a challenge is for: a registration is bound to its account, a login to nobody yet. */
export interface Challenge {
  challenge: string;
  purpose: "register" | "login";
  accountId?: string;
}

/** Keeps a challenge under `id` until it is taken or expires. */
export async function putChallenge(id: string, c: Challenge): Promise<void> {
  await kv().set(keys.webauthnChallenge(id), c, { expireIn: CHALLENGE_TTL_MS });
}

/** Takes a challenge once: a second take, or one after its time, finds nothing. */
export async function takeChallenge(id: string): Promise<Challenge | null> {
  const entry = await kv().get<Challenge>(keys.webauthnChallenge(id));
  if (!entry.value) return null;
  const res = await kv().atomic().check(entry).delete(entry.key).commit();
  return res.ok ? entry.value : null;
}

/** A passkey by credential id, or null. */
export async function getPasskey(id: string): Promise<Passkey | null> {
  return (await kv().get<Passkey>(keys.passkey(id))).value;
}

/** An account's passkeys, oldest first. */
export async function listPasskeys(accountId: string): Promise<Passkey[]> {
  const ids: string[] = [];
  for await (const e of kv().list({ prefix: keys.passkeysOf(accountId) })) ids.push(e.key.at(-1) as string);
  const out = (await getAll<Passkey>(ids.map((id) => keys.passkey(id)))).flatMap((e) => e.value ? [e.value] : []);
  return out.sort((a, b) => a.tsCreated - b.tsCreated);
}

/** Stores a new passkey; false when its credential id is already stored (for any account). */
export async function addPasskey(p: Omit<Passkey, "tsCreated" | "lastUsed">): Promise<boolean> {
  const rec: Passkey = { ...p, tsCreated: now(), lastUsed: null };
  const res = await kv().atomic()
    .check({ key: keys.passkey(p.id), versionstamp: null })
    .set(keys.passkey(p.id), rec)
    .set(keys.passkeyOf(p.accountId, p.id), true)
    .commit();
  return res.ok;
}

/**
 * Records a login with a passkey: the authenticator's new signature counter, when the stored one
 * is still the one the login was checked against (a concurrent login with a cloned key loses).
 */
export async function usePasskey(id: string, checkedCounter: number, newCounter: number): Promise<boolean> {
  const entry = await kv().get<Passkey>(keys.passkey(id));
  if (!entry.value || entry.value.counter !== checkedCounter) return false;
  const res = await kv().atomic().check(entry)
    .set(entry.key, { ...entry.value, counter: newCounter, lastUsed: now() })
    .commit();
  return res.ok;
}

/** Removes one of an account's passkeys; false when it has none with that id. */
export async function deletePasskey(accountId: string, id: string): Promise<boolean> {
  const entry = await kv().get<Passkey>(keys.passkey(id));
  if (!entry.value || entry.value.accountId !== accountId) return false;
  const res = await kv().atomic().check(entry).delete(entry.key).delete(keys.passkeyOf(accountId, id)).commit();
  return res.ok;
}
