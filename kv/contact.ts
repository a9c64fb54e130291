/** Contact-us messages and problem reports, from members and visitors, for the operators. */

import { kv } from "./db.ts";
import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";

/** A message sent through the contact form. */
export interface ContactMessage {
  id: string;
  /** The member who wrote, when logged in. */
  accountId?: string;
  /** Where to answer a visitor (support's problem report, which needs no login). */
  email?: string;
  name: string;
  message: string;
  tsCreated: number;
}

/** Stores a contact message from a member (`accountId`) or a visitor (`email`). */
export async function saveContactMessage(
  from: { accountId: string } | { email: string; accountId?: string },
  name: string,
  message: string,
): Promise<ContactMessage> {
  const m: ContactMessage = { id: newId(), ...from, name, message, tsCreated: now() };
  await kv().set(keys.contactMessage(m.id), m);
  return m;
}

/** Contact messages, newest first. */
export async function listContactMessages(limit = 100): Promise<ContactMessage[]> {
  const out: ContactMessage[] = [];
  for await (const e of kv().list<ContactMessage>({ prefix: keys.all("contact_messages") }, { limit, reverse: true })) {
    out.push(e.value);
  }
  return out;
}
