/**
 * `deno task restore <file>`: puts a backup (scripts/backup.ts) back as the local KV file
 * (KV_PATH, or ./data/app.kv). Stop the app first, web instances and workers: a store that a
 * running process holds is refused (the check asks SQLite for sole use of the file, which any open
 * connection prevents). The backup is checked before anything is touched; the store it replaces
 * is kept aside as `<store>.before-restore-<time>` (with its WAL, if any), never deleted.
 */

import { DatabaseSync } from "node:sqlite";
import { config } from "../config/config.ts";
import { exists, storeCommand, verifyBackup } from "./backup.ts";

/** Thrown when a running process holds the store. */
export class StoreInUseError extends Error {}

/** Is any other connection (a running app or worker) open on `file`? */
function storeInUse(file: string): boolean {
  const db = new DatabaseSync(file);
  try {
    db.exec("PRAGMA busy_timeout = 0");
    // Leaving WAL mode needs sole use of the file: it fails while another connection is open. On
    // a store no one holds it checkpoints the WAL into the file, which is then whole on its own.
    db.prepare("PRAGMA journal_mode = DELETE").get();
    return false;
  } catch (e) {
    if (e instanceof Error && /locked|busy/i.test(e.message)) return true;
    throw e;
  } finally {
    db.close();
  }
}

/** Restores `backup` as the store at `store`; returns where the old store was kept (null when there was none). */
export async function restoreStore(backup: string, store: string, at = new Date()): Promise<{
  keptAside: string | null;
  entries: number;
}> {
  const check = verifyBackup(backup);
  if (!check.ok) throw new Error(`${backup} is not a whole KV backup (${check.problem}); nothing was changed`);
  let keptAside: string | null = null;
  if (await exists(store)) {
    if (storeInUse(store)) {
      throw new StoreInUseError(
        `${store} is open in a running process: stop the app (web instances and workers) first; nothing was changed`,
      );
    }
    keptAside = `${store}.before-restore-${at.toISOString().replace(/[:.]/g, "-")}`;
    for (const suffix of ["", "-wal", "-shm"]) {
      if (await exists(store + suffix)) await Deno.rename(store + suffix, keptAside + suffix);
    }
  }
  const dir = store.replace(/[^/]*$/, "");
  if (dir) await Deno.mkdir(dir, { recursive: true });
  const partial = `${store}.restoring`;
  await Deno.copyFile(backup, partial);
  await Deno.rename(partial, store);
  return { keptAside, entries: check.entries };
}

if (import.meta.main) {
  await storeCommand(
    "restore",
    "usage: deno task restore <file>   (stop the app first; replaces KV_PATH, or ./data/app.kv)",
    "KV_URL is set: a remote KV is restored by its own service, not here",
    async (backup) => {
      const r = await restoreStore(backup, config.kvPath);
      return `restored ${backup} (${r.entries} entries, integrity ok) as ${config.kvPath}` +
        (r.keptAside ? `; the store it replaced is kept as ${r.keptAside}` : "");
    },
  );
}
