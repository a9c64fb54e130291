/**
 * A member's data (kv/memberData.ts):
 *   POST   /api/account/export           → 202: a job builds one ZIP of everything stored about them and mails a link
 *   POST   /api/account/export/download  {token} → the ZIP, once, in the owner's session only
 *   DELETE /api/account                   {currentPassword?} → 202: sessions end now, a job deletes everything
 * The link's token travels in the page's fragment and a POST body, never in a URL the server logs.
 */

import { Hono } from "hono";
import { deleteCookie } from "hono/cookie";
import type { AppEnv } from "../env.ts";
import { conflict, notFound, tooMany } from "../errors.ts";
import { bodyOf } from "../validate.ts";
import { isSecureContext, requireCaller, sessionCookieName } from "../middleware.ts";
import { accountAndSession, requireReauth } from "../reauth.ts";
import { enqueueJobNow } from "../../kv/jobs.ts";
import { hit } from "../../kv/ratelimit.ts";
import { takeExport } from "../../kv/memberData.ts";
import { startDeletion } from "../../kv/memberDeletion.ts";
import { deleteBlob, getBlob } from "../../kv/blobs.ts";
import { UI_TEXTS } from "../../domain/uiTexts.ts";
import { TEXTS } from "../../domain/texts.ts";
import { answer } from "../answer.ts";

export const account = new Hono<AppEnv>()
  .post("/account/export", async (c) => {
    const caller = requireCaller(c);
    if (!(await hit("exportByAccount", caller.accountId))) throw tooMany();
    await enqueueJobNow({ type: "account-export", accountId: caller.accountId });
    return answer(c, "POST /api/account/export", { ok: true as const, message: UI_TEXTS.dataPreparing });
  })
  .post("/account/export/download", async (c) => {
    const caller = requireCaller(c);
    const { token } = await bodyOf(c, "POST /api/account/export/download");
    const record = await takeExport(token, caller.accountId);
    const blob = record && await getBlob(record.blobId);
    if (!record || !blob) throw notFound("This download link was used, has expired, or is not yours.");
    await deleteBlob(record.blobId);
    const day = new Date().toISOString().slice(0, 10);
    c.header("content-type", "application/zip");
    c.header("content-disposition", `attachment; filename="my-data-${day}.zip"`);
    c.header("cache-control", "no-store");
    return c.body(blob.bytes as Uint8Array<ArrayBuffer>);
  })
  .delete("/account", async (c) => {
    const caller = requireCaller(c);
    const body = await bodyOf(c, "DELETE /api/account");
    await requireReauth(caller, body.currentPassword);
    const { account: a } = await accountAndSession(caller);
    // One commit: the member hidden, their sessions ended, and the job that deletes the rest.
    if (!(await startDeletion(a))) throw conflict("This account is already being deleted.", "deleting");
    deleteCookie(c, sessionCookieName(c), { path: "/", secure: isSecureContext(c) });
    return answer(c, "DELETE /api/account", { ok: true as const, message: TEXTS.accountDeleted });
  });
