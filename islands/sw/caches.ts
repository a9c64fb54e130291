/**
 * What the service worker (islands/sw/worker.ts) keeps, and under which names: shared by the
 * worker and the pages (which wipe the member's caches at logout, islands/sw/register.ts).
 */

/** The answer header naming the session's private caches (routes/middleware.ts): not the session itself. */
export const CACHE_ID_HEADER = "x-offline-cache";

/** Every private cache's name starts with this: the pages delete them all at logout. */
export const PRIVATE_PREFIX = "lambda-private-";

/** Where the worker keeps which session its private caches belong to (no private data). */
export const META_CACHE = "lambda-meta";

/** Map tiles: public, but wiped with a member's private caches (the tiles kept tell where they looked). */
export const TILES_CACHE = "lambda-tiles";

/** The page shown for a screen that needs the network (routes/pages/offline.tsx). */
export const OFFLINE_PATH = "/offline";

/** Pictures kept at most (oldest out first): a few screens of the grid and the open conversations. */
export const PICS_MAX_ENTRIES = 300;
/** Map tiles kept at most: about the streets around a few places at a few zooms. */
export const TILES_MAX_ENTRIES = 500;

/** What the pages and the worker tell each other. */
export const WORKER_MESSAGES = {
  /** A page asks the waiting version to take over (the member chose to reload). */
  skipWaiting: "skip-waiting",
  /** A page wipes the member's caches (logout, a forced logout). */
  logout: "logout",
  /** Background Sync's tag, and the worker's message telling the pages to send their queue. */
  flushOutbox: "flush-outbox",
} as const;

/** The names of one session's private caches. */
export function privateCacheNames(id: string): { pages: string; api: string; pictures: string } {
  const safe = id.replace(/[^0-9a-f]/gi, "");
  return {
    pages: `${PRIVATE_PREFIX}pages-${safe}`,
    api: `${PRIVATE_PREFIX}api-${safe}`,
    pictures: `${PRIVATE_PREFIX}pictures-${safe}`,
  };
}

/**
 * The API reads kept for offline: the grid's briefs, the map's view and the messages of a conversation. Every
 * other answer of the API goes to the network only.
 */
export function isCachedRead(path: string): boolean {
  return /^\/api\/profile-briefs\/(nearest|by-bounds|map|by-sector\/[^/]+)$/.test(path) ||
    /^\/api\/messages\/(most-recent-with\/[^/]+|between\/[^/]+\/[^/]+)$/.test(path);
}

/** A profile picture (domain/format.ts profilePicUrl). */
export function isPicture(path: string): boolean {
  return path.startsWith("/api/profile-pic/");
}

/** A map tile the app serves (/tiles/{z}/{x}/{y}). */
export function isTile(path: string): boolean {
  return /^\/tiles\/\d+\/\d+\/\d+(\.\w+)?$/.test(path);
}

/**
 * Pages never kept: signing in and out, the admin's screens, the development outbox, metrics,
 * and the offline page itself (kept apart, under its own name).
 */
export function isKeptPage(path: string): boolean {
  return !/^\/(login|logout|register|auth|admin|dev|metrics|api)(\/|$)/.test(path);
}
