/** Contact-us messages from members, for the operators. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";

/** A message sent through the contact form. */
export interface ContactMessage {
  id: string;
  accountId: string;
  name: string;
  message: string;
  tsCreated: number;
}

/** Stores a contact message. */
export async function saveContactMessage(accountId: string, name: string, message: string): Promise<ContactMessage> {
  const m: ContactMessage = { id: newId(), accountId, name, message, tsCreated: now() };
  await kv().set(keys.contactMessage(m.id), m);
  return m;
}

/** Contact messages, newest first. */
export async function listContactMessages(limit = 100): Promise<ContactMessage[]> {
  const out: ContactMessage[] = [];
  for await (const e of kv().list<ContactMessage>({ prefix: ["contact_messages"] }, { limit, reverse: true })) {
    out.push(e.value);
  }
  return out;
}
