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
    // No such index (a schema Deno KV no longer makes), or tuned already.
    const leftAsItIs = () => {
      const index = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").get(INDEX) as
        | { sql: string }
        | undefined;
      return index === undefined || /\bWHERE\b/i.test(index.sql);
    };
    // Asked first without the write lock (a file tuned already is not locked on every open), then
    // again under it (another process may have tuned it meanwhile).
    if (leftAsItIs()) return false;
    db.exec("BEGIN IMMEDIATE");
    try {
      if (leftAsItIs()) {
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
