/**
 * Accounts: POST /api/auth (login), POST /api/auth/logout, POST /api/auth/register
 * (register or recover: mails a single-use login link).
 */

import { removeDevicesOfSessions } from "../../kv/secretChats.ts";
import { Hono } from "hono";
import { deleteCookie, getCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";
import { ApiError, badRequest, tooMany, unauthorized } from "../errors.ts";
import { bodyOf, formOf } from "../validate.ts";
import { clientAddress, isSecureContext, sessionCookieName } from "../middleware.ts";
import { deviceToken, logIn } from "../login.ts";
import { ACKNOWLEDGEMENTS, TEXTS } from "../../domain/texts.ts";
import {
  checkPassword,
  consumeLoginToken,
  getAccountByEmail,
  normalizeEmail,
  registerAccount,
} from "../../kv/accounts.ts";
import { endSession } from "../../kv/sessions.ts";
import { hit } from "../../kv/ratelimit.ts";
import {
  linkRequestAllowed,
  LOGIN_THROTTLED_MESSAGE,
  loginTrust,
  passwordAttemptAllowed,
} from "../../kv/logintrust.ts";
import { enqueueJob, enqueueJobNow } from "../../kv/jobs.ts";
import { placeOf } from "../../kv/origins.ts";
import { isMailboxBanned } from "../../kv/moderation.ts";
import { MODERATION_TEXTS } from "../../domain/moderation.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { locale } from "../../domain/i18n.ts";
import { answer } from "../answer.ts";

export const auth = new Hono<AppEnv>()
  .post("/", async (c) => {
    const ct = c.req.header("content-type") ?? "";
    if (!ct.includes("multipart/form-data") && !ct.includes("application/x-www-form-urlencoded")) {
      throw badRequest("Send the login as a form with username and password.");
    }
    const form = await formOf(c, "POST /api/auth");
    const remember = form.rememberMe === "true" || form.rememberMe === "on";

    if (form.token) {
      if (!(await hit("loginLinkByAddress", clientAddress(c)))) throw tooMany();
      const account = await consumeLoginToken(form.token);
      if (!account) throw unauthorized("This login link is invalid or has expired. Ask for a new one.");
      await logIn(c, account, remember, "link");
      return answer(c, "POST /api/auth", {
        profileId: account.defaultProfileId,
        email: account.email,
        needsPassword: !account.passwordHash,
      });
    }

    const username = normalizeEmail(form.username);
    if (!username || !form.password) throw badRequest("Email and password are both required.");
    if (!username.includes("@")) throw badRequest("Please enter a valid email address.");
    // Throttled before the password is checked, so a refused guess learns nothing.
    const account = await getAccountByEmail(username);
    // (Looked up for an unknown email too, so the answer takes as long either way.)
    const trust = await loginTrust(account?.id ?? `unknown:${username}`, clientAddress(c), deviceToken(c));
    if (!(await passwordAttemptAllowed(username, account?.id ?? null, clientAddress(c), trust))) {
      throw tooMany(LOGIN_THROTTLED_MESSAGE);
    }
    if (!(await checkPassword(account, form.password)) || !account) throw unauthorized(TEXTS.loginIncorrect);
    await logIn(c, account, remember, "password");
    return answer(c, "POST /api/auth", {
      profileId: account.defaultProfileId,
      email: account.email,
      needsPassword: false,
    });
  })
  .post("/logout", async (c) => {
    const token = getCookie(c, "__Host-sid") ?? getCookie(c, "sid");
    const caller = c.get("caller");
    if (token) await endSession(token);
    // The session's secret-chat device goes before the answer (the change log tells other instances later).
    if (token && caller) await removeDevicesOfSessions([caller.sessionId]);
    deleteCookie(c, sessionCookieName(c), { path: "/", secure: isSecureContext(c) });
    // The member's pages this browser kept for Back and Forward (routes/pages/render.tsx `backForward`) go with the session.
    c.header("clear-site-data", '"cache"');
    return answer(c, "POST /api/auth/logout", { ok: true });
  })
  .post("/register", async (c) => {
    const body = await bodyOf(c, "POST /api/auth/register");
    const accepted = new Set(body.acknowledgements.map((s) => s.trim()));
    if (!ACKNOWLEDGEMENTS.every((a) => accepted.has(a.text))) {
      throw badRequest(TEXTS.acknowledgementsRequired, "acknowledgements_required");
    }
    const address = normalizeEmail(body.email);
    const existing = await getAccountByEmail(address);
    // A member asking from a place they logged in from before has their own budget: others asking
    // for their links cannot stop them.
    const trust = await loginTrust(existing?.id ?? `unknown:${address}`, clientAddress(c), deviceToken(c));
    if (!(await linkRequestAllowed(address, existing?.id ?? null, clientAddress(c), trust))) throw tooMany();
    if (existing) {
      // Recovery: the same answer as a new registration, so addresses cannot be probed.
      await enqueueJobNow({ type: "mail", template: "login-link", accountId: existing.id, lang: locale() });
    } else {
      // A suspended or banned member's mailbox, in any spelling, cannot register again.
      if (await isMailboxBanned(address)) throw new ApiError(403, "register_blocked", MODERATION_TEXTS.registerBlocked);
      // Where the account is made (hashed), kept so accounts made together cannot vouch for each other.
      const place = await placeOf(clientAddress(c), deviceToken(c));
      const created = await registerAccount(address, place, {
        extra: (op, account) =>
          enqueueJob(op, { type: "mail", template: "login-link", accountId: account.id, lang: locale() }),
      });
      if (!created) throw badRequest(UI_TEXTS.pleaseTryAgain);
    }
    return answer(c, "POST /api/auth/register", { ok: true, message: UI_TEXTS.loginLinkSent });
  });
