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
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { conflict, notFound } from "../errors.ts";
import { idParam, jsonBody } from "../validate.ts";
import { isSecureContext, requireCaller } from "../middleware.ts";
import { trustOnlyThisPlace } from "../login.ts";
import { accountAndSession, confirmBody, optionalJson, requireReauth } from "../reauth.ts";
import { settingsOf, settingsReads } from "../accountSettings.ts";
import { THEME_COOKIE, THEMES } from "../device.ts";
import { TEXTS } from "../../domain/texts.ts";
import { normalizeEmail, setLanguage, setQuietHours, updateSettings } from "../../kv/accounts.ts";
import { CLOCK_TIME, isTimeZone } from "../../domain/quietHours.ts";
import { LOCALES } from "../../domain/i18n.ts";
import { endOtherSessions, endSessionById, getSessionById, listSessions } from "../../kv/sessions.ts";
import { answer } from "../answer.ts";

export const settingsBody = z.object({
  name: z.string().trim().min(1, "Name is required.").max(100),
  email: z.string().trim().min(1, "Email is required.").max(254).email("Please enter a valid email address."),
  password: z.string().min(8, "A password needs at least 8 characters.").max(128).optional(),
  currentPassword: confirmBody.shape.currentPassword,
});

export const languageBody = z.object({ language: z.enum(LOCALES).nullable() });

/** Do-not-disturb hours (domain/quietHours.ts), or null to turn them off. */
export const quietHoursBody = z.object({
  quietHours: z.object({
    from: z.string().regex(CLOCK_TIME, "Use the time as HH:MM."),
    to: z.string().regex(CLOCK_TIME, "Use the time as HH:MM."),
    timeZone: z.string().max(64).refine(isTimeZone, "Unknown time zone."),
  }).strict().nullable(),
}).strict();

export const themeBody = z.object({ theme: z.enum(THEMES) });

export const settings = new Hono<AppEnv>()
  // This device's colour scheme: a cookie, so a logged-out page and the first paint follow it too.
  .put("/settings/theme", async (c) => {
    requireCaller(c);
    const { theme } = await jsonBody(c, themeBody);
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
    const { language } = await jsonBody(c, languageBody);
    await setLanguage(caller.accountId, language);
    return answer(c, "PUT /api/settings/language", { language });
  })
  // Do-not-disturb hours: no push to any of the member's devices in them.
  .put("/settings/quiet-hours", async (c) => {
    const caller = requireCaller(c);
    const { quietHours } = await jsonBody(c, quietHoursBody);
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
    const body = await jsonBody(c, settingsBody);
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
    const body = await optionalJson(c, confirmBody);
    await requireReauth(caller, body.currentPassword);
    const ended = await endOtherSessions(caller.accountId, caller.sessionId);
    await trustOnlyThisPlace(c, caller.accountId);
    return answer(c, "POST /api/sessions/end-others", { ended });
  })
  .delete("/sessions/:id", async (c) => {
    const caller = requireCaller(c);
    const id = idParam(c, "id");
    const body = await optionalJson(c, confirmBody);
    // Another member's (or no) session is a 404 before any confirmation is asked.
    if (!(await getSessionById(caller.accountId, id))) throw notFound("No such session.");
    await requireReauth(caller, body.currentPassword);
    if (!(await endSessionById(caller.accountId, id))) throw notFound("No such session.");
    return answer(c, "DELETE /api/sessions/:id", { ok: true });
  });
