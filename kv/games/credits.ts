/**
 * Volunteer credits, which every community game earns the same way (design.md). A credit is a
 * `Deno.KvU64` sum written in the same atomic as the judgement that earns it (Nice or Meh, a vote,
 * a crop suggestion its owner used; never a Skip or a suggestion alone), at most CREDITS_PER_DAY a
 * UTC day per member; an action past the cap still counts, it just earns nothing. A credit that
 * leaves a member with VOLUNTEER_CREDITS or more over the last VOLUNTEER_WINDOW_DAYS grants them
 * the VOLUNTEER role for VOLUNTEER_ROLE_DAYS from then, in the same atomic (kv/roles.ts).
 *
 * Each game is a sibling module (gptBuster.ts, ratingGame.ts, arbitration.ts, helpPhotos.ts): it
 * reads `creditState` before its judgement's atomic and adds `creditOps` to that atomic, and
 * answers `Credited`. Decks of nearby members and pictures are in deck.ts.
 */

import { kv } from "../db.ts";
import { keys } from "../keys.ts";
import { now } from "../clock.ts";
import { getProfile } from "../profiles.ts";
import { activeGrant, grantRoleOps } from "../roles.ts";
import { VOLUNTEER_CREDITS, VOLUNTEER_ROLE_DAYS, VOLUNTEER_WINDOW_DAYS } from "../../domain/games.ts";
import type { VolunteerStatus } from "../../domain/shapes/games.ts";

/** At most this many volunteer credits a day per member. */
export const CREDITS_PER_DAY = 20;
const DAY_MS = 24 * 60 * 60_000;

/** A member's volunteer credits. */
export async function getCredits(profileId: string): Promise<number> {
  return Number((await kv().get<Deno.KvU64>(keys.gameCredits(profileId))).value?.value ?? 0n);
}

/** A member's credit counters, read before an action's atomic. */
export interface CreditState {
  profileId: string;
  day: number;
  /** Today's counter: checked by the atomic, so two actions at once count one after the other. */
  today: Deno.KvEntryMaybe<number>;
  /** The credits of the window's earlier days (they no longer change). */
  earlier: number;
  /** The member's account, read only when this credit would reach the volunteer threshold. */
  accountId: string | null;
}

/**
 * The volunteer window's per-day counters: today's entry (checked by the credit's atomic) and the
 * sum of the earlier days. The window's days are one range of keys, read in one call (on remote KV
 * one round trip; its 30 keys as `getMany` took three).
 */
async function windowCounts(
  profileId: string,
  day: number,
): Promise<{ today: Deno.KvEntryMaybe<number>; earlier: number }> {
  const todayKey = keys.gameCreditsDay(profileId, day);
  let today: Deno.KvEntryMaybe<number> = { key: todayKey, value: null, versionstamp: null };
  let earlier = 0;
  const days = kv().list<number>(
    {
      start: keys.gameCreditsDay(profileId, day - VOLUNTEER_WINDOW_DAYS + 1),
      end: keys.gameCreditsDay(profileId, day + 1),
    },
    { limit: VOLUNTEER_WINDOW_DAYS, batchSize: VOLUNTEER_WINDOW_DAYS },
  );
  for await (const e of days) {
    if (e.key[2] === day) today = e;
    else earlier += e.value;
  }
  return { today, earlier };
}

/** Reads what a credit of `profileId` needs: today's counter, the window's earlier days, the account. */
export async function creditState(profileId: string): Promise<CreditState> {
  const day = Math.floor(now() / DAY_MS);
  const { today, earlier } = await windowCounts(profileId, day);
  const n = today.value ?? 0;
  const reaches = n < CREDITS_PER_DAY && earlier + n + 1 >= VOLUNTEER_CREDITS;
  const accountId = reaches ? (await getProfile(profileId))?.accountId ?? null : null;
  return { profileId, day, today, earlier, accountId };
}

/**
 * How long a day's credit counter lives from now. It is read for the whole volunteer window, so it
 * lives a day longer than the window, and it ends at a point of its day, not of the moment it was
 * written: its expiry tells no time finer than the day.
 */
export function creditDayExpireIn(day: number): number {
  return (day + VOLUNTEER_WINDOW_DAYS + 2) * DAY_MS - now();
}

/**
 * Adds the credit to `op` (checked against today's counter); false when today's cap is reached.
 * When the window then holds VOLUNTEER_CREDITS or more, the VOLUNTEER role is granted (or its
 * grant renewed) for VOLUNTEER_ROLE_DAYS from now, in the same atomic.
 */
export function creditOps(op: Deno.AtomicOperation, s: CreditState): boolean {
  const n = s.today.value ?? 0;
  op.check(s.today);
  if (n >= CREDITS_PER_DAY) return false;
  op.set(keys.gameCreditsDay(s.profileId, s.day), n + 1, { expireIn: creditDayExpireIn(s.day) })
    .sum(keys.gameCredits(s.profileId), 1n);
  if (s.accountId && s.earlier + n + 1 >= VOLUNTEER_CREDITS) {
    grantRoleOps(op, s.accountId, "VOLUNTEER", now() + VOLUNTEER_ROLE_DAYS * DAY_MS);
  }
  return true;
}

/** A member's credits, those of the volunteer window, and their earned VOLUNTEER role's end. */
export async function volunteerStatus(profileId: string, accountId: string): Promise<VolunteerStatus> {
  const [credits, window, grant] = await Promise.all([
    getCredits(profileId),
    windowCounts(profileId, Math.floor(now() / DAY_MS)),
    activeGrant(accountId, "VOLUNTEER"),
  ]);
  const recentCredits = window.earlier + (window.today.value ?? 0);
  return {
    credits,
    recentCredits,
    threshold: VOLUNTEER_CREDITS,
    toGo: Math.max(0, VOLUNTEER_CREDITS - recentCredits),
    volunteerUntil: grant?.until ?? null,
  };
}
