/** The mail job: builds the mail and sends it over SMTP, or keeps it in the dev outbox. */

import { config } from "../config/config.ts";
import { createLoginToken, getAccount } from "../kv/accounts.ts";
import { type Mail, saveToOutbox } from "../kv/outbox.ts";
import type { Job } from "../kv/jobs.ts";
import { emailChangedMail } from "../domain/texts.ts";
import { withLocale } from "../domain/i18n.ts";
import { phrase } from "../domain/phrases.ts";
import { firstUse } from "../domain/firstUse.ts";

/** nodemailer, loaded at the first mail sent over SMTP (domain/firstUse.ts): the dev outbox never needs it. */
const nodemailer = firstUse(async () => (await import("nodemailer")).default);

type MailJob = Extract<Job, { type: "mail" }>;

/** The origin used in links: PUBLIC_ORIGIN, never a request's Host header (no link poisoning). */
export function publicOrigin(): string {
  return (config.publicOrigin ?? `http://localhost:${config.port}`).replace(/\/$/, "");
}

/**
 * Sends a mail job by its template; the mail as the dev outbox keeps it (null when sent over SMTP,
 * or when there was nothing to send). Safe to run twice (a second mail, never a wrong one).
 */
export async function sendMailJob(job: MailJob): Promise<Mail | null> {
  if (job.template === "email-changed") return await sendEmailChanged(job);
  return await sendLoginLink(job);
}

/** Tells the old address that the account's email was changed, and where to get help. */
async function sendEmailChanged(job: Extract<MailJob, { template: "email-changed" }>): Promise<Mail | null> {
  const account = await getAccount(job.accountId);
  const mail = withLocale(
    account?.language ?? job.lang ?? "en",
    () => emailChangedMail(`${publicOrigin()}/support`, new Date(account?.tsEmailChanged ?? Date.now())),
  );
  return await sendMail(job.to, mail.subject, mail.text);
}

/** Sends a login link. Safe to run twice: a second run sends a second, equally valid link. */
async function sendLoginLink(job: MailJob): Promise<Mail | null> {
  const account = await getAccount(job.accountId);
  if (!account) return null;
  const token = await createLoginToken(account.id, account.email);
  const link = `${publicOrigin()}/login#token=${token}`;
  // In the member's language: their setting, else the one they asked in.
  const { subject, text } = withLocale(account.language ?? job.lang ?? "en", () => ({
    subject: phrase("Your login link"),
    text: [
      phrase("Hello,"),
      "",
      phrase("Open this link to log in. It works once, for one hour:"),
      link,
      "",
      phrase("Then set a password in Account settings."),
      phrase("If you did not ask for this, ignore this mail."),
    ].join("\n"),
  }));
  return await sendMail(account.email, subject, text);
}

/**
 * Sends a mail over SMTP_URL, or (without it) keeps it in the dev outbox and prints it: the mail
 * kept, null when sent.
 */
export async function sendMail(to: string, subject: string, text: string): Promise<Mail | null> {
  const smtp = config.smtpUrl;
  if (smtp) {
    const transport = (await nodemailer.load()).createTransport(smtp);
    try {
      await transport.sendMail({ from: config.mailFrom, to, subject, text });
    } finally {
      transport.close();
    }
    return null;
  }
  const m = await saveToOutbox({ to, subject, text });
  if (Deno.env.get("DEV_OUTBOX_PRINT") !== "0") console.log(`[dev outbox] mail ${m.id} to ${to}: ${subject}\n${text}`);
  return m;
}
