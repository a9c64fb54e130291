/**
 * A member's data (kv/memberData.ts): the export job zips everything stored about them with
 * fflate, keeps the ZIP as a blob and mails a single-use link valid a day (then a delayed run of
 * the same job removes an unused ZIP); the deletion job runs the deletion's steps in order, and
 * re-enqueues itself for the last one, which waits for the change logs' lifetime.
 */

import { collectMemberData, recordExport } from "../kv/memberData.ts";
import { deleteMemberStep, getDeletion, nextStepWaitsUntil } from "../kv/memberDeletion.ts";
import { deleteBlob, putBlob } from "../kv/blobs.ts";
import { newId } from "../kv/ids.ts";
import { now } from "../kv/clock.ts";
import { getAccount } from "../kv/accounts.ts";
import { enqueueJobNow, type Job } from "../kv/jobs.ts";
import { publicOrigin, sendMail } from "./mail.ts";
import { loadMaster, loadVariant } from "./pictures.ts";
import { withLocale } from "../domain/i18n.ts";
import { phrase } from "../domain/phrases.ts";
import { firstUse } from "../domain/firstUse.ts";

/** fflate, loaded at the first export zipped (domain/firstUse.ts). */
const fflate = firstUse(() => import("fflate"));

/** Builds the member's ZIP, stores it and mails its link; with `expireBlob`, removes an export nobody took. */
export async function accountExportJob(job: Extract<Job, { type: "account-export" }>): Promise<void> {
  if (job.expireBlob) {
    await deleteBlob(job.expireBlob);
    return;
  }
  // An account being deleted gets no export (and its data must not outlive it in a ZIP).
  if (await getDeletion(job.accountId)) return;
  const account = await getAccount(job.accountId);
  const data = await collectMemberData(job.accountId, { loadMaster, loadVariant });
  if (!account || !data) return;
  const enc = new TextEncoder();
  const entries: Record<string, Uint8Array> = {
    "data.json": enc.encode(JSON.stringify(data.json, null, 2)),
    "README.txt": enc.encode(
      "Everything this app stores about you: data.json, and your pictures in pictures/ (the master and every stored size).\n",
    ),
  };
  for (const f of data.files) entries[f.path] = f.bytes;
  // Pictures are already compressed: stored as they are; the JSON is deflated.
  const zip = (await fflate.load()).zipSync(entries, { level: 6, mtime: new Date(now()) });
  const blobId = `exports/${newId()}`;
  await putBlob(blobId, zip, { type: "application/zip" });
  const token = await recordExport(account.id, blobId);
  // A deletion that began while the ZIP was built: its step "records" may have run already.
  if (token === null) {
    await deleteBlob(blobId);
    return;
  }
  const link = `${publicOrigin()}/settings#export=${token}`;
  // In the member's language (their setting).
  const mail = withLocale(account.language ?? "en", () => ({
    subject: phrase("Your data is ready"),
    text: [
      phrase("Hello,"),
      "",
      phrase("The copy of your data you asked for is ready. Open this link while logged in to download it."),
      phrase("It works once, for 24 hours:"),
      link,
      "",
      phrase("If you did not ask for this, log in and change your password."),
    ].join("\n"),
  }));
  await sendMail(account.email, mail.subject, mail.text);
}

/** Runs a deletion's steps; the last waits for the logs' lifetime in a job of its own. */
export async function accountDeleteJob(job: Extract<Job, { type: "account-delete" }>): Promise<void> {
  for (;;) {
    const d = await getDeletion(job.accountId);
    if (!d) return;
    const waitUntil = nextStepWaitsUntil(d);
    if (waitUntil > now()) {
      await enqueueJobNow({ type: "account-delete", accountId: job.accountId }, { delayMs: waitUntil - now() });
      return;
    }
    if ((await deleteMemberStep(job.accountId)) === null) return;
  }
}
