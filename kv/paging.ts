/** Cursor paging over a KV prefix: `{items, cursor}`, with entries that may be skipped or enriched. */

import { kv } from "./db.ts";

/** A page of a list: `cursor` is null at the end. */
export interface Page<T> {
  items: T[];
  cursor: string | null;
}

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

/**
 * Reads up to `limit` items under `prefix` (newest first when `reverse`), mapping each entry with
 * `map`; a null from `map` skips the entry (hidden, deleted), so a page is filled past skipped
 * entries. The cursor is null when no further item would be shown.
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
    if (req.cursor && e instanceof TypeError && /cursor/i.test(e.message)) throw new BadCursorError();
    throw e;
  }
  return { items, cursor };
}
