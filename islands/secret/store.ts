/**
 * The device's own store for secret chats, in IndexedDB: its signing key, the private halves of
 * its key packages, each chat's MLS group state and the history it decrypted (a message opens
 * once: MLS deletes the keys it used). Nothing here leaves the device; logout deletes it all
 * (`SECRET_DB`, wiped by `clearLocalData`).
 */

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

/** A value of the device's store, or undefined. */
export async function getLocal<T>(key: string): Promise<T | undefined> {
  const tx = (await db()).transaction(STORE, "readonly");
  return await done(tx.objectStore(STORE).get(key)) as T | undefined;
}

/** Writes a value (structured clone: bytes and bigints as they are). */
export async function setLocal(key: string, value: unknown): Promise<void> {
  const tx = (await db()).transaction(STORE, "readwrite");
  await done(tx.objectStore(STORE).put(value, key));
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
