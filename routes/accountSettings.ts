/**
 * The settings a member sees of their own account: the answer of GET /api/settings and what the
 * Account settings page renders first (routes/pages/account.tsx).
 */

import { reauthOf } from "./reauth.ts";
import type { Account } from "../kv/accounts.ts";
import type { Session } from "../kv/sessions.ts";
import { activeGrant } from "../kv/roles.ts";
import { listPushSubscriptions, vapidKeys } from "../kv/push.ts";

/** The settings a member sees of their own account (spec §3 Settings), with push devices and key. */
export async function settingsOf(a: Account, session: Session | null) {
  return {
    defaultProfileId: a.defaultProfileId,
    name: a.name,
    email: a.email,
    roles: a.roles,
    /** Until when credits keep the member a volunteer (kv/roles.ts), or null. */
    volunteerUntil: (await activeGrant(a.id, "VOLUNTEER"))?.until ?? null,
    hasPassword: a.passwordHash !== null,
    ...reauthOf(a, session),
    pushSubscriptions: (await listPushSubscriptions(a.id)).map((s) => ({
      id: s.id,
      deviceName: s.deviceName,
      endpoint: s.endpoint,
      expirationTime: s.expirationTime,
      tsCreated: s.tsCreated,
    })),
    applicationServerKey: (await vapidKeys()).publicKey,
    /** Do-not-disturb hours (no push in them), or null. */
    quietHours: a.quietHours ?? null,
  };
}
