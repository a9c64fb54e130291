/** The shape of the store's ids (kv/ids.ts makes them): read where input is checked, in every layer. */

/** How many characters an id from `newId` (kv/ids.ts) has. */
export const ID_LENGTH = 28;

/** True for a string shaped like an id from `newId` (kv/ids.ts): 28 hex digits. */
export function isId(id: unknown): id is string {
  return typeof id === "string" && /^[0-9a-f]{28}$/.test(id);
}
