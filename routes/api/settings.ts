/**
 * Account settings: GET/PUT /api/settings, and the member's sessions: GET /api/sessions,
 * DELETE /api/sessions/{id}, POST /api/sessions/end-others ("Log out everywhere else").
 *
 * A stolen session must not become a takeover: changing the email or the password, and ending
 * sessions, need the member to confirm who they are (`currentPassword`, or a fresh login-link
 * login: routes/reauth.ts). A password change ends every other session of the account (ASVS 5.0
 * V7.4.3); an email change mails the old address (kv/accounts.ts).
 */

import { Hono } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";
import { conflict, notFound } from "../errors.ts";
import { bodyOf, idParam } from "../validate.ts";
import { isSecureContext, requireCaller } from "../middleware.ts";
import { trustOnlyThisPlace } from "../login.ts";
import { accountAndSession, requireReauth } from "../reauth.ts";
import { settingsOf, settingsReads } from "../accountSettings.ts";
import { THEME_COOKIE } from "../device.ts";
import { TEXTS } from "../../domain/texts.ts";
import { normalizeEmail, setLanguage, setQuietHours, updateSettings } from "../../kv/accounts.ts";
import { endOtherSessions, endSessionById, getSessionById, listSessions } from "../../kv/sessions.ts";
import { answer } from "../answer.ts";

export const settings = new Hono<AppEnv>()
  // This device's colour scheme: a cookie, so a logged-out page and the first paint follow it too.
  .put("/settings/theme", async (c) => {
    requireCaller(c);
    const { theme } = await bodyOf(c, "PUT /api/settings/theme");
    if (theme === "system") deleteCookie(c, THEME_COOKIE, { path: "/", secure: isSecureContext(c) });
    else {setCookie(c, THEME_COOKIE, theme, {
        path: "/",
        sameSite: "Lax",
        secure: isSecureContext(c),
        maxAge: 400 * 24 * 3600,
      });}
    return answer(c, "PUT /api/settings/theme", { theme });
  })
  // The member's language (null: follow the browser's), for every page from the next one on.
  .put("/settings/language", async (c) => {
    const caller = requireCaller(c);
    const { language } = await bodyOf(c, "PUT /api/settings/language");
    await setLanguage(caller.accountId, language);
    return answer(c, "PUT /api/settings/language", { language });
  })
  // Do-not-disturb hours: no push to any of the member's devices in them.
  .put("/settings/quiet-hours", async (c) => {
    const caller = requireCaller(c);
    const { quietHours } = await bodyOf(c, "PUT /api/settings/quiet-hours");
    await setQuietHours(caller.accountId, quietHours);
    return answer(c, "PUT /api/settings/quiet-hours", { quietHours });
  })
  .get("/settings", async (c) => {
    const caller = requireCaller(c);
    // The settings' other reads start beside the account's (one wait for the store, not two).
    const reads = settingsReads(caller.accountId, caller.profileId);
    reads.catch(() => {}); // an answer that ends before them (no account) leaves them unread
    const { account, session } = await accountAndSession(caller);
    return answer(c, "GET /api/settings", await settingsOf(account, session, reads));
  })
  .put("/settings", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "PUT /api/settings");
    const { account } = await accountAndSession(caller);
    const emailChanged = normalizeEmail(body.email) !== account.email;
    if (emailChanged || body.password !== undefined) await requireReauth(caller, body.currentPassword);
    const saved = await updateSettings(caller.accountId, body);
    if (!saved) throw conflict(TEXTS.settingsSaveFailed, "email_taken");
    // ASVS V7.4.3: a new password ends every other session (this one stays).
    if (body.password !== undefined) {
      await endOtherSessions(caller.accountId, caller.sessionId);
      await trustOnlyThisPlace(c, caller.accountId);
    }
    return answer(
      c,
      "PUT /api/settings",
      await settingsOf(saved, await getSessionById(caller.accountId, caller.sessionId)),
    );
  })
  .get("/sessions", async (c) => {
    const caller = requireCaller(c);
    const list = await listSessions(caller.accountId);
    return answer(
      c,
      "GET /api/sessions",
      list.map((s) => ({
        id: s.id,
        device: s.device,
        tsCreated: s.tsCreated,
        lastSeen: s.lastSeen,
        current: s.id === caller.sessionId,
      })),
    );
  })
  .post("/sessions/end-others", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "POST /api/sessions/end-others");
    await requireReauth(caller, body.currentPassword);
    const ended = await endOtherSessions(caller.accountId, caller.sessionId);
    await trustOnlyThisPlace(c, caller.accountId);
    return answer(c, "POST /api/sessions/end-others", { ended });
  })
  .delete("/sessions/:id", async (c) => {
    const caller = requireCaller(c);
    const id = idParam(c, "id");
    const body = await bodyOf(c, "DELETE /api/sessions/:id");
    // Another member's (or no) session is a 404 before any confirmation is asked.
    if (!(await getSessionById(caller.accountId, id))) throw notFound("No such session.");
    await requireReauth(caller, body.currentPassword);
    if (!(await endSessionById(caller.accountId, id))) throw notFound("No such session.");
    return answer(c, "DELETE /api/sessions/:id", { ok: true });
  });
