/**
 * A KV Connect test server: what `Deno.openKv("http://…")` talks to, for tests and benches only,
 * never a production store (run denokv or Deno Deploy KV for that). It serves the protocol that
 * denokv documents (proto/kv-connect.md): the metadata exchange (versions 2 and 3, as denokv),
 * snapshot read, atomic write and watch, with the data path schema vendored from denokv
 * (scripts/kvConnect/datapath.proto, read with protobufjs), and answers a bad request with
 * denokv's own status and text.
 *
 * It is backed by SQLite in its own process (scripts/kvConnect/store.ts, node:sqlite; `--path FILE`,
 * or `:memory:`): each entry as the client sent it, the key's bytes (Deno KV's key encoding; SQLite
 * orders them by their bytes, as KV Connect does), the value's bytes and encoding, its commit's
 * version and its expiry. A written key must be the bytes of one Deno KV key (scripts/kvConnect/
 * keyCodec.ts), as a local Deno KV would take it. A versionstamped key (what the client sends for
 * `kv.commitVersionstamp()`, which the app's change logs use) ends with the commit's versionstamp as
 * a string part: key suffix, entry versionstamp and answer are one commit's versionstamp, as on
 * denokv. Versionstamps are 10 bytes, growing with each commit; sum, min and max work on u64
 * values; an expired entry is deleted within a minute (as a local Deno KV deletes them). The file
 * is this server's own store, not an app's KV file.
 *
 * Each URL path may name its own database: `http://host:port/` is the one at `--path`;
 * `http://host:port/db/NAME` is another (its own `:memory:` store when `--path` is `:memory:`,
 * else the file `PATH.NAME`): the test kits give each test its own.
 *
 *   deno task kv-connect --port 4512 --path ./data/kvconnect.kv [--rtt-ms 5] [--token T] [--hostname H]
 *
 * `--hostname H` listens on that address (default 127.0.0.1). `--rtt-ms N` answers every request
 * (and each watch message) N ms late, as a store that far away would. `--log-refusals` logs every
 * error answer to stderr; `--exit-with-stdin` stops the server when its stdin ends (the test kits
 * hold it open: tests/remoteKv.ts). Not served (the Deno client never sends them): enqueues (KV
 * Connect has no queues) and sums of V8-encoded numbers.
 */

import { compareBytes, decodeKey } from "./kvConnect/keyCodec.ts";
import { Store, type StoreMutation, StoreRefusal, type WireEntry } from "./kvConnect/store.ts";
import {
  ApiError,
  decodeMessage,
  decodeRequest,
  encodeAnswer,
  encodeMessage,
  ERRORS,
  int64,
  LIMITS,
  PB,
  protobufAnswer,
} from "./kvConnect/protocol.ts";

export { decodeMessage, encodeMessage, ERRORS, LIMITS, PB };

/** Options of a server. */
export interface KvConnectOptions {
  /** Port (0: a free one). */
  port?: number;
  hostname?: string;
  /** The backing Deno KV: a file path or ":memory:". */
  path: string;
  /** Milliseconds added to every answer. */
  rttMs?: number;
  /** The access token clients send (at least 12 characters, as denokv asks); default a random one. */
  token?: string;
  /** Logs every error answer (status, text, path) to stderr: the test kits see a refusal the app swallowed. */
  logRefusals?: boolean;
  /**
   * How long a named database nobody used (no request, no open watch) stays open before it is closed
   * (a `:memory:` one with its data): IDLE_CLOSE_MS unless given.
   */
  idleCloseMs?: number;
}

/** A running server. */
export interface KvConnectServer {
  /** The URL of its default database (the one at `path`). */
  url: string;
  token: string;
  port: number;
  /** The URL of the database named `name` (letters, digits, `_` and `-`). */
  urlOf(name: string): string;
  /** What it served: snapshot reads, atomic writes, the most checks one carried, and the error answers ("status text", the first 1,000). */
  stats: { reads: number; atomics: number; maxChecks: number; refusals: string[] };
  close(): Promise<void>;
}

/** One database the server serves. */
interface Database {
  store: Store;
  id: string;
  usedAt: number;
  watches: number;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const ROUTE = /^(?:\/db\/([A-Za-z0-9_-]{1,64}))?(?:\/v2\/(snapshot_read|atomic_write|watch))?\/?$/;
/**
 * How long a named database nobody used stays open by default: a test's own, finished (a test uses
 * its store all along; two minutes without a request or a watch is a test that has ended). A
 * request to a closed one is refused (400 "Invalid database id."), never answered from an empty
 * store.
 */
const IDLE_CLOSE_MS = 2 * 60_000;
/** How often expired entries are deleted (a local Deno KV's own period). */
const EXPIRY_MS = 60_000;

/** Starts a KV Connect server. */
export async function startKvConnect(opts: KvConnectOptions): Promise<KvConnectServer> {
  const token = opts.token ?? crypto.randomUUID().replaceAll("-", "");
  if (token.length < 12) throw new Error("Access token must be at minimum 12 chars long.");
  const rttMs = opts.rttMs ?? 0;
  const databases = new Map<string, Promise<Database>>();
  const stats = { reads: 0, atomics: 0, maxChecks: 0, refusals: [] as string[] };

  const open = (name: string): Promise<Database> => {
    let db = databases.get(name);
    if (!db) {
      const where = name === "" || opts.path === ":memory:" ? opts.path : `${opts.path}.${name}`;
      db = Promise.resolve().then(() => new Store(where)).then(
        (store) => ({ store, id: crypto.randomUUID(), usedAt: Date.now(), watches: 0 }),
        (e) => {
          databases.delete(name); // the next exchange tries again
          throw e;
        },
      );
      databases.set(name, db);
    }
    return db;
  };
  if (opts.path !== ":memory:") {
    const dir = opts.path.replace(/[^/]*$/, "");
    if (dir) await Deno.mkdir(dir, { recursive: true });
  }
  await open("");

  // An open store holds its memory: a test's is closed soon after the test, not minutes later with
  // hundreds of others still open.
  const idleCloseMs = opts.idleCloseMs ?? IDLE_CLOSE_MS;
  const sweep = setInterval(async () => {
    for (const [name, p] of databases) {
      const db = await p;
      if (name && db.watches === 0 && Date.now() - db.usedAt > idleCloseMs) {
        databases.delete(name);
        db.store.close();
      }
    }
  }, Math.min(60_000, Math.max(10, idleCloseMs / 4)));
  Deno.unrefTimer(sweep);
  // Expired entries deleted once a minute, as a local Deno KV does: until then they are read.
  const expiry = setInterval(async () => {
    for (const p of databases.values()) (await p).store.expire();
  }, EXPIRY_MS);
  Deno.unrefTimer(expiry);

  const late = lateBy(rttMs);

  async function handle(req: Request): Promise<Response> {
    const route = routeOf(req.url);
    if (!route || req.method !== "POST") throw ApiError.of(ERRORS.notFound);
    const name = route[1] ?? "";
    const op = route[2];
    if (!op) return await metadata(req, name);
    const db = await authenticate(req, name);
    db.usedAt = Date.now();
    const body = new Uint8Array(await req.arrayBuffer());
    if (op === "snapshot_read") {
      stats.reads++;
      return protobufAnswer("SnapshotReadOutput", snapshotRead(db.store, body));
    }
    if (op === "atomic_write") return protobufAnswer("AtomicWriteOutput", atomicWrite(db.store, body, stats));
    return watch(db, body, late);
  }

  async function metadata(req: Request, name: string): Promise<Response> {
    let supported: unknown;
    try {
      supported = (await req.json()).supportedVersions ?? [];
    } catch {
      throw ApiError.of(ERRORS.minimumProtocolVersion);
    }
    if (!Array.isArray(supported)) throw ApiError.of(ERRORS.minimumProtocolVersion);
    const version = supported.includes(3) ? 3 : supported.includes(2) ? 2 : 0;
    if (!version) throw ApiError.of(ERRORS.noMatchingProtocolVersion);
    checkToken(req);
    const db = await open(name);
    return Response.json({
      version,
      databaseId: db.id,
      endpoints: [{ url: name ? `/db/${name}/v2` : "/v2", consistency: "strong" }],
      token,
      expiresAt: new Date(Date.now() + 24 * 3_600_000).toISOString(),
    });
  }

  function checkToken(req: Request): void {
    const auth = req.headers.get("authorization");
    const space = auth?.indexOf(" ") ?? -1;
    if (!auth || space < 0) throw ApiError.of(ERRORS.malformedAuthorization);
    if (auth.slice(0, space).toLowerCase() !== "bearer" || auth.slice(space + 1) !== token) {
      throw ApiError.of(ERRORS.invalidAccessToken);
    }
  }

  async function authenticate(req: Request, name: string): Promise<Database> {
    const version = req.headers.get("x-denokv-version");
    if (version !== "2" && version !== "3") throw ApiError.of(ERRORS.invalidProtocolVersion);
    checkToken(req);
    const p = databases.get(name);
    const id = req.headers.get("x-denokv-database-id");
    const db = p && await p;
    if (!db || !id || db.id !== id.toLowerCase()) throw ApiError.of(ERRORS.invalidDatabaseId);
    return db;
  }

  const server = Deno.serve(
    { port: opts.port ?? 0, hostname: opts.hostname ?? "127.0.0.1", onListen: () => {} },
    async (req) => {
      let res: Response;
      try {
        res = await handle(req);
      } catch (e) {
        const err = e instanceof ApiError ? e : ApiError.of(ERRORS.internal);
        if (!(e instanceof ApiError)) console.error("kv-connect:", e);
        if (stats.refusals.length < 1000) stats.refusals.push(`${err.status} ${err.message}`);
        if (opts.logRefusals) {
          console.error(`kv-connect: refused ${new URL(req.url).pathname}: ${err.status} ${err.message}`);
        }
        res = new Response(err.message, { status: err.status, headers: { "content-type": "text/plain" } });
      }
      await late();
      return res;
    },
  );
  const port = server.addr.port;
  const base = `http://${opts.hostname ?? "127.0.0.1"}:${port}`;
  return {
    url: base,
    token,
    port,
    stats,
    urlOf(name) {
      if (!NAME.test(name)) throw new Error(`not a database name: ${name}`);
      return `${base}/db/${name}`;
    },
    async close() {
      clearInterval(sweep);
      clearInterval(expiry);
      await server.shutdown();
      for (const p of databases.values()) (await p).store.close();
      databases.clear();
    },
  };
}

/**
 * The route of a request URL: its path as sent when that is plainly one of the routes (letters,
 * digits, `_`, `-` and `/` only, as the client sends them), else as `URL` reads it (dot segments,
 * escapes, a query), the same match either way.
 */
function routeOf(url: string): RegExpMatchArray | null {
  const at = url.indexOf("/", url.indexOf("//") + 2);
  return (at < 0 ? null : url.slice(at).match(ROUTE)) ?? new URL(url).pathname.match(ROUTE);
}

/**
 * What waits `ms` before an answer: one timer for every wait due by the time it fires, rather than
 * one each (answers are due in the order they were asked, each `ms` after its asking).
 */
function lateBy(ms: number): () => Promise<void> {
  if (ms <= 0) return () => Promise.resolve();
  const due: { at: number; go: () => void }[] = [];
  let head = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    const now = performance.now();
    while (head < due.length && due[head].at <= now) due[head++].go();
    if (head === due.length) due.length = head = 0;
    else timer = setTimeout(fire, due[head].at - now);
  };
  return () =>
    new Promise<void>((go) => {
      due.push({ at: performance.now() + ms, go });
      timer ??= setTimeout(fire, ms);
    });
}

// --- Values and keys ---------------------------------------------------------------------------

/**
 * A request's bytes field as a Uint8Array: the decoded view into the request's body as it is (not
 * copied: nothing writes to it), or an empty one for an absent field.
 */
const bytes = (b: Uint8Array | number[] | undefined) => b instanceof Uint8Array ? b : new Uint8Array(b ?? []);

/** A KV Connect value checked as denokv checks it: V8 bytes start with 0xFF, a u64 is 8 bytes. */
function checkValue(data: Uint8Array, encoding: number): void {
  if (encoding === PB.VE_V8) {
    if (data[0] !== 0xff) throw ApiError.of(ERRORS.internal); // not V8 bytes: denokv cannot decode it either
  } else if (encoding === PB.VE_LE64) {
    if (data.length !== 8) throw ApiError.of(ERRORS.internal);
  } else if (encoding !== PB.VE_BYTES) {
    throw new ApiError(400, `The value encoding ${encoding} is unknown.`);
  }
}

/** The key of these bytes (a written key must be one Deno KV key). */
function keyOf(b: Uint8Array): Uint8Array {
  if (!decodeKey(b)) {
    throw new ApiError(400, "A key is not the bytes of a Deno KV key (this test server keeps keys by their parts).");
  }
  return b;
}

// --- Snapshot read -----------------------------------------------------------------------------

function snapshotRead(store: Store, body: Uint8Array): Record<string, unknown> {
  const ranges = decodeRequest("SnapshotRead", body).ranges;
  if (ranges.length > LIMITS.readRanges) throw ApiError.of(ERRORS.tooManyReadRanges);
  let total = 0;
  for (const r of ranges) {
    if (!Number.isInteger(r.limit) || r.limit <= 0) throw ApiError.of(ERRORS.invalidReadRangeLimit);
    if (r.start.length > LIMITS.readKeyBytes || r.end.length > LIMITS.readKeyBytes) {
      throw ApiError.of(ERRORS.keyTooLong);
    }
    total += r.limit;
  }
  if (total > LIMITS.readEntries) throw ApiError.of(ERRORS.readRangeTooLarge);
  // Every range read in this one call, no write between: one consistent snapshot.
  const out: WireEntry[][] = ranges.map((r) => {
    const start = bytes(r.start), end = bytes(r.end);
    if (compareBytes(start, end) >= 0) return [];
    return store.range(start, end, r.limit, r.reverse);
  });
  return {
    ranges: out.map((values) => ({ values })),
    read_disabled: false,
    read_is_strongly_consistent: true,
    status: PB.SR_SUCCESS,
  };
}

// --- Atomic write ------------------------------------------------------------------------------

const OPERATIONS: Record<number, "sum" | "min" | "max"> = { [PB.M_SUM]: "sum", [PB.M_MIN]: "min", [PB.M_MAX]: "max" };

function atomicWrite(
  store: Store,
  body: Uint8Array,
  stats: { atomics: number; maxChecks: number },
): Record<string, unknown> {
  const req = decodeRequest("AtomicWrite", body);
  const checks = req.checks;
  stats.atomics++;
  stats.maxChecks = Math.max(stats.maxChecks, checks.length);
  const mutations = req.mutations;
  if (checks.length > LIMITS.checks) throw ApiError.of(ERRORS.tooManyChecks);
  if (mutations.length + req.enqueues.length > LIMITS.mutations) throw ApiError.of(ERRORS.tooManyMutations);
  // In denokv's order: every check, then every mutation, is looked at before any size total.
  let size = 0;
  const checked: { key: Uint8Array; versionstamp: Uint8Array | null }[] = [];
  const changes: StoreMutation[] = [];
  for (const c of checks) {
    if (c.key.length > LIMITS.readKeyBytes) throw ApiError.of(ERRORS.keyTooLong);
    size += c.key.length;
    if (c.versionstamp.length !== 0 && c.versionstamp.length !== 10) throw ApiError.of(ERRORS.invalidVersionstamp);
    checked.push({ key: keyOf(bytes(c.key)), versionstamp: c.versionstamp.length ? bytes(c.versionstamp) : null });
  }
  for (const m of mutations) {
    if (m.key.length > LIMITS.writeKeyBytes) throw ApiError.of(ERRORS.keyTooLong);
    size += m.key.length;
    const data = m.value ? bytes(m.value.data) : undefined;
    if ((data?.length ?? 0) > LIMITS.valueBytes) throw ApiError.of(ERRORS.valueTooLong);
    size += data?.length ?? 0;
    const expireAtMs = int64(m.expire_at_ms);
    if (expireAtMs < -1) throw ApiError.of(ERRORS.invalidMutationExpireAt);
    const key = keyOf(bytes(m.key));
    if (m.mutation_type === PB.M_DELETE) {
      changes.push({ kind: "delete", key });
      continue;
    }
    if (!m.value || !data) throw ApiError.of(ERRORS.invalidMutationKind);
    checkValue(data, m.value.encoding);
    const expireAt = expireAtMs > 0 ? expireAtMs : -1;
    if (m.mutation_type === PB.M_SET) {
      changes.push({ kind: "set", key, value: data, encoding: m.value.encoding, expireAt });
    } else if (OPERATIONS[m.mutation_type]) {
      const kind = OPERATIONS[m.mutation_type];
      if (m.value.encoding !== PB.VE_LE64) {
        throw new ApiError(400, `Failed to perform '${kind}' mutation on a non-U64 operand`);
      }
      changes.push({ kind, key, operand: new DataView(data.buffer, data.byteOffset, 8).getBigUint64(0, true) });
    } else if (m.mutation_type === PB.M_SET_SUFFIX_VERSIONSTAMPED_KEY) {
      // kv.commitVersionstamp() as the key's last part: the key ends with this commit's
      // versionstamp, as the entry's versionstamp and the answer do.
      changes.push({ kind: "setSuffix", key, value: data, encoding: m.value.encoding, expireAt });
    } else {
      throw ApiError.of(ERRORS.invalidMutationKind);
    }
  }
  if (req.enqueues.length) throw new ApiError(400, "Enqueue operations are not supported in KV Connect");
  if (size > LIMITS.totalMutationBytes) throw ApiError.of(ERRORS.atomicWriteTooLarge);
  let versionstamp: Uint8Array | null;
  try {
    versionstamp = store.write(checked, changes);
  } catch (e) {
    if (e instanceof StoreRefusal) throw new ApiError(400, e.message);
    throw e;
  }
  return versionstamp
    ? { status: PB.AW_SUCCESS, versionstamp, failed_checks: [] }
    : { status: PB.AW_CHECK_FAILURE, failed_checks: [] };
}

// --- Watch -------------------------------------------------------------------------------------

/** Keep-alive: denokv sends an empty message every 5 s. */
const PING_MS = 5000;

function watch(db: Database, body: Uint8Array, late: () => Promise<unknown>): Response {
  const raw = decodeRequest("Watch", body).keys.map((k) => bytes(k.key));
  if (raw.length > LIMITS.watchedKeys) throw ApiError.of(ERRORS.tooManyWatchedKeys);
  for (const k of raw) if (k.length > LIMITS.writeKeyBytes) throw ApiError.of(ERRORS.keyTooLong);
  const keys = raw.map(keyOf);
  const frame = (msg: Uint8Array) => {
    const out = new Uint8Array(4 + msg.length);
    new DataView(out.buffer).setUint32(0, msg.length, true);
    out.set(msg, 4);
    return out;
  };
  let waiting: { changed: Promise<void>; cancel(): void } | undefined;
  let ping: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const stop = () => {
    if (closed) return;
    closed = true;
    clearInterval(ping);
    db.watches--;
    waiting?.cancel();
  };
  db.watches++;
  const stream = new ReadableStream<Uint8Array>({
    async start(ctl) {
      ping = setInterval(() => {
        try {
          ctl.enqueue(frame(new Uint8Array()));
        } catch {
          stop();
        }
      }, PING_MS);
      let seen = "";
      try {
        while (!closed && !db.store.closed) {
          // Asked before the keys are read: a write to them from now on ends the wait below.
          waiting = db.store.nextChange(keys);
          const entries = keys.map((k) => db.store.get(k));
          // Each message is the whole snapshot of the watched keys (every key "changed"), sent
          // only when one of them did change: the client gets each key's value every time.
          const stamps = entries.map((e) => e ? e.versionstamp.join(".") : "-").join(",");
          if (stamps !== seen) {
            seen = stamps;
            const out = entries.map((e) => ({ changed: true, entry_if_changed: e ?? undefined }));
            await late();
            if (closed) break;
            ctl.enqueue(frame(encodeAnswer("WatchOutput", { status: PB.SR_SUCCESS, keys: out })));
          }
          await waiting.changed;
        }
        if (!closed) ctl.close();
      } catch (e) {
        if (!closed) ctl.error(e);
      } finally {
        stop();
      }
    },
    cancel: stop,
  });
  return new Response(stream, { headers: { "content-type": "application/octet-stream" } });
}

// --- Command line ------------------------------------------------------------------------------

/** Reads `--name value` flags. */
function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(`--${name}`);
  if (i >= 0) return args[i + 1];
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

if (import.meta.main) {
  const args = Deno.args;
  const port = Number(flag(args, "port") ?? 4512);
  const path = flag(args, "path") ?? "./data/kvconnect.kv";
  const rttMs = Number(flag(args, "rtt-ms") ?? 0);
  if (!Number.isInteger(port) || port < 0 || !Number.isFinite(rttMs) || rttMs < 0) {
    console.error("usage: deno task kv-connect --port P --path FILE [--rtt-ms N] [--token T]");
    Deno.exit(2);
  }
  const server = await startKvConnect({
    port,
    hostname: flag(args, "hostname"),
    path,
    rttMs,
    token: flag(args, "token"),
    logRefusals: args.includes("--log-refusals"),
  });
  console.log(`kv-connect: serving ${path} at ${server.url} (${rttMs} ms added to every answer)`);
  console.log(`KV_URL=${server.url}`);
  console.log(`DENO_KV_ACCESS_TOKEN=${server.token}`);
  console.log(`a database of its own per test: ${server.url}/db/NAME`);
  Deno.addSignalListener("SIGTERM", () => server.close().then(() => Deno.exit(0)));
  // Started by a test kit: it stops when the kit's process (which holds its stdin) ends.
  if (args.includes("--exit-with-stdin")) {
    for await (const _ of Deno.stdin.readable) { /* nothing is sent: only the end counts */ }
    await server.close();
    Deno.exit(0);
  }
}
