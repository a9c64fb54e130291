/** The one Deno KV handle of the process. Open it once with `openKv`, read it with `kv()`. */

import { config } from "../config/config.ts";
import { tracedKv, tracingOn } from "./tracing.ts";
import { patientKv, retryBusy } from "./busy.ts";
import { coalescedGets, READ_TOGETHER } from "./coalesce.ts";
import { tuneStoreFile } from "./storeFile.ts";
import { markPushReachable } from "./pushReach.ts";
import { keys } from "./keys.ts";

let handle: Deno.Kv | undefined;
let remoteStore = false;
let remoteNoticeGiven = false;

/**
 * What a local store file has and a remote KV (KV Connect: Deno Deploy KV, denokv) has not, said
 * once per process when a remote store opens, so that an operator reading the log knows it before
 * anything fails: each named part is for a local file only.
 */
export function remoteKvNotice(url: string): string {
  let where = url;
  try {
    where = new URL(url).origin;
  } catch { /* said as it was given */ }
  return `kv: remote KV (KV Connect) at ${where}. Local-file parts that do not apply: ` +
    "no waits on the store file's write lock (kv/busy.ts: a remote store never says locked), " +
    "no expiry-index tune of the store file (kv/storeFile.ts), " +
    "no `deno task backup` / `restore` (they copy a local file; back a remote store up with its own service). " +
    "Remote KV limits the app keeps within: a watch of at most 10 keys (the app watches one key per change log " +
    "and one job signal), at most 10 checks per atomic, no queues (jobs are KV entries, kv/jobs.ts).";
}

/**
 * The most checks one atomic may carry on the open store: 100 on a local file (Deno KV's own
 * limit), 10 on a remote KV (denokv answers more with 400 "Too many checks included in atomic
 * write."). Code that gathers checks from many writes into one atomic stays within it.
 */
export function maxChecksPerAtomic(): number {
  return remoteStore ? 10 : 100;
}

/** Is the open store a remote KV (KV Connect)? */
export function kvIsRemote(): boolean {
  return remoteStore;
}

/**
 * Opens KV at an explicit location: `KV_URL` (KV Connect / denokv) wins, then the given path,
 * then `KV_PATH`, then `./data/app.kv`. Tests pass ":memory:".
 */
export async function openKv(path?: string): Promise<Deno.Kv> {
  const where = config.kvUrl ?? path ?? config.kvPath;
  const remote = where.includes("://");
  const local = !remote && where !== ":memory:";
  if (local) {
    const dir = where.replace(/[^/]*$/, "");
    if (dir) await Deno.mkdir(dir, { recursive: true });
  }
  handle?.close();
  // A local file may be shared with other processes (web instances, the worker, a seed run):
  // every call waits out SQLite's write lock (kv/busy.ts). A remote KV never meets it.
  // Processes opening a new file at once (a supervisor's children) may meet its lock while one of
  // them sets the file up: opening waits it out as every other call does.
  const existed = local && await Deno.stat(where).then(() => true, () => false);
  const opened = remote ? await Deno.openKv(where) : await retryBusy("open", () => Deno.openKv(where));
  if (local) tune(where, existed);
  // Single-key reads asked for together go to the store as one call (kv/coalesce.ts).
  const db = coalescedGets(remote ? opened : patientKv(opened));
  remoteStore = remote;
  if (remote && !remoteNoticeGiven) {
    remoteNoticeGiven = true;
    console.info(remoteKvNotice(where));
  }
  handle = tracingOn() ? tracedKv(db) : db;
  await markDevices(handle);
  return handle;
}

/** Marks the push devices of a store from before their markers (kv/pushReach.ts); unmarked, likes list devices as before. */
async function markDevices(db: Deno.Kv): Promise<void> {
  try {
    const marked = await markPushReachable(db);
    if (marked > 0) console.info(`kv: ${marked} members with a push device marked for their likes' reads`);
  } catch (e) {
    console.warn(`kv: push devices left unmarked (likes list them): ${e instanceof Error ? e.message : e}`);
  }
}

/** Tunes a local file's schema (kv/storeFile.ts); a file that cannot be tuned serves as it is. */
function tune(path: string, existed: boolean): void {
  try {
    const tuned = tuneStoreFile(path);
    if (tuned && existed) console.info("kv: the store's expiry index now leaves out entries that never expire");
  } catch (e) {
    console.warn(`kv: the store's expiry index was left as it was: ${e instanceof Error ? e.message : e}`);
  }
}

/** The open KV handle; throws if `openKv` was not called. */
export function kv(): Deno.Kv {
  if (!handle) throw new Error("KV is not open: call openKv() first");
  return handle;
}

/** Puts a wrapper around the open handle (benches: kv/roundTrips.ts counts each call's round trip). */
export function wrapKv(wrap: (db: Deno.Kv) => Deno.Kv): void {
  handle = wrap(kv());
}

/** Closes the handle (tests, shutdown). */
export function closeKv(): void {
  handle?.close();
  handle = undefined;
}

/** `getMany` for any number of keys (KV reads at most 10 per call), in order: on `db`, the open store by default. */
export async function getAll<T>(keys: readonly Deno.KvKey[], db: Deno.Kv = kv()): Promise<Deno.KvEntryMaybe<T>[]> {
  const chunks: Promise<Deno.KvEntryMaybe<T>[]>[] = [];
  for (let i = 0; i < keys.length; i += 10) chunks.push(db.getMany<T[]>(keys.slice(i, i + 10)));
  return (await Promise.all(chunks)).flat();
}

/**
 * Reads `keys` (10 at most) in one snapshot, in the store call of the single-key reads asked for
 * beside them (kv/coalesce.ts): a request's reads begun together stay one call. A handle that does
 * not gather reads answers with a `getMany` of their own.
 */
export function getTogether<T extends readonly unknown[]>(
  keys: readonly Deno.KvKey[],
): Promise<{ [K in keyof T]: Deno.KvEntryMaybe<T[K]> }> {
  const db = kv() as Deno.Kv & { [READ_TOGETHER]?: (keys: Deno.KvKey[]) => Promise<Deno.KvEntryMaybe<unknown>[]> };
  const together = db[READ_TOGETHER];
  return (together ? together([...keys]) : db.getMany([...keys])) as Promise<
    { [K in keyof T]: Deno.KvEntryMaybe<T[K]> }
  >;
}

/** Reads one key: resolves when the store answers (readiness checks). */
export async function pingKv(): Promise<void> {
  await kv().get(keys.readyProbe());
}
