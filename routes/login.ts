/**
 * Logging in, whichever way (password, login link, passkey): the session and its cookie, and the
 * places a member logs in from (kv/logintrust.ts), shared by routes/api/auth.ts,
 * routes/api/passkeys.ts and routes/api/settings.ts.
 */

import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "./env.ts";
import { ApiError } from "./errors.ts";
import { clientAddress, isSecureContext, sessionCookieName } from "./middleware.ts";
import { deviceOf } from "../domain/device.ts";
import type { Account } from "../kv/accounts.ts";
import { createSession, type LoginMethod, SESSION_LIFETIMES } from "../kv/sessions.ts";
import { forgetLoginTrust, rememberLogin } from "../kv/logintrust.ts";
import { noteFirstLogin, originEntry } from "../kv/origins.ts";
import { sanctionOf } from "../kv/moderation.ts";
import { getDeletion } from "../kv/memberDeletion.ts";
import { sanctionMessage } from "../domain/moderation.ts";
import { UI_TEXTS } from "../domain/uiTexts.ts";

/**
 * The device cookie: a random token that marks this browser as a place the member logged in from
 * (kv/logintrust.ts), so strangers' failed logins do not throttle it. `__Host-` where secure.
 */
const DEVICE_COOKIE = { secure: "__Host-login-device", plain: "login-device" };

export function deviceToken(c: Context<AppEnv>): string | undefined {
  return getCookie(c, DEVICE_COOKIE.secure) ?? getCookie(c, DEVICE_COOKIE.plain);
}

/**
 * Starts a session for the account and sets the cookie (every way of logging in ends here);
 * remembers the address and the device as places the member logs in from.
 */
export async function logIn(c: Context<AppEnv>, account: Account, remember: boolean, via: LoginMethod) {
  // Asked for at once, the origin a first login adds its device to too: their reads go to the
  // store as one call.
  const origin = originEntry(account.id);
  origin.catch(() => {}); // a refused login leaves it unread
  const [deletion, sanction] = await Promise.all([getDeletion(account.id), sanctionOf(account)]);
  if (deletion) throw new ApiError(403, "deleting", UI_TEXTS.accountBeingDeleted);
  // A suspended or banned member is told why and until when (never who reported), and gets no session.
  if (sanction) {
    const message = sanctionMessage(sanction.kind, sanction.reason, sanction.until);
    throw new ApiError(403, sanction.kind === "BAN" ? "banned" : "suspended", message);
  }
  const { token } = await createSession(account.id, remember, deviceOf(c.req.header("user-agent") ?? ""), via);
  setCookie(c, sessionCookieName(c), token, {
    path: "/",
    httpOnly: true,
    secure: isSecureContext(c),
    sameSite: "Lax",
    ...(remember ? { maxAge: SESSION_LIFETIMES.remember.absoluteMs / 1000 } : {}),
  });
  const device = await rememberThisPlace(c, account.id);
  await noteFirstLogin(account.id, device, origin);
}

/**
 * Remembers the caller's address and device as a place the member logs in from (and sets the
 * device cookie); returns the device token.
 */
async function rememberThisPlace(c: Context<AppEnv>, accountId: string): Promise<string> {
  const device = await rememberLogin(accountId, clientAddress(c), deviceToken(c));
  setCookie(c, isSecureContext(c) ? DEVICE_COOKIE.secure : DEVICE_COOKIE.plain, device, {
    path: "/",
    httpOnly: true,
    secure: isSecureContext(c),
    sameSite: "Strict",
    maxAge: 400 * 24 * 3600,
  });
  return device;
}

/**
 * After a takeover is closed (a new password, "log out everywhere else"): forgets every place the
 * member logged in from (an attacker's too), keeping only the caller's, so strangers' places get
 * no shelter from the login throttle.
 */
export async function trustOnlyThisPlace(c: Context<AppEnv>, accountId: string): Promise<void> {
  await forgetLoginTrust(accountId);
  await rememberThisPlace(c, accountId);
}
