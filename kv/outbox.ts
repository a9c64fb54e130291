/** The development outbox: mail that would have been sent, kept when no SMTP_URL is set. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";

/** One outgoing mail. */
export interface Mail {
  id: string;
  to: string;
  subject: string;
  text: string;
  tsCreated: number;
}

/** Keeps a mail in the outbox for a day. */
export async function saveToOutbox(mail: Omit<Mail, "id" | "tsCreated">): Promise<Mail> {
  const m: Mail = { ...mail, id: newId(), tsCreated: now() };
  await kv().set(keys.outbox(m.id), m, { expireIn: 86_400_000 });
  return m;
}

/** The outbox, newest first. */
export async function listOutbox(limit = 50): Promise<Mail[]> {
  const out: Mail[] = [];
  for await (const e of kv().list<Mail>({ prefix: keys.outboxAll() }, { limit, reverse: true })) out.push(e.value);
  return out;
}

/** The links a mail holds (a login link, an export's), in order: what the dev outbox page offers to open. */
export function linksIn(mail: Mail): string[] {
  return [...mail.text.matchAll(/https?:\/\/\S+/g)].map(([link]) => link);
}
