/**
 * `deno task backup <file>`: a consistent copy of the local KV file (KV_PATH, or ./data/app.kv)
 * while the app serves. SQLite's `VACUUM INTO`, on a read-only connection of its own, copies one
 * snapshot of the store: every write committed before the copy began, none half. Writers are not
 * stopped (WAL: the copy reads while they write). The copy is written beside the target, checked
 * (`PRAGMA integrity_check`, and that it is a Deno KV store), then renamed into place, so a
 * `<file>` that exists is always a whole, checked backup. An existing `<file>` is never overwritten.
 * `deno task restore <file>` puts one back (scripts/restore.ts).
 */

import { DatabaseSync } from "node:sqlite";
import { config } from "../config/config.ts";

/** What a backup holds, as checked. */
export interface BackupCheck {
  ok: boolean;
  /** "ok", or what `PRAGMA integrity_check` or the check of the store's tables found. */
  problem: string;
  entries: number;
}

/** Checks that `file` is a whole SQLite database holding a Deno KV store. */
export function verifyBackup(file: string): BackupCheck {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    const rows = db.prepare("PRAGMA integrity_check").all() as { integrity_check: string }[];
    const integrity = rows.map((r) => r.integrity_check).join("; ");
    if (integrity !== "ok") return { ok: false, problem: integrity, entries: 0 };
    const n = db.prepare("SELECT count(*) AS n FROM kv").get() as { n: number };
    return { ok: true, problem: "ok", entries: Number(n.n) };
  } catch (e) {
    return { ok: false, problem: e instanceof Error ? e.message : String(e), entries: 0 };
  } finally {
    db?.close();
  }
}

/** Copies the live store at `source` to `target` (which must not exist); returns the copy's check. */
export async function backupStore(source: string, target: string): Promise<BackupCheck & { bytes: number }> {
  if (await exists(target)) throw new Error(`${target} exists: choose a new name (a backup never overwrites one)`);
  if (!(await exists(source))) throw new Error(`no store at ${source}`);
  const partial = `${target}.partial-${crypto.randomUUID().slice(0, 8)}`;
  const db = new DatabaseSync(source, { readOnly: true });
  try {
    // A busy writer can hold the lock a moment when the copy starts: wait for it.
    db.exec("PRAGMA busy_timeout = 10000");
    db.prepare("VACUUM INTO ?").run(partial);
  } finally {
    db.close();
  }
  const check = verifyBackup(partial);
  if (!check.ok) {
    await Deno.remove(partial).catch(() => {});
    throw new Error(`the copy failed its check (${check.problem}); nothing was written to ${target}`);
  }
  await Deno.rename(partial, target);
  return { ...check, bytes: (await Deno.stat(target)).size };
}

/** Does a file stand at `path`? */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return false;
    throw e;
  }
}

/**
 * Runs a store command from the command line on its one argument, a file (else prints `usage`,
 * exit 2); refuses a remote KV (KV_URL: prints `remote`, exit 2); prints the line `run` returns,
 * or `<name> failed: <why>` and exits 1.
 */
export async function storeCommand(
  name: string,
  usage: string,
  remote: string,
  run: (file: string) => Promise<string>,
): Promise<void> {
  const file = Deno.args[0];
  if (!file) {
    console.error(usage);
    Deno.exit(2);
  }
  if (config.kvUrl) {
    console.error(remote);
    Deno.exit(2);
  }
  try {
    console.log(await run(file));
  } catch (e) {
    console.error(`${name} failed: ${e instanceof Error ? e.message : e}`);
    Deno.exit(1);
  }
}

if (import.meta.main) {
  await storeCommand(
    "backup",
    "usage: deno task backup <file>   (copies KV_PATH, or ./data/app.kv, while the app runs)",
    "KV_URL is set: a remote KV is backed up by its own service (denokv's or Deno Deploy's), not here",
    async (target) => {
      const t = performance.now();
      const r = await backupStore(config.kvPath, target);
      return `backed up ${config.kvPath} to ${target}: ${r.entries} entries, ${(r.bytes / 1e6).toFixed(1)} MB, ` +
        `integrity ok, in ${((performance.now() - t) / 1000).toFixed(1)} s`;
    },
  );
}
