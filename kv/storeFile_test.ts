import assert from "node:assert/strict";
import { DatabaseSync } from "node:sqlite";
import { kv, openKv } from "./db.ts";
import { tuneStoreFile } from "./storeFile.ts";
import { inNewKvDir } from "../tests/kv.ts";

/** The first row of a read-only query on the file. */
function first<T>(path: string, sql: string): T {
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    return db.prepare(sql).get() as T;
  } finally {
    db.close();
  }
}

/** The query plans of Deno KV's two expiry queries (the sweep of expired entries, the next expiry). */
function expiryQueryPlans(path: string): string[] {
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

const indexSql = (path: string) =>
  first<{ sql: string }>(path, "SELECT sql FROM sqlite_master WHERE name = 'kv_expiration_ms_idx'").sql;

/** Entries that expire (found by the expiry index), and entries in all. */
const counts = (path: string) => ({
  indexed: first<{ n: number }>(
    path,
    "SELECT count(*) AS n FROM kv INDEXED BY kv_expiration_ms_idx WHERE expiration_ms >= 0",
  ).n,
  all: first<{ n: number }>(path, "SELECT count(*) AS n FROM kv").n,
});

Deno.test("store file - a new file's expiry index holds only the entries that expire, and both expiry queries use it", () =>
  inNewKvDir(async (path) => {
    await openKv(path);
    assert.match(indexSql(path), /WHERE expiration_ms >= 0$/);
    await kv().set(["forever", 1], "a");
    await kv().set(["forever", 2], "b");
    await kv().set(["soon"], "c", { expireIn: 60_000 });
    // The handle opened before the change writes and reads on (its statements prepared again).
    const values = (await kv().getMany([["forever", 1], ["forever", 2], ["soon"]])).map((e) => e.value);
    assert.deepEqual(values, ["a", "b", "c"]);
    assert.deepEqual(counts(path), { indexed: 1, all: 3 });
    for (const plan of expiryQueryPlans(path)) assert.match(plan, /USING (COVERING )?INDEX kv_expiration_ms_idx/);
  }));

Deno.test("store file - a file made before is tuned on its next open with every entry kept; tuning it again changes nothing", () =>
  inNewKvDir(async (path) => {
    const raw = await Deno.openKv(path);
    for (let i = 0; i < 50; i++) await raw.set(["row", i], { i }, i % 5 === 0 ? { expireIn: 3_600_000 } : undefined);
    raw.close();
    assert.doesNotMatch(indexSql(path), /WHERE/);
    const inIndex = first<{ n: number }>(path, "SELECT count(*) AS n FROM kv INDEXED BY kv_expiration_ms_idx").n;
    assert.equal(inIndex, 50, "Deno KV's own index holds every entry");

    await openKv(path);
    assert.match(indexSql(path), /WHERE/);
    assert.deepEqual(counts(path), { indexed: 10, all: 50 });
    const rows = await Array.fromAsync(kv().list<{ i: number }>({ prefix: ["row"] }));
    assert.deepEqual(rows.map((e) => e.value.i), [...Array(50).keys()]);
    assert.equal(tuneStoreFile(path), false);
  }));

Deno.test("store file - tuning that meets another connection's write lock gives up after its wait with the file unchanged; once the lock is free it tunes", () =>
  inNewKvDir(async (path) => {
    const raw = await Deno.openKv(path);
    // Deno KV writes its own housekeeping just after it opens a file, so the other connection waits its turn for the lock.
    const other = new DatabaseSync(path, { timeout: 10_000 });
    try {
      other.exec("BEGIN IMMEDIATE");
      assert.throws(() => tuneStoreFile(path, { busyMs: 50 }), /locked|busy/i);
      other.exec("COMMIT");
      assert.doesNotMatch(indexSql(path), /WHERE/);
      assert.equal(tuneStoreFile(path), true);
      assert.match(indexSql(path), /WHERE/);
    } finally {
      other.close();
      raw.close();
    }
  }));
