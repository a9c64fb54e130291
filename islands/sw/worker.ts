/**
 * The service worker (built by islands/build.ts into /static/sw.js, scope "/"): the app opens and
 * shows what it last saw without a connection, and push notifications.
 *
 * - The build's scripts and styles, icons and manifests are precached (workbox-precaching), so a
 *   new version installs in the background; it waits until the member chooses to reload
 *   (islands/sw/register.ts offers it), never swapped under a page.
 * - Pages and the few API reads shown offline (grid briefs, a conversation) are network first,
 *   kept in the signed-in member's private caches, named after the session's cache id that the
 *   server sends with each of its answers (`x-offline-cache`, routes/middleware.ts). A page answered
 *   without one (logged out, another session) wipes them; so does any 401, the page at logout and
 *   the page told its session ended elsewhere (islands/queries/events.ts).
 * - Each answer made for the session confirms it (its time kept in the meta cache). Offline, the
 *   private copies are shown only while the last confirmation is recent (domain/offline.ts,
 *   24 h): past it they are wiped and the plain offline page is shown, as the session may have
 *   ended elsewhere meanwhile.
 * - Pictures come cache first from a bounded cache (oldest out first), map tiles too; the tiles
 *   are wiped with the private caches, as the ones kept tell where their member looked.
 * - A screen never seen offline gets the member's cached offline page (or a plain one).
 */

import { cleanupOutdatedCaches, precacheAndRoute, type PrecacheEntry } from "workbox-precaching";
import { registerRoute } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import { ExpirationPlugin } from "workbox-expiration";
import { CacheableResponsePlugin } from "workbox-cacheable-response";
import { clientsClaim } from "workbox-core";
import {
  CACHE_ID_HEADER,
  isCachedRead,
  isKeptPage,
  isPicture,
  isTile,
  META_CACHE,
  OFFLINE_PATH,
  PICS_MAX_ENTRIES,
  PRIVATE_PREFIX,
  privateCacheNames,
  TILES_CACHE,
  TILES_MAX_ENTRIES,
  WORKER_MESSAGES,
} from "./caches.ts";
import { offlineCopiesUsable, parseConfirmedAt } from "../../domain/offline.ts";

/**
 * What this worker uses of its global scope, typed here: the app's type check runs with the DOM's
 * library (a worker's own library cannot share one check with the pages).
 */
interface Lasting extends Event {
  waitUntil(p: Promise<unknown>): void;
}
interface WindowClient {
  url: string;
  focus(): Promise<unknown>;
  navigate(url: string): Promise<unknown>;
  postMessage(message: unknown): void;
}
interface WorkerScope {
  location: Location;
  registration: ServiceWorkerRegistration;
  clients: {
    matchAll(o: { type: "window"; includeUncontrolled?: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<unknown>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: "message", f: (e: Lasting & { data: unknown; ports: readonly MessagePort[] }) => void): void;
  addEventListener(type: "activate", f: (e: Lasting) => void): void;
  addEventListener(type: "sync", f: (e: Lasting & { tag: string }) => void): void;
  addEventListener(type: "push", f: (e: Lasting & { data: { json(): unknown } | null }) => void): void;
  addEventListener(type: "notificationclick", f: (e: Lasting & { notification: Notification }) => void): void;
}
const sw = self as unknown as WorkerScope;
/** The build's files to precache, put here by islands/build.ts. */
declare const __PRECACHE__: PrecacheEntry[];

precacheAndRoute(__PRECACHE__);
cleanupOutdatedCaches();
// The first version takes the open pages at once (nothing to swap under them); later ones wait.
clientsClaim();

/** Where the app starts (the manifest's start_url), the conversation list, the map and the settings: kept as soon as a worker starts, so each opens offline as it was. */
const START_PAGES = ["/search/tile", "/chat/personal", "/search/map", "/settings"];

// Pages loaded before this worker took over, and the start pages, are fetched again and kept like
// the others (the member's session names their caches on the way).
sw.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const open = (await sw.clients.matchAll({ type: "window", includeUncontrolled: true })).map((c) => c.url);
    const urls = [...new Set([...open, ...START_PAGES.map((p) => new URL(p, sw.location.origin).href)])]
      .map((u) => new URL(u))
      .filter((u) => u.origin === sw.location.origin && isKeptPage(u.pathname));
    await Promise.all(
      urls.map((u) => pageFromNetwork(new Request(u.href, { credentials: "same-origin" })).catch(() => null)),
    );
  })());
});

// --- the session's cache id, kept across restarts of the worker

const MARKER_URL = "/__offline-cache-id";
let marker: string | null | undefined;

async function currentMarker(): Promise<string | null> {
  if (marker !== undefined) return marker;
  const res = await (await caches.open(META_CACHE)).match(MARKER_URL);
  marker = res ? await res.text() : null;
  return marker;
}

/** Deletes every private cache except those of `keep`. */
async function wipePrivate(keep: string | null): Promise<void> {
  const mine: string[] = keep ? Object.values(privateCacheNames(keep)) : [];
  const names = await caches.keys();
  await Promise.all(
    names.filter((n) => n.startsWith(PRIVATE_PREFIX) && !mine.includes(n)).map((n) => caches.delete(n)),
  );
  for (const [id, p] of [...pictureStrategies]) {
    if (id === keep) continue;
    pictureStrategies.delete(id);
    await p.expiration.deleteCacheAndMetadata(); // the pictures' dates too
  }
  for (const id of [...reads.keys()]) if (id !== keep) reads.delete(id);
  // The tiles are public, but which ones a device holds draws the streets around where its member
  // looked: a session that ends (or another that begins) leaves none behind.
  await tilesExpiration.deleteCacheAndMetadata();
}

// --- when an answer last confirmed the session (ms since the epoch), kept with the marker

const CONFIRMED_URL = "/__offline-confirmed";
/** A confirmation is written at most this often (each page and read confirms). */
const CONFIRM_EVERY_MS = 60_000;
/** When this worker last wrote a confirmation (it may have been restarted since: then 0). */
let confirmWrittenAt = 0;

/** When an answer last confirmed the session, as kept in the meta cache (read each time: it is the truth). */
async function lastConfirmed(): Promise<number | null> {
  const res = await (await caches.open(META_CACHE)).match(CONFIRMED_URL);
  return parseConfirmedAt(res ? await res.text() : null);
}

/** An answer was made for the session whose caches these are: it is still signed in. */
async function confirm(id: string): Promise<void> {
  await adopting;
  if (id !== await currentMarker()) return;
  const at = Date.now();
  if (at - confirmWrittenAt >= 0 && at - confirmWrittenAt < CONFIRM_EVERY_MS) return;
  confirmWrittenAt = at;
  await (await caches.open(META_CACHE)).put(CONFIRMED_URL, new Response(String(at)));
}

/**
 * May the private copies be shown now (no connection)? Only while the session was confirmed
 * recently; past it they are wiped, and nothing private is shown.
 */
async function copiesUsable(): Promise<boolean> {
  if (!(await currentMarker())) return false;
  if (offlineCopiesUsable(await lastConfirmed(), Date.now())) return true;
  await adopt(null);
  return false;
}

/** Reads the answers of the API through the worker: a 401 says the session ended, an answer for it confirms it. */
const sessionSigns = {
  fetchDidSucceed: async ({ response }: { response: Response }) => {
    if (response.status === 401) await adopt(null);
    else if (response.ok) {
      const id = response.headers.get(CACHE_ID_HEADER);
      if (id) await confirm(id);
    }
    return response;
  },
  cachedResponseWillBeUsed: async ({ cachedResponse }: { cachedResponse?: Response }) =>
    cachedResponse && await copiesUsable() ? cachedResponse : null,
};

let adopting = Promise.resolve();

/** Takes the cache id an answer came with: a change wipes the other session's caches. One at a time. */
function adopt(next: string | null): Promise<void> {
  adopting = adopting.then(async () => {
    if (await currentMarker() === next) return;
    marker = next;
    const meta = await caches.open(META_CACHE);
    if (next) await meta.put(MARKER_URL, new Response(next));
    else await meta.delete(MARKER_URL);
    // A new session (or none) has confirmed nothing yet; the answer that named it confirms it.
    confirmWrittenAt = 0;
    await meta.delete(CONFIRMED_URL);
    await wipePrivate(next);
    if (next) {
      // The member's own "this screen needs a connection" page, in their language and mode.
      const page = await fetch(OFFLINE_PATH, { credentials: "same-origin" }).catch(() => null);
      if (page?.ok && page.headers.get(CACHE_ID_HEADER) === next) {
        await (await caches.open(privateCacheNames(next).pages)).put(OFFLINE_PATH, page);
      }
    }
  }).catch(() => {});
  return adopting;
}

/** Keeps only 200 answers made for the session this worker keeps caches for. */
const forThisSession = {
  cacheWillUpdate: async ({ response }: { response: Response }) =>
    response.status === 200 && response.headers.get(CACHE_ID_HEADER) === await currentMarker() ? response : null,
};

function plainOffline(): Response {
  return new Response(
    `<!doctype html><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<meta name="color-scheme" content="light dark">` +
      `<title>Offline</title><body style="font-family:system-ui;padding:2rem">` +
      `<p>You are offline. This screen needs a connection.</p><p><a href="/search/tile">⟳</a></p>`,
    { status: 503, headers: { "content-type": "text/html; charset=utf-8" } },
  );
}

// --- pages: network first; a page of the app answered for a member is kept in their cache

/**
 * Fetches a page. A page answered for a member names their session's caches (a change wipes the
 * others) and is kept; a page answered for nobody (logged out) wipes them all.
 */
async function pageFromNetwork(request: Request): Promise<Response> {
  const res = await fetch(request);
  if (res.status === 401) await adopt(null);
  if (!res.ok || !res.headers.get("content-type")?.includes("text/html")) return res;
  const id = res.headers.get(CACHE_ID_HEADER);
  const path = new URL(res.url || request.url).pathname;
  const copy = id && !res.redirected && isKeptPage(path) ? res.clone() : null;
  await adopt(id);
  if (id) await confirm(id);
  if (copy && id === await currentMarker()) {
    await (await caches.open(privateCacheNames(id!).pages)).put(request.url, copy);
  }
  return res;
}

registerRoute(
  ({ request, url }) => request.mode === "navigate" && url.origin === sw.location.origin,
  async ({ request }) => {
    try {
      return await pageFromNetwork(request);
    } catch { /* no connection: what was kept, if the session was confirmed lately */ }
    const id = await currentMarker();
    if (!id || !(await copiesUsable())) return plainOffline();
    const pages = await caches.open(privateCacheNames(id).pages);
    return (await pages.match(request.url)) ?? (await pages.match(OFFLINE_PATH)) ?? plainOffline();
  },
);

// --- the API reads shown offline: network first, the member's cache when there is no answer

const reads = new Map<string, NetworkFirst>();
registerRoute(
  ({ request, url }) => request.method === "GET" && url.origin === sw.location.origin && isCachedRead(url.pathname),
  async (opts) => {
    const id = await currentMarker();
    if (!id) return fetch(opts.request);
    let s = reads.get(id);
    if (!s) {
      s = new NetworkFirst({
        cacheName: privateCacheNames(id).api,
        networkTimeoutSeconds: 6,
        plugins: [forThisSession, sessionSigns],
      });
      reads.set(id, s);
    }
    return s.handle(opts);
  },
);

// --- pictures: cache first, size-bounded; a member's pictures in their private cache

const pictureStrategies = new Map<string, { strategy: CacheFirst; expiration: ExpirationPlugin }>();
registerRoute(
  ({ request, url }) => request.method === "GET" && url.origin === sw.location.origin && isPicture(url.pathname),
  async (opts) => {
    const id = await currentMarker();
    if (!id) return fetch(opts.request);
    let p = pictureStrategies.get(id);
    if (!p) {
      const expiration = new ExpirationPlugin({
        maxEntries: PICS_MAX_ENTRIES,
        maxAgeSeconds: 7 * 86_400,
        purgeOnQuotaError: true,
      });
      const strategy = new CacheFirst({
        cacheName: privateCacheNames(id).pictures,
        plugins: [new CacheableResponsePlugin({ statuses: [200] }), expiration, sessionSigns],
      });
      pictureStrategies.set(id, p = { strategy, expiration });
    }
    return p.strategy.handle(opts);
  },
);

/** The tiles' bounds; wiped with a member's private caches (`wipePrivate`). */
const tilesExpiration = new ExpirationPlugin({
  maxEntries: TILES_MAX_ENTRIES,
  maxAgeSeconds: 30 * 86_400,
  purgeOnQuotaError: true,
});

registerRoute(
  ({ request, url }) => request.method === "GET" && url.origin === sw.location.origin && isTile(url.pathname),
  new CacheFirst({
    cacheName: TILES_CACHE,
    plugins: [new CacheableResponsePlugin({ statuses: [200] }), tilesExpiration],
  }),
);

// --- messages from the pages

sw.addEventListener("message", (event) => {
  const type = (event.data as { type?: string } | null)?.type;
  if (type === WORKER_MESSAGES.skipWaiting) void sw.skipWaiting();
  if (type === WORKER_MESSAGES.logout) event.waitUntil(adopt(null));
});

// Background Sync: the queue of writes lives with the pages (islands/queries/outbox.ts); an open page sends it.
sw.addEventListener("sync", (event) => {
  if (event.tag !== WORKER_MESSAGES.flushOutbox) return;
  event.waitUntil((async () => {
    for (const c of await sw.clients.matchAll({ type: "window" })) c.postMessage({ type: WORKER_MESSAGES.flushOutbox });
  })());
});

// --- push notifications (workers/push.ts sends them)

/** What a push shows when its payload cannot be read: discreet, it may be on a lock screen. */
const PUSH_DEFAULT = {
  title: "Notes",
  body: "You have a new note.",
  url: "/notifications",
  icon: "/static/icons/neutral-192.png",
};

sw.addEventListener("push", (event) => {
  let data: { title: string; body: string; url: string; icon: string; tag?: string } = PUSH_DEFAULT;
  try {
    data = { ...data, ...event.data?.json() as Partial<typeof data> };
  } catch { /* keep the discreet default */ }
  const icon = sameOriginPath(data.icon) ?? PUSH_DEFAULT.icon;
  event.waitUntil(
    sw.registration.showNotification(data.title, {
      body: data.body,
      data: { url: data.url },
      icon,
      badge: icon,
      // One notification per tag on the device: a conversation's later push replaces its earlier one.
      ...(data.tag ? { tag: String(data.tag), renotify: true } : {}),
    } as NotificationOptions),
  );
});

/** `path` when it is a path of this origin, else null. */
function sameOriginPath(path: unknown): string | null {
  if (typeof path !== "string") return null;
  const url = new URL(path, sw.location.origin);
  return url.origin === sw.location.origin ? url.pathname + url.search + url.hash : null;
}

/**
 * Opens what a tapped notification is about: in a tab of the app already open (the one showing
 * it, else any), brought to the front, rather than another tab; a new one only when none is open.
 */
async function openFromNotification(target: string): Promise<unknown> {
  const url = new URL(sameOriginPath(target) ?? "/notifications", sw.location.origin);
  const wins = (await sw.clients.matchAll({ type: "window", includeUncontrolled: true }))
    .filter((w) => new URL(w.url).origin === url.origin);
  const win = wins.find((w) => w.url === url.href) ?? wins[0];
  if (!win) return sw.clients.openWindow(url.href);
  const shown = win.url === url.href ? win : (await win.navigate(url.href)) ?? win;
  // Focus is the browser's to allow (a tap allows it); the tab shows the right screen either way.
  return (shown as WindowClient).focus().catch(() => shown);
}

sw.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const opening = openFromNotification(event.notification.data?.url ?? "/notifications");
  try {
    event.waitUntil(opening);
  } catch { /* an event not sent by the browser cannot be waited on; the opening runs all the same */ }
});
