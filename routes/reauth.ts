/**
 * Confirming who is calling before a change that could take the account over (OWASP ASVS 5.0
 * V6.2.3, V7.5.1, V7.5.2): changing the email or the password, adding a passkey, ending sessions.
 *
 * The rule: a session started by a login link less than 10 minutes ago (`FRESH_LINK_LOGIN_MS`)
 * needs nothing more (the link proved the mailbox, the account's recovery factor; this is how a
 * link-only account, or one whose password is forgotten, sets a new one). Any other session
 * needs the current password; an account without one needs a new login link. Password checks
 * count against `reauthByAccount` (10 an hour per account, right or wrong, counted before the
 * check), which never locks the owner out: a new login link always works.
 */

import type { Caller } from "./env.ts";
import { ApiError, notFound, tooMany } from "./errors.ts";
import { TEXTS } from "../domain/texts.ts";
import { type Account, checkPassword, getAccount } from "../kv/accounts.ts";
import { freshLinkLoginUntil, getSessionById, type Session } from "../kv/sessions.ts";
import { hit } from "../kv/ratelimit.ts";

/** What this session needs now: nothing ("fresh", until `freshUntil`), the password, or a new link. */
export type Reauth = "fresh" | "password" | "link";

/** What `session` of account `a` needs to confirm, and until when it is a fresh login. */
export function reauthOf(a: Account, session: Session | null): { reauth: Reauth; freshUntil: number | null } {
  const freshUntil = session ? freshLinkLoginUntil(session) : null;
  return { reauth: freshUntil !== null ? "fresh" : a.passwordHash !== null ? "password" : "link", freshUntil };
}

/** The caller's account and session (the session tells a fresh login). */
export async function accountAndSession(caller: Caller): Promise<{ account: Account; session: Session | null }> {
  const [account, session] = await Promise.all([
    getAccount(caller.accountId),
    getSessionById(caller.accountId, caller.sessionId),
  ]);
  if (!account) throw notFound();
  return { account, session };
}

/**
 * Throws unless the caller confirmed who they are: a fresh login-link session, or the right
 * current password. 403 with a code a client can tell apart (`fresh_login_required`,
 * `current_password_required`, `current_password_wrong`); 429 after too many checks.
 */
export async function requireReauth(caller: Caller, given: string | undefined): Promise<void> {
  const { account, session } = await accountAndSession(caller);
  const { reauth } = reauthOf(account, session);
  if (reauth === "fresh") return;
  if (reauth === "link") throw new ApiError(403, "fresh_login_required", TEXTS.freshLoginRequired);
  if (!given) throw new ApiError(403, "current_password_required", TEXTS.currentPasswordRequired);
  // Counted before the check, so a refused guess learns nothing.
  if (!(await hit("reauthByAccount", caller.accountId))) throw tooMany(TEXTS.reauthThrottled);
  if (!(await checkPassword(account, given))) {
    throw new ApiError(403, "current_password_wrong", TEXTS.currentPasswordWrong);
  }
}
