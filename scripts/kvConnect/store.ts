/**
 * The KV Connect test server's backing store (scripts/kvConnect.ts): one SQLite database (node:sqlite,
 * in this process, its statements prepared once) per served database, holding each entry as the
 * client sent it: the key's bytes (SQLite orders blobs by their bytes, as KV Connect orders keys),
 * the value's bytes and encoding, the commit version and the expiry time (`expiration_ms`, -1 for
 * none). An expired entry is read until `expire` deletes it, as a local Deno KV deletes them (once a
 * minute). A versionstamp is the commit's version as 8 big-endian bytes and two zero bytes, as
 * denokv's SQLite writes it. Every call runs to its end in one go (no other request runs
 * meanwhile), a write in one transaction.
 */

import { DatabaseSync, type StatementSync } from "node:sqlite";
import { sameBytes } from "./keyCodec.ts";

/** An entry as KV Connect sends it. */
export interface WireEntry {
  key: Uint8Array;
  value: Uint8Array;
  encoding: number;
  versionstamp: Uint8Array;
}

/** One mutation of a write, its value already checked. */
export type StoreMutation =
  | { kind: "set" | "setSuffix"; key: Uint8Array; value: Uint8Array; encoding: number; expireAt: number }
  | { kind: "delete"; key: Uint8Array }
  | { kind: "sum" | "min" | "max"; key: Uint8Array; operand: bigint };

/** A write the store refuses (a sum on a stored value that is not a u64): its message is the answer's text. */
export class StoreRefusal extends Error {}

/** The encoding of a little-endian u64 value (the data path schema's VE_LE64). */
const LE64 = 2;
const U64 = 0xffff_ffff_ffff_ffffn;
/** How many range statements a store keeps (by direction and limit): the client's few limits, and room. */
const RANGE_STATEMENTS = 32;

/** A row as the statements read it: columns as an array, no object with names per row. */
type Row = [k: Uint8Array, v: Uint8Array, v_encoding: number, version: number];
/** `setReturnArrays` (node:sqlite's, not yet in its types). */
const arrays = (s: StatementSync) => {
  (s as StatementSync & { setReturnArrays(on: boolean): void }).setReturnArrays(true);
  return s;
};

export class Store {
  readonly #db: DatabaseSync;
  readonly #get: StatementSync;
  readonly #put: StatementSync;
  readonly #del: StatementSync;
  /**
   * The range reads, one statement per direction and limit (a limit written into the statement:
   * SQLite reads a range several times slower with `LIMIT ?`), up to RANGE_STATEMENTS of them.
   */
  readonly #ranges = new Map<number, StatementSync>();
  readonly #expire: StatementSync;
  readonly #saveVersion: StatementSync;
  #version: number;
  /** Watches waiting for a change: each its keys (as binary strings) and what wakes it. */
  readonly #waiting = new Set<{ keys: Set<string>; wake: () => void }>();
  closed = false;

  constructor(path: string) {
    const db = this.#db = new DatabaseSync(path);
    db.exec(
      `CREATE TABLE IF NOT EXISTS kv (k BLOB PRIMARY KEY, v BLOB NOT NULL, v_encoding INTEGER NOT NULL,
         version INTEGER NOT NULL, expiration_ms INTEGER NOT NULL) WITHOUT ROWID;
       CREATE TABLE IF NOT EXISTS data_version (k INTEGER PRIMARY KEY, version INTEGER NOT NULL);`,
    );
    this.#get = arrays(db.prepare("SELECT v, v_encoding, version FROM kv WHERE k = ?"));
    this.#put = db.prepare(
      "INSERT OR REPLACE INTO kv (k, v, v_encoding, version, expiration_ms) VALUES (?, ?, ?, ?, ?)",
    );
    this.#del = db.prepare("DELETE FROM kv WHERE k = ?");
    this.#expire = db.prepare("DELETE FROM kv WHERE expiration_ms >= 0 AND expiration_ms <= ?");
    this.#saveVersion = db.prepare("INSERT OR REPLACE INTO data_version (k, version) VALUES (0, ?)");
    const saved = db.prepare("SELECT version FROM data_version WHERE k = 0").get() as { version: number } | undefined;
    this.#version = saved?.version ?? 0;
  }

  /** The entry at these key bytes, null when there is none. */
  get(key: Uint8Array): WireEntry | null {
    const r = this.#get.get(key) as unknown as [v: Uint8Array, v_encoding: number, version: number] | undefined;
    return r ? { key, value: r[0], encoding: r[1], versionstamp: versionstamp(r[2]) } : null;
  }

  /** The entries of [start, end), in key order (or reversed), `limit` at most. */
  range(start: Uint8Array, end: Uint8Array, limit: number, reverse: boolean): WireEntry[] {
    const rows = this.#rangeStatement(limit, reverse).all(start, end) as unknown as Row[];
    return rows.map((r) => ({ key: r[0], value: r[1], encoding: r[2], versionstamp: versionstamp(r[3]) }));
  }

  #rangeStatement(limit: number, reverse: boolean): StatementSync {
    // A limit is a positive integer up to LIMITS.readEntries (the server checks it before).
    if (!Number.isSafeInteger(limit) || limit <= 0) throw new RangeError(`not a range limit: ${limit}`);
    const id = reverse ? -limit : limit;
    let s = this.#ranges.get(id);
    if (!s) {
      // Past RANGE_STATEMENTS, the least recently made gives way (statements are cheap to make again).
      if (this.#ranges.size >= RANGE_STATEMENTS) this.#ranges.delete(this.#ranges.keys().next().value!);
      s = arrays(this.#db.prepare(
        `SELECT k, v, v_encoding, version FROM kv WHERE k >= ? AND k < ? ORDER BY k ${
          reverse ? "DESC " : ""
        }LIMIT ${limit}`,
      ));
      this.#ranges.set(id, s);
    }
    return s;
  }

  /**
   * Commits the mutations if every check holds (a key's versionstamp, or none for "no entry"): the
   * commit's versionstamp, or null when a check failed. Throws StoreRefusal (nothing written).
   */
  write(checks: { key: Uint8Array; versionstamp: Uint8Array | null }[], mutations: StoreMutation[]): Uint8Array | null {
    for (const c of checks) {
      const now = this.get(c.key)?.versionstamp ?? null;
      if (now === null ? c.versionstamp !== null : c.versionstamp === null || !sameBytes(now, c.versionstamp)) {
        return null;
      }
    }
    const version = this.#version + 1;
    const stamp = versionstamp(version);
    const written = new Set<string>();
    this.#db.exec("BEGIN");
    try {
      for (const m of mutations) {
        let key = m.key;
        if (m.kind === "delete") this.#del.run(key);
        else if (m.kind === "set") this.#put.run(key, m.value, m.encoding, version, m.expireAt);
        else if (m.kind === "setSuffix") {
          // The key's last part: the versionstamp's 20 hex digits, as a string part (0x02 … 0x00).
          key = concat(m.key, Uint8Array.of(0x02, ...new TextEncoder().encode(hex(stamp)), 0));
          this.#put.run(key, m.value, m.encoding, version, m.expireAt);
        } else if ("operand" in m) {
          const old = this.get(key);
          let n = m.operand;
          if (old) {
            if (old.encoding !== LE64 || old.value.length !== 8) {
              throw new StoreRefusal(`Failed to perform '${m.kind}' mutation on a non-U64 value in the database`);
            }
            const was = new DataView(old.value.buffer, old.value.byteOffset, 8).getBigUint64(0, true);
            n = m.kind === "sum" ? (was + n) & U64 : m.kind === "min" ? (was < n ? was : n) : (was > n ? was : n);
          }
          const out = new Uint8Array(8);
          new DataView(out.buffer).setBigUint64(0, n, true);
          this.#put.run(key, out, LE64, version, -1);
        }
        written.add(binary(key));
      }
      this.#saveVersion.run(version);
      this.#db.exec("COMMIT");
    } catch (e) {
      this.#db.exec("ROLLBACK");
      throw e;
    }
    this.#version = version;
    for (const w of this.#waiting) {
      for (const k of w.keys) {
        if (written.has(k)) {
          this.#waiting.delete(w);
          w.wake();
          break;
        }
      }
    }
    return stamp;
  }

  /**
   * A promise that ends at the next write to one of these keys (or when the store closes), and a
   * function that ends it at once. Asked before the keys are read, so no write between is missed.
   */
  nextChange(keys: Uint8Array[]): { changed: Promise<void>; cancel(): void } {
    let wake!: () => void;
    const changed = new Promise<void>((r) => wake = r);
    const w = { keys: new Set(keys.map(binary)), wake };
    if (this.closed) wake();
    else this.#waiting.add(w);
    return {
      changed,
      cancel: () => {
        this.#waiting.delete(w);
        wake();
      },
    };
  }

  /** Deletes the entries past their expiry. */
  expire(): void {
    if (!this.closed) this.#expire.run(Date.now());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const w of this.#waiting) w.wake();
    this.#waiting.clear();
    this.#db.close();
  }
}

/** A commit version's versionstamp: 8 big-endian bytes, then two zero bytes. */
function versionstamp(version: number): Uint8Array {
  const out = new Uint8Array(10);
  const view = new DataView(out.buffer);
  // A version is a safe integer: its two 32-bit halves, without a BigInt.
  view.setUint32(0, Math.floor(version / 0x1_0000_0000), false);
  view.setUint32(4, version >>> 0, false);
  return out;
}

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
const binary = (b: Uint8Array) => String.fromCharCode(...b);

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
