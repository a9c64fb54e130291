/** Account settings: GET/PUT /api/settings, and the member's sessions. */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "../env.ts";
import { conflict, notFound } from "../errors.ts";
import { idParam, jsonBody } from "../validate.ts";
import { requireCaller } from "../middleware.ts";
import { TEXTS } from "../../domain/texts.ts";
import { type Account, getAccount, updateSettings } from "../../kv/accounts.ts";
import { endSessionById, listSessions } from "../../kv/sessions.ts";
import { listPushSubscriptions, vapidKeys } from "../../kv/push.ts";

const settingsBody = z.object({
  name: z.string().trim().min(1, "Name is required.").max(100),
  email: z.string().trim().min(1, "Email is required.").max(254).email("Please enter a valid email address."),
  password: z.string().min(8, "A password needs at least 8 characters.").max(128).optional(),
});

/** The settings a member sees of their own account (spec §3 Settings), with push devices and key. */
export async function settingsOf(a: Account) {
  return {
    defaultProfileId: a.defaultProfileId,
    name: a.name,
    email: a.email,
    roles: a.roles,
    hasPassword: a.passwordHash !== null,
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

export const settings = new Hono<AppEnv>()
  .get("/settings", async (c) => {
    const caller = requireCaller(c);
    const account = await getAccount(caller.accountId);
    if (!account) throw notFound();
    return c.json(await settingsOf(account));
  })
  .put("/settings", async (c) => {
    const caller = requireCaller(c);
    const body = await jsonBody(c, settingsBody);
    const saved = await updateSettings(caller.accountId, body);
    if (!saved) throw conflict(TEXTS.settingsSaveFailed, "email_taken");
    return c.json(await settingsOf(saved));
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
  .delete("/sessions/:id", async (c) => {
    const caller = requireCaller(c);
    if (!(await endSessionById(caller.accountId, idParam(c, "id")))) throw notFound("No such session.");
    return c.json({ ok: true });
  });
