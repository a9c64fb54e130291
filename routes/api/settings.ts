/**
 * Account settings: GET/PUT /api/settings, and the member's sessions: GET /api/sessions,
 * DELETE /api/sessions/{id}, POST /api/sessions/end-others ("Log out everywhere else").
 *
 * A stolen session must not become a takeover (OWASP ASVS 5.0 V6.2.3, V7.4.3, V7.5.1, V7.5.2).
 * Changing the email or the password, and ending sessions, need the member to confirm who they
 * are: the current password (`currentPassword`), or a fresh login (a session started by a login
 * link within the last 10 minutes, `FRESH_LINK_LOGIN_MS`: the link proved the mailbox, the
 * account's recovery factor; this is how a link-only account, or one whose password is
 * forgotten, sets a new one). Current-password checks count against `reauthByAccount`, right or
 * wrong, before the check. A password change ends every other session of the account; an email
 * change mails the old address (kv/accounts.ts).
 */

import { type Context, Hono } from "hono";
import * as z from "zod";
import type { AppEnv, Caller } from "../env.ts";
import { ApiError, conflict, notFound, tooMany } from "../errors.ts";
import { idParam, jsonBody, parseWith } from "../validate.ts";
import { requireCaller } from "../middleware.ts";
import { TEXTS } from "../../domain/texts.ts";
import { type Account, checkPassword, getAccount, normalizeEmail, updateSettings } from "../../kv/accounts.ts";
import {
  endOtherSessions,
  endSessionById,
  freshLinkLoginUntil,
  getSessionById,
  listSessions,
  type Session,
} from "../../kv/sessions.ts";
import { listPushSubscriptions, vapidKeys } from "../../kv/push.ts";
import { hit } from "../../kv/ratelimit.ts";

const currentPassword = z.string().max(1024).optional();

const settingsBody = z.object({
  name: z.string().trim().min(1, "Name is required.").max(100),
  email: z.string().trim().min(1, "Email is required.").max(254).email("Please enter a valid email address."),
  password: z.string().min(8, "A password needs at least 8 characters.").max(128).optional(),
  currentPassword,
});

const confirmBody = z.object({ currentPassword });

/**
 * What this session needs to change the email or password or end sessions: nothing while it is a
 * fresh login-link login (until `freshUntil`), else the current password, or (an account without
 * one) a new login link.
 */
export type Reauth = "fresh" | "password" | "link";

function reauthOf(a: Account, session: Session | null): { reauth: Reauth; freshUntil: number | null } {
  const freshUntil = session ? freshLinkLoginUntil(session) : null;
  return { reauth: freshUntil !== null ? "fresh" : a.passwordHash !== null ? "password" : "link", freshUntil };
}

/** The settings a member sees of their own account (spec §3 Settings), with push devices and key. */
export async function settingsOf(a: Account, session: Session | null) {
  return {
    defaultProfileId: a.defaultProfileId,
    name: a.name,
    email: a.email,
    roles: a.roles,
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
  };
}

/** The caller's account and session (the session to tell a fresh login). */
async function accountAndSession(caller: Caller): Promise<{ account: Account; session: Session | null }> {
  const [account, session] = await Promise.all([
    getAccount(caller.accountId),
    getSessionById(caller.accountId, caller.sessionId),
  ]);
  if (!account) throw notFound();
  return { account, session };
}

/**
 * Throws unless the caller confirmed who they are: a fresh login-link session, or the right
 * current password (rate-limited per account). 403 with a code the island can tell apart.
 */
async function requireReauth(caller: Caller, given: string | undefined): Promise<void> {
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

/** An optional JSON body (a DELETE usually has none): `{}` when none is sent. */
async function optionalJson<T extends z.ZodType>(c: Context<AppEnv>, schema: T): Promise<z.infer<T>> {
  if (!(c.req.header("content-type") ?? "").includes("json")) return parseWith(schema, {});
  return await jsonBody(c, schema);
}

export const settings = new Hono<AppEnv>()
  .get("/settings", async (c) => {
    const caller = requireCaller(c);
    const { account, session } = await accountAndSession(caller);
    return c.json(await settingsOf(account, session));
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
    if (body.password !== undefined) await endOtherSessions(caller.accountId, caller.sessionId);
    return c.json(await settingsOf(saved, await getSessionById(caller.accountId, caller.sessionId)));
  })
  .get("/sessions", async (c) => {
    const caller = requireCaller(c);
    const list = await listSessions(caller.accountId);
    return c.json(list.map((s) => ({
      id: s.id,
      device: s.device,
      tsCreated: s.tsCreated,
      lastSeen: s.lastSeen,
      current: s.id === caller.sessionId,
    })));
  })
  .post("/sessions/end-others", async (c) => {
    const caller = requireCaller(c);
    const body = await optionalJson(c, confirmBody);
    await requireReauth(caller, body.currentPassword);
    return c.json({ ended: await endOtherSessions(caller.accountId, caller.sessionId) });
  })
  .delete("/sessions/:id", async (c) => {
    const caller = requireCaller(c);
    const id = idParam(c, "id");
    const body = await optionalJson(c, confirmBody);
    // Another member's (or no) session is a 404 before any confirmation is asked.
    if (!(await getSessionById(caller.accountId, id))) throw notFound("No such session.");
    await requireReauth(caller, body.currentPassword);
    if (!(await endSessionById(caller.accountId, id))) throw notFound("No such session.");
    return c.json({ ok: true });
  });
