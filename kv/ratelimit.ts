/** Fixed-window rate limits kept in KV, so every instance counts together. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";

/** A limit: at most `max` hits per `windowMs`. */
export interface Limit {
  max: number;
  windowMs: number;
}

/** Every rate limit of the API, by scope. Two scopes each: the address and the account (or email). */
export const LIMITS = {
  loginByAddress: { max: 30, windowMs: 15 * 60_000 },
  loginByAccount: { max: 10, windowMs: 15 * 60_000 },
  registerByAddress: { max: 10, windowMs: 60 * 60_000 },
  registerByEmail: { max: 3, windowMs: 60 * 60_000 },
  contactByAccount: { max: 5, windowMs: 60 * 60_000 },
  contactByAddress: { max: 20, windowMs: 60 * 60_000 },
  uploadByAccount: { max: 60, windowMs: 60 * 60_000 },
  uploadByAddress: { max: 200, windowMs: 60 * 60_000 },
  reportByAccount: { max: 10, windowMs: 24 * 60 * 60_000 },
  reportByAddress: { max: 30, windowMs: 24 * 60 * 60_000 },
  // Discovery: the map polls every 15 s and asks again on every pan; 600 in 10 min is one a second.
  discoveryByAccount: { max: 600, windowMs: 10 * 60_000 },
  discoveryByAddress: { max: 1800, windowMs: 10 * 60_000 },
  // Position reports are debounced 1 s on the client.
  positionByAccount: { max: 600, windowMs: 10 * 60_000 },
  messageByAccount: { max: 60, windowMs: 60_000 },
  broadcastByAccount: { max: 10, windowMs: 10 * 60_000 },
  // Standard members' daily limits (design.md: the spec hides them); Pro and volunteers have none.
  likesPerDay: { max: 200, windowMs: 24 * 60 * 60_000 },
  newConversationsPerDay: { max: 30, windowMs: 24 * 60 * 60_000 },
} satisfies Record<string, Limit>;

export type LimitName = keyof typeof LIMITS;

/** The limits of standard members, and the roles that lift them. */
export const STANDARD_LIMITS = ["likesPerDay", "newConversationsPerDay"] as const satisfies readonly LimitName[];
export const UNLIMITED_ROLES = ["PRO", "VOLUNTEER"] as const;

/** The message of a reached standard limit. */
export const STANDARD_LIMIT_MESSAGE =
  "You reached today's limit for standard members. Pro and volunteer members have no limits.";

/** Counts a standard member's use of a daily limit; members with an unlimited role always pass. */
export function hitStandard(
  name: typeof STANDARD_LIMITS[number],
  who: { accountId: string; roles: readonly string[] },
): Promise<boolean> {
  if (who.roles.some((r) => (UNLIMITED_ROLES as readonly string[]).includes(r))) return Promise.resolve(true);
  return hit(name, who.accountId);
}

/** Counts a hit; true while within the limit. */
export async function hit(name: LimitName, who: string): Promise<boolean> {
  const { max, windowMs } = LIMITS[name];
  const key = keys.rateLimit(name, who, Math.floor(now() / windowMs));
  for (let attempt = 0; attempt < 10; attempt++) {
    const entry = await kv().get<number>(key);
    const count = (entry.value ?? 0) + 1;
    const res = await kv().atomic().check(entry).set(key, count, { expireIn: windowMs * 2 }).commit();
    if (res.ok) return count <= max;
  }
  return false;
}
