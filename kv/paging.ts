/** Cursor paging over a KV prefix: `{items, cursor}`, with entries that may be skipped or enriched. */

import { kv } from "./db.ts";
import type { Page } from "../domain/shapes/paging.ts";

/** What a list call asks for. */
export interface PageRequest {
  cursor?: string;
  limit: number;
}

/** The cursor of a list call is not one this store handed out. */
export class BadCursorError extends Error {
  constructor() {
    super("The cursor is not valid.");
  }
}

/** The longest cursor accepted: a cursor is the base64 of a key's tail, and keys are at most 2 KB. */
export const MAX_CURSOR_LENGTH = 1024;

/**
 * A cursor as KV hands them out: base64 (standard or url-safe) of bounded length. Anything else
 * (unicode, control characters, a 10 KB string) would make KV throw an error that is not about
 * the cursor, so it is refused before KV sees it.
 */
export function isCursorShaped(cursor: string): boolean {
  return cursor.length <= MAX_CURSOR_LENGTH && /^[A-Za-z0-9+/_-]+={0,2}$/.test(cursor);
}

/**
 * Reads up to `limit` items under `prefix` (newest first when `reverse`), mapping each entry with
 * `map`; a null from `map` skips the entry (hidden, deleted), so a page is filled past skipped
 * entries. The cursor is null when no further item would be shown. A cursor this store did not
 * hand out throws `BadCursorError` (the API answers 400), whatever KV made of it.
 */
export async function pageOf<V, T>(
  prefix: Deno.KvKey,
  req: PageRequest,
  map: (entry: Deno.KvEntry<V>) => T | null | Promise<T | null>,
  reverse = true,
): Promise<Page<T>> {
  const items: T[] = [];
  let cursor: string | null = null;
  let last = "";
  if (req.cursor && !isCursorShaped(req.cursor)) throw new BadCursorError();
  try {
    const iter = kv().list<V>({ prefix }, { reverse, cursor: req.cursor || undefined, batchSize: req.limit + 1 });
    for await (const entry of iter) {
      const item = await map(entry);
      if (item === null) continue;
      if (items.length === req.limit) {
        cursor = last;
        break;
      }
      items.push(item);
      last = iter.cursor;
    }
  } catch (e) {
    // KV says "invalid cursor", or, for a cursor that decodes to a key past its size, "Key too large".
    if (req.cursor && e instanceof TypeError && /cursor|key too large/i.test(e.message)) throw new BadCursorError();
    throw e;
  }
  return { items, cursor };
}
