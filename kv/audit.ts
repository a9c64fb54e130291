/**
 * The append-only audit log's writer: every admin (or automatic) step that changes what a member
 * is or sees adds its line in the same atomic as the change (kv/moderation.ts, and the admins'
 * decisions on selfies in kv/games/identify.ts). Nothing edits or deletes a line.
 */

import { keys } from "./keys.ts";
import { newId } from "./ids.ts";
import { now } from "./clock.ts";
import type { AuditEntry } from "../domain/shapes/moderation.ts";

/** An admin as the audit log names them. */
export interface Moderator {
  accountId: string;
  name: string;
}

/** The author of an automatic step (a review, a sending pause, a selfie sent to the admins). */
export const SYSTEM: Moderator = { accountId: "system", name: "Automatic" };

/** Adds an audit line to an atomic (the log is written only with the change it records). */
export function auditOp(
  op: Deno.AtomicOperation,
  who: Moderator,
  action: string,
  target: string | null,
  detail = "",
  reason = "",
): AuditEntry {
  const e: AuditEntry = { id: newId(), ts: now(), by: who.accountId, byName: who.name, action, target, detail, reason };
  op.check({ key: keys.auditEntry(e.id), versionstamp: null }).set(keys.auditEntry(e.id), e);
  return e;
}
