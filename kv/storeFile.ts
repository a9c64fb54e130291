/**
 * The local KV file's SQLite schema, tuned once (decision 0132). Deno KV keeps every entry in one
 * table `kv` (key order) and indexes every entry's expiry time in `kv_expiration_ms_idx`, also the
 * entries that never expire (expiry -1). So each entry written without an expiry changes two
 * random pages of the file, its row and its place among the -1s of the expiry index, and on a disk
 * each changed page is written to the log, synced and copied back. Deno KV reads the expiry index
 * only for entries that expire (`expiration_ms >= 0` in both of its queries), so the index is made
 * partial: entries that never expire are left out of it, and writing one changes one page.
 *
 * This changes only how SQLite finds expired entries: what each query answers is the same, with the
 * index or without it. A file already tuned is left as it is; a remote KV has no file.
 */

import { DatabaseSync } from "node:sqlite";

const INDEX = "kv_expiration_ms_idx";
/** The index as Deno KV makes it, with the condition both its expiry queries carry. */
const PARTIAL = `CREATE INDEX ${INDEX} ON kv (expiration_ms) WHERE expiration_ms >= 0`;

/**
 * Makes the expiry index of the KV file at `path` partial, if it is not yet (the file open in Deno
 * KV, by this process or others: SQLite's lock orders the change with their writes, and their
 * statements are prepared again for the new schema). Returns whether it changed the file.
 */
export function tuneStoreFile(path: string, { busyMs = 30_000 }: { busyMs?: number } = {}): boolean {
  const db = new DatabaseSync(path, { timeout: busyMs });
  try {
    const sqlOf = () =>
      (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(INDEX) as
        | { sql: string }
        | undefined)?.sql;
    const before = sqlOf();
    // No such index (a schema Deno KV no longer makes), or tuned already.
    if (before === undefined || /\bWHERE\b/i.test(before)) return false;
    db.exec("BEGIN IMMEDIATE");
    try {
      const now = sqlOf();
      if (now === undefined || /\bWHERE\b/i.test(now)) {
        db.exec("ROLLBACK");
        return false;
      }
      db.exec(`DROP INDEX ${INDEX}`);
      db.exec(PARTIAL);
      db.exec("COMMIT");
      return true;
    } catch (e) {
      db.exec("ROLLBACK");
      throw e;
    }
  } finally {
    db.close();
  }
}

/** Makes the expiry index as Deno KV made it, every entry in it (benches: the "before" of 0132). */
export function untuneStoreFile(path: string): void {
  const db = new DatabaseSync(path, { timeout: 30_000 });
  try {
    db.exec(`BEGIN IMMEDIATE; DROP INDEX ${INDEX}; CREATE INDEX ${INDEX} ON kv (expiration_ms); COMMIT`);
  } finally {
    db.close();
  }
}

/** The query plans of Deno KV's two expiry queries on the file (tests: they must use the index). */
export function expiryQueryPlans(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return [
      "SELECT k FROM kv WHERE expiration_ms >= 0 AND expiration_ms <= 0",
      "SELECT expiration_ms FROM kv WHERE expiration_ms >= 0 ORDER BY expiration_ms LIMIT 1",
    ].map((q) => (db.prepare(`EXPLAIN QUERY PLAN ${q}`).all() as { detail: string }[]).map((r) => r.detail).join("; "));
  } finally {
    db.close();
  }
}
