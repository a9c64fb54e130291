/**
 * The map tiles kept on disk (routes/tiles.ts serves them): one file a tile under the cache
 * folder (`{z}/{x}/{y}.tile`), within a size bound. Tiles are public pictures of the map, no
 * member's data, so they are files and not KV entries.
 *
 * Writes are atomic: a tile is written to a temporary file beside it and renamed over its place,
 * so a reader (of this process or another sharing the folder) never sees half a tile. Past the
 * bound, the least recently used tiles go first: the process keeps the folder's index in memory,
 * least recently used first (read from the files' modification times when it starts, and a read
 * sets the file's time, so other processes and the next start see the use too). Processes that
 * share the folder each count their own writes; each reads the folder again once it has written a
 * tenth of the bound since it last did, so together they overrun the bound by at most that much
 * each. A file another process removed is a miss; a temporary file a crash left is removed.
 */

import { dirname, join } from "node:path";

/** A temporary file older than this was left by a crash. */
const STALE_TEMP_MS = 60_000;
const TEMP_SUFFIX = ".tmp";

export class TileCache {
  /** Tile key ("z/x/y") to its size in bytes, least recently used first. */
  #index = new Map<string, number>();
  #bytes = 0;
  #writtenSinceScan = 0;
  #scan: Promise<void> | null = null;

  constructor(readonly dir: string, readonly maxBytes: number) {}

  /** The bytes the index counts (for tests and operators). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The file of a tile key (keys are built from validated integers only). */
  pathOf(key: string): string {
    return join(this.dir, `${key}.tile`);
  }

  /** A kept tile's bytes, or null. */
  async get(key: string): Promise<Uint8Array | null> {
    if (this.maxBytes <= 0) return null;
    await this.#ready();
    const path = this.pathOf(key);
    let bytes: Uint8Array;
    try {
      bytes = await Deno.readFile(path);
    } catch {
      this.#forget(key);
      return null;
    }
    // Most recently used now: last in the index, and on disk for the other processes.
    this.#forget(key);
    this.#remember(key, bytes.byteLength);
    const t = new Date();
    await Deno.utime(path, t, t).catch(() => {});
    return bytes;
  }

  /** Keeps a tile (temporary file, then rename), then removes the least recently used past the bound. */
  async put(key: string, bytes: Uint8Array): Promise<void> {
    if (this.maxBytes <= 0 || bytes.byteLength > this.maxBytes) return;
    await this.#ready();
    const path = this.pathOf(key);
    await Deno.mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${crypto.randomUUID()}${TEMP_SUFFIX}`;
    try {
      await Deno.writeFile(temp, bytes);
      await Deno.rename(temp, path);
    } catch (e) {
      await Deno.remove(temp).catch(() => {});
      throw e;
    }
    this.#forget(key);
    this.#remember(key, bytes.byteLength);
    this.#writtenSinceScan += bytes.byteLength;
    // Other processes writing to the same folder: count what is there again now and then.
    if (this.#writtenSinceScan > this.maxBytes / 10) {
      this.#scan = this.#read();
      await this.#scan;
    }
    await this.#evict();
  }

  #remember(key: string, size: number) {
    this.#index.set(key, size);
    this.#bytes += size;
  }

  #forget(key: string) {
    const size = this.#index.get(key);
    if (size === undefined) return;
    this.#index.delete(key);
    this.#bytes -= size;
  }

  async #evict(): Promise<void> {
    while (this.#bytes > this.maxBytes && this.#index.size > 0) {
      const [oldest] = this.#index.keys();
      this.#forget(oldest);
      await Deno.remove(this.pathOf(oldest)).catch(() => {});
    }
  }

  #ready(): Promise<void> {
    return this.#scan ??= this.#read().then(() => this.#evict());
  }

  /** Reads the folder into the index, least recently modified first; removes a crash's temporary files. */
  async #read(): Promise<void> {
    const found: { key: string; size: number; mtime: number }[] = [];
    const walk = async (rel: string[]) => {
      let entries: Deno.DirEntry[];
      try {
        entries = await Array.fromAsync(Deno.readDir(join(this.dir, ...rel)));
      } catch {
        return; // no folder yet, or removed meanwhile
      }
      for (const e of entries) {
        const path = join(this.dir, ...rel, e.name);
        if (e.isDirectory && rel.length < 2) {
          await walk([...rel, e.name]);
        } else if (e.isFile && rel.length === 2) {
          const info = await Deno.stat(path).catch(() => null);
          if (!info) continue;
          const mtime = info.mtime?.getTime() ?? 0;
          if (e.name.endsWith(TEMP_SUFFIX)) {
            if (Date.now() - mtime > STALE_TEMP_MS) await Deno.remove(path).catch(() => {});
          } else if (e.name.endsWith(".tile")) {
            found.push({ key: [...rel, e.name.slice(0, -".tile".length)].join("/"), size: info.size, mtime });
          }
        }
      }
    };
    await walk([]);
    // Files of one millisecond keep the order this process used them in.
    const rank = new Map([...this.#index.keys()].map((k, i) => [k, i]));
    found.sort((a, b) => a.mtime - b.mtime || (rank.get(a.key) ?? -1) - (rank.get(b.key) ?? -1));
    this.#index = new Map(found.map((f) => [f.key, f.size]));
    this.#bytes = found.reduce((sum, f) => sum + f.size, 0);
    this.#writtenSinceScan = 0;
  }
}
