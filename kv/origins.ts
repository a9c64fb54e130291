/**
 * Where an account was made: a keyed hash of the address it registered from (kv/logintrust.ts
 * `placeHash`: an HMAC with a generated key, never the address) and the hashes of the device
 * tokens the browser carried when it registered and when it first logged in (one browser carries
 * one device token for every account logged in on it). 3 2 1 Identify reads it to keep accounts
 * made by one person from judging each other (kv/games/identify.ts). Kept while the account
 * exists, deleted with it; accounts made before this was recorded have none.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { deviceHash, placeHash } from "./logintrust.ts";

/** An account's origin: keyed address hashes and device-token hashes, at most two of each. */
export interface Origin {
  addrs: string[];
  devices: string[];
  /** The first login's device was added. */
  firstLogin?: boolean;
}

/** Where one request comes from, hashed as an origin is: for comparing a judge's answers. */
export interface Place {
  addr: string;
  device: string | null;
}

/** Accounts made from one address or device within this long of each other are one registration burst. */
export const BURST_MS = 60 * 60_000;

/** The hashed place of a request from `address` carrying device token `deviceToken`. */
export async function placeOf(address: string, deviceToken: string | undefined): Promise<Place> {
  return { addr: await placeHash(address), device: await deviceHash(deviceToken) };
}

/** The origin of a new account registering from `place`, to store in its creating atomic. */
export function registrationOrigin(op: Deno.AtomicOperation, accountId: string, place: Place): void {
  const origin: Origin = { addrs: [place.addr], devices: place.device ? [place.device] : [] };
  op.set(keys.accountOrigin(accountId), origin);
}

/** An account's origin as stored (what `noteFirstLogin` checks), read beside a login's other reads. */
export function originEntry(accountId: string): Promise<Deno.KvEntryMaybe<Origin>> {
  return kv().get<Origin>(keys.accountOrigin(accountId));
}

/**
 * Adds the device of an account's first login to its origin (once; an account made before
 * origins were kept gets one with this device only). Later logins change nothing. `read`: the
 * origin as the login read it (`originEntry`); the write is checked against it.
 */
export async function noteFirstLogin(
  accountId: string,
  deviceToken: string,
  read: Promise<Deno.KvEntryMaybe<Origin>> = originEntry(accountId),
): Promise<void> {
  const entry = await read;
  if (entry.value?.firstLogin) return;
  const device = await deviceHash(deviceToken);
  const o: Origin = entry.value ?? { addrs: [], devices: [] };
  const next: Origin = {
    ...o,
    devices: device && !o.devices.includes(device) ? [...o.devices, device].slice(0, 2) : o.devices,
    firstLogin: true,
  };
  // A concurrent first login already did it: nothing to redo.
  await kv().atomic().check(entry).set(entry.key, next).commit();
}

/** An account's origin, or null (made before origins were kept). */
export async function originOf(accountId: string): Promise<Origin | null> {
  return (await kv().get<Origin>(keys.accountOrigin(accountId))).value;
}

/** Were two accounts made from one address or one device? */
export function samePlace(a: Origin | null | undefined, b: Origin | null | undefined): boolean {
  if (!a || !b) return false;
  return a.addrs.some((x) => b.addrs.includes(x)) || a.devices.some((x) => b.devices.includes(x));
}

/** Two accounts (their origin and creation time) made from one place within BURST_MS of each other. */
export function sameBurst(
  a: { origin: Origin | null; tsCreated: number },
  b: { origin: Origin | null; tsCreated: number },
): boolean {
  return Math.abs(a.tsCreated - b.tsCreated) <= BURST_MS && samePlace(a.origin, b.origin);
}
