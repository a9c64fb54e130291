/**
 * The device's own store for secret chats, in IndexedDB: its signing key, the private halves of
 * its key packages, each chat's MLS group state, the history it decrypted (a message opens once:
 * MLS deletes the keys it used) and the pictures it opened. Nothing here leaves the device; logout
 * deletes it all (`SECRET_DB`, wiped by `clearLocalData`).
 *
 * Every value is sealed at rest: AES-256-GCM under a key made on this device as a non-extractable
 * WebCrypto key (kept in the same database: IndexedDB stores a CryptoKey as itself, and no script
 * can read its bytes out). ts-mls needs its own keys as bytes (decision 0175), so those are among
 * what is sealed; a copy of the database taken off the device (or read by a script and sent
 * elsewhere) is ciphertext without the key to open it. Code running in this page on this device can
 * still use the key: that is the limit (docs/secret-chats.md).
 */

import { decodeValue, encodeValue } from "./codec.ts";

/** The IndexedDB database of secret chats. */
export const SECRET_DB = "lambda-secret";
const STORE = "kv";

let opened: Promise<IDBDatabase> | undefined;
function db(): Promise<IDBDatabase> {
  return opened ??= new Promise((resolve, reject) => {
    const req = indexedDB.open(SECRET_DB, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Where the sealing key lives (a CryptoKey, never its bytes). */
const SEAL_KEY = "\u0000seal-key";

/** A value as it is stored: sealed, and whether it was bytes (pictures are sealed as they are). */
interface Sealed {
  sealed: 1;
  iv: Uint8Array;
  ct: Uint8Array;
  bytes: boolean;
}

let sealKey: Promise<CryptoKey> | undefined;
/** The device's sealing key: made once, non-extractable, kept in the database. */
function sealingKey(): Promise<CryptoKey> {
  return sealKey ??= (async () => {
    const kept = await raw<CryptoKey>(SEAL_KEY);
    if (kept) return kept;
    const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
    const tx = (await db()).transaction(STORE, "readwrite");
    // Only the first writer's key counts: another tab that made one at the same moment keeps its own out.
    const store = tx.objectStore(STORE);
    const there = await done(store.get(SEAL_KEY)) as CryptoKey | undefined;
    if (there) return there;
    await done(store.add(key, SEAL_KEY));
    return key;
  })().catch((e) => {
    sealKey = undefined;
    throw e;
  });
}

async function raw<T>(key: string): Promise<T | undefined> {
  const tx = (await db()).transaction(STORE, "readonly");
  return await done(tx.objectStore(STORE).get(key)) as T | undefined;
}

const isSealed = (v: unknown): v is Sealed => !!v && typeof v === "object" && (v as Sealed).sealed === 1;

/** The sealing key itself, as the store keeps it (a test looks at it: non-extractable). */
export function storedSealingKey(): Promise<CryptoKey | undefined> {
  return raw<CryptoKey>(SEAL_KEY);
}

/** A value of the device's store, opened, or undefined. */
export async function getLocal<T>(key: string): Promise<T | undefined> {
  const v = await raw<unknown>(key);
  if (!isSealed(v)) return v as T | undefined;
  const plain = new Uint8Array(
    await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: v.iv as Uint8Array<ArrayBuffer> },
      await sealingKey(),
      v.ct as Uint8Array<ArrayBuffer>,
    ),
  );
  return (v.bytes ? plain : decodeValue<T>(plain)) as T;
}

/** Writes a value, sealed (objects, bytes, bigints, as codec.ts encodes them). */
export async function setLocal(key: string, value: unknown): Promise<void> {
  const bytes = value instanceof Uint8Array;
  const plain = bytes ? value : encodeValue(value);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv }, await sealingKey(), plain as Uint8Array<ArrayBuffer>),
  );
  const tx = (await db()).transaction(STORE, "readwrite");
  await done(tx.objectStore(STORE).put({ sealed: 1, iv, ct, bytes } satisfies Sealed, key));
}

/** Deletes a value. */
export async function deleteLocal(key: string): Promise<void> {
  const tx = (await db()).transaction(STORE, "readwrite");
  await done(tx.objectStore(STORE).delete(key));
}

/** The keys that start with `prefix`. */
export async function localKeys(prefix: string): Promise<string[]> {
  const tx = (await db()).transaction(STORE, "readonly");
  const range = IDBKeyRange.bound(prefix, prefix + "\uffff");
  return (await done(tx.objectStore(STORE).getAllKeys(range))).map(String);
}
