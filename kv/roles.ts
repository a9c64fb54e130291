/**
 * Roles granted for a while, beside the account's stored roles: the VOLUNTEER role a member earns
 * with volunteer credits (kv/games/credits.ts). A grant is one record per account and role holding its end
 * (`until`), written with `expireIn` so the store drops it; readers also compare `until` with the
 * clock, since KV removes expired keys only eventually. Stored roles (`setRoles`, the grant task)
 * are untouched: a grant only adds a role while it lasts.
 */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { now } from "./clock.ts";
import type { Account } from "./accounts.ts";
import { forgetHere, forgetKept, keptCopy, keptRead } from "./kept.ts";

/** The roles that can be granted for a while. */
export const GRANTED_ROLES = ["VOLUNTEER"] as const;
export type GrantedRole = typeof GRANTED_ROLES[number];

/** A role granted until a time. */
export interface RoleGrant {
  role: GrantedRole;
  until: number;
  tsGranted: number;
}

/**
 * Adds to `op` a grant of `role` to an account until `until` (replacing an earlier grant of it).
 * Kept copies of the account (kv/kept.ts) are forgotten here at once, and on every instance,
 * this one again, when the commit reaches their tail of the change log.
 */
export function grantRoleOps(op: Deno.AtomicOperation, accountId: string, role: GrantedRole, until: number): void {
  const t = now();
  forgetKept(op, "account", [accountId]);
  forgetHere("account", [accountId]);
  op.set(keys.roleGrant(accountId, role), { role, until, tsGranted: t } satisfies RoleGrant, {
    expireIn: Math.max(1, until - t),
  });
}

const live = (g: RoleGrant | null): g is RoleGrant => !!g && g.until > now();

/** The account's grant of `role` while it lasts, else null. */
export async function activeGrant(accountId: string, role: GrantedRole): Promise<RoleGrant | null> {
  const g = (await kv().get<RoleGrant>(keys.roleGrant(accountId, role))).value;
  return live(g) ? g : null;
}

/**
 * An account with its live granted roles added to `roles`, in one read (the session middleware
 * builds the caller from it, so every role check, the standard limits included, sees the grant).
 * Kept a few seconds by the instance (kv/kept.ts): every write of the account or a grant forgets
 * it everywhere; a grant's end is checked at each call.
 */
export async function accountWithGrants(id: string): Promise<Account | null> {
  return withGrants(
    await keptRead<AccountRead>("account", id, async () => {
      // Single-key reads, so they go to the store in the call of the session read begun beside them
      // (kv/coalesce.ts): a signed-in call whose kept copies ran out makes one store call, not two.
      const [entry, ...grants] = await Promise.all([
        kv().get<Account>(keys.account(id)),
        ...GRANTED_ROLES.map((r) => kv().get<RoleGrant>(keys.roleGrant(id, r))),
      ]);
      return { account: entry.value, grants: grants.map((g) => g.value) };
    }),
  );
}

/**
 * `accountWithGrants`'s answer without a wait, from the instance's kept copy (the same copy, so the
 * same object while nothing changed and no grant is live); undefined when none is kept.
 */
export function keptAccountWithGrants(id: string): Account | null | undefined {
  const kept = keptCopy<AccountRead>("account", id);
  return kept === undefined ? undefined : withGrants(kept);
}

/** An account as read and kept, with its grants (null where none). */
interface AccountRead {
  account: Account | null;
  grants: (RoleGrant | null)[];
}

/** The account with the roles of its live grants added (the account itself when none is live). */
function withGrants({ account, grants }: AccountRead): Account | null {
  if (!account || !grants.some(live)) return account;
  const extra = grants.filter(live).map((g) => g.role);
  return { ...account, roles: [...new Set([...account.roles, ...extra])] };
}
