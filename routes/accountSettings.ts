/**
 * The settings a member sees of their own account: the answer of GET /api/settings and what the
 * Account settings page renders first (routes/pages/account.tsx).
 */

import { reauthOf } from "./reauth.ts";
import { type Account, defaultAccountName } from "../kv/accounts.ts";
import { getProfile } from "../kv/profiles.ts";
import type { Session } from "../kv/sessions.ts";
import { activeGrant } from "../kv/roles.ts";
import { listPushSubscriptions, vapidKeys } from "../kv/push.ts";

/**
 * The reads of the settings besides the account and session, all at once (one wait for the store):
 * a caller starts them beside its read of the account (`settingsOf`'s second argument).
 */
export function settingsReads(accountId: string, profileId: string) {
  return Promise.all([
    activeGrant(accountId, "VOLUNTEER"),
    listPushSubscriptions(accountId),
    vapidKeys(),
    getProfile(profileId),
  ]);
}

/** The settings a member sees of their own account (spec §3 Settings), with push devices and key. */
export async function settingsOf(
  a: Account,
  session: Session | null,
  reads?: ReturnType<typeof settingsReads>,
) {
  const [volunteer, devices, keys, profile] = await (reads ?? settingsReads(a.id, a.defaultProfileId));
  return {
    defaultProfileId: a.defaultProfileId,
    // A member who never set one here: the name they gave their profile (onboarding), not the email's local part.
    name: a.name === defaultAccountName(a.email)
      ? (profile?.id === a.defaultProfileId ? profile.profilename : undefined) || a.name
      : a.name,
    email: a.email,
    roles: a.roles,
    /** Until when credits keep the member a volunteer (kv/roles.ts), or null. */
    volunteerUntil: volunteer?.until ?? null,
    hasPassword: a.passwordHash !== null,
    ...reauthOf(a, session),
    pushSubscriptions: devices.map((s) => ({
      id: s.id,
      deviceName: s.deviceName,
      endpoint: s.endpoint,
      expirationTime: s.expirationTime,
      tsCreated: s.tsCreated,
    })),
    applicationServerKey: keys.publicKey,
    /** Do-not-disturb hours (no push in them), or null. */
    quietHours: a.quietHours ?? null,
  };
}
