/**
 * The map's tiles through the app: `GET /tiles/{z}/{x}/{y}` answers the tile from the disk cache
 * (routes/tileCache.ts) or fetches it from the tile server (`TILE_URL`). The browser asks this
 * app's origin only, so no member's address, cookies or area reach the tile host: the upstream
 * request carries a fixed User-Agent naming the app (OpenStreetMap's tile policy asks for one)
 * and nothing of the member. Concurrent requests for one tile fetch it once. A tile server that
 * fails answers 502, one that is slow 504, within `FETCH_TIMEOUT_MS`; failures are never kept.
 * Members only (an open proxy would spend the tile host's goodwill on anyone's behalf), and
 * limited per address (kv/ratelimit.ts `tilesByAddress`).
 */

import { Hono } from "hono";
import type { AppEnv } from "./env.ts";
import { ApiError, badRequest, notFound, tooMany } from "./errors.ts";
import { clientAddress, requireCaller, toErrorResponse } from "./middleware.ts";
import { TileCache } from "./tileCache.ts";
import { joinChunks } from "./multipart.ts";
import { hit } from "../kv/ratelimit.ts";
import { TILE_MAX_ZOOM, tileUrl } from "../islands/map/firstView.ts";
import { config } from "../config/config.ts";
import { sharedRun } from "../domain/sharedRun.ts";

/** How long the tile server may take to answer, headers and body. */
export const FETCH_TIMEOUT_MS = 8_000;
/** A tile larger than this is not a map tile: refused, never kept. */
export const MAX_TILE_BYTES = 1 << 20;
/** Browsers (and the service worker) keep a tile a day. */
export const TILE_CACHE_CONTROL = "public, max-age=86400";

/** The app's name to the tile server: the same for every member, nothing of theirs. */
function tileUserAgent(): string {
  return `Lambda-map-tiles/1.0 (+${config.publicOrigin ?? "self-hosted"})`;
}

/** A validated tile address. */
export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

const DIGITS = /^\d{1,7}$/;

/** The tile address of the path's parts, or null: integers, 0 ≤ z ≤ TILE_MAX_ZOOM, 0 ≤ x, y < 2^z. */
function parseTile(z: string, x: string, y: string): TileAddress | null {
  if (![z, x, y].every((s) => DIGITS.test(s))) return null;
  const t = { z: Number(z), x: Number(x), y: Number(y) };
  if (t.z > TILE_MAX_ZOOM) return null;
  const n = 2 ** t.z;
  return t.x < n && t.y < n ? t : null;
}

/** The picture type of a tile by its first bytes (PNG, JPEG or WebP), or null when it is none. */
function tileType(b: Uint8Array): string | null {
  if (b.length > 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "image/png";
  if (b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "image/jpeg";
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length > 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

type Loaded = { bytes: Uint8Array; type: string };

/** The tile server's failures, as the member's browser gets them. */
const upstreamFailed = () => new ApiError(502, "bad_gateway", "The map tiles could not be loaded.");
const upstreamSlow = () => new ApiError(504, "gateway_timeout", "The map tiles took too long to load.");

let cache: TileCache | null = null;

/** The cache of the configured folder and bound (read each time: tests change them). */
function tileCache(): TileCache {
  const dir = config.tileCacheDir, max = Math.floor(config.tileCacheMb * 1024 * 1024);
  if (cache?.dir !== dir || cache.maxBytes !== max) cache = new TileCache(dir, max);
  return cache;
}

/** Reads at most `MAX_TILE_BYTES` of a body; null when it is larger. */
async function readCapped(res: Response): Promise<Uint8Array | null> {
  const reader = res.body?.getReader();
  if (!reader) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_TILE_BYTES) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  return joinChunks(parts, size);
}

/** Fetches a tile from the tile server and keeps it; throws the member's 404, 502 or 504. */
async function fetchTile(t: TileAddress, key: string, timeoutMs: number): Promise<Loaded> {
  const url = tileUrl(config.tileUrl, t.x, t.y, t.z, false);
  const signal = AbortSignal.timeout(timeoutMs);
  let bytes: Uint8Array | null;
  try {
    // Only these headers: no cookie, no forwarded address, nothing of the member.
    const res = await fetch(url, {
      headers: { "user-agent": tileUserAgent(), accept: "image/png,image/*;q=0.8" },
      signal,
      redirect: "follow",
    });
    if (!res.ok) {
      await res.body?.cancel();
      if (res.status === 404) throw notFound("No such tile.");
      throw upstreamFailed();
    }
    bytes = await readCapped(res);
  } catch (e) {
    if (e instanceof ApiError) throw e;
    if (signal.aborted) throw upstreamSlow();
    throw upstreamFailed();
  }
  const type = bytes && tileType(bytes);
  if (!bytes || !type) throw upstreamFailed();
  try {
    await tileCache().put(key, bytes);
  } catch (e) {
    // A full or read-only disk: the member still gets the tile.
    console.error(`tiles: could not keep ${key}:`, e);
  }
  return { bytes, type };
}

/** One fetch per tile at a time: concurrent requests for it wait on the same one. */
const inFlight = new Map<string, Promise<Loaded>>();

async function loadTile(t: TileAddress, timeoutMs: number): Promise<Loaded> {
  const key = `${t.z}/${t.x}/${t.y}`;
  const kept = await tileCache().get(key).catch(() => null);
  const keptType = kept && tileType(kept);
  if (kept && keptType) return { bytes: kept, type: keptType };
  return await sharedRun(inFlight, key, () => fetchTile(t, key, timeoutMs));
}

/** The tiles sub-app, mounted at /tiles; `fetchTimeoutMs` for tests. */
export function tileRoutes(opts: { fetchTimeoutMs?: number } = {}): Hono<AppEnv> {
  const timeoutMs = opts.fetchTimeoutMs ?? FETCH_TIMEOUT_MS;
  const app = new Hono<AppEnv>();
  app.get("/:z/:x/:y", async (c) => {
    requireCaller(c);
    const t = parseTile(c.req.param("z"), c.req.param("x"), c.req.param("y"));
    if (!t) {
      throw badRequest(`A tile is /tiles/{z}/{x}/{y}: whole numbers, z up to ${TILE_MAX_ZOOM}, x and y below 2^z.`);
    }
    if (!(await hit("tilesByAddress", clientAddress(c)))) throw tooMany();
    const tile = await loadTile(t, timeoutMs);
    return c.body(tile.bytes as Uint8Array<ArrayBuffer>, 200, {
      "content-type": tile.type,
      "cache-control": TILE_CACHE_CONTROL,
    });
  });
  app.all("*", () => {
    throw notFound("No such tile.");
  });
  // The API's error shape, and no browser keeps a failure.
  app.onError((err, c) => {
    const res = toErrorResponse(err, c);
    res.headers.set("cache-control", "no-store");
    return res;
  });
  return app;
}

export const tiles = tileRoutes();
