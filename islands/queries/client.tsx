/**
 * The islands' react-query client, shared by every island on a page and persisted to local
 * storage (spec §9: default cache 24 h).
 */

import {
  IsRestoringProvider,
  QueryCache,
  QueryClient,
  QueryClientProvider,
  type QueryKey,
  useQueryClient,
} from "@tanstack/react-query";
import { persistQueryClientRestore, persistQueryClientSubscribe } from "@tanstack/react-query-persist-client";
import { createSyncStoragePersister } from "@tanstack/query-sync-storage-persister";
import { type ReactNode, useEffect, useRef, useState } from "react";
import { ApiFailure, keepLocally } from "./api.ts";

/** Default cache lifetime: 24 hours. */
export const DEFAULT_CACHE_MS = 24 * 3_600_000;

let client: QueryClient | undefined;

function newClient(server: boolean): QueryClient {
  // Infinity on the server: no garbage-collection timer keeps a rendered page's cache alive.
  const gcTime = server ? Infinity : DEFAULT_CACHE_MS;
  return new QueryClient({
    queryCache: new QueryCache({ onError: server ? undefined : toSorryOnFailedNavigation }),
    defaultOptions: { queries: { gcTime, staleTime: 60_000, retry: 1 } },
  });
}

/**
 * Spec §8, "5xx on the raw fetch path routes to /sorry": a navigation-level load (a query with
 * `meta: NAVIGATION`) that fails with a 5xx before it ever had data leaves nothing to show.
 * A failed background refetch keeps what is shown (the header's server-trouble message says why).
 */
function toSorryOnFailedNavigation(error: Error, query: { meta?: Record<string, unknown>; state: { data: unknown } }) {
  if (!query.meta?.navigation || query.state.data !== undefined) return;
  if (error instanceof ApiFailure && error.status >= 500) location.assign("/sorry");
}

/**
 * The page's query client. On the server every call gets a new one: one process renders pages
 * for many members, and a shared cache would put one member's data into another's page.
 */
export function queryClient(): QueryClient {
  if (typeof document === "undefined") return newClient(true);
  client ??= newClient(false);
  return client;
}

/** Local storage, written only until the page wipes what the device keeps (api.ts `keepLocally`). */
export const keptStorage = typeof localStorage === "undefined" ? undefined : {
  getItem: (key: string) => localStorage.getItem(key),
  setItem: keepLocally,
  removeItem: (key: string) => localStorage.removeItem(key),
};

const persister = keptStorage && createSyncStoragePersister({ storage: keptStorage, key: "app-query-cache" });

let restored: Promise<void> | undefined;

/**
 * Restores the persisted cache into the page's client, once for the page, and then saves it on
 * every change, through one subscription. Every island wraps itself in a provider (QueryProvider);
 * each restoring (reading and parsing the whole stored cache) and subscribing (the whole cache
 * dehydrated again at every change, by each) was work repeated once per island at each load.
 */
function restoreOnce(qc: QueryClient): Promise<void> {
  if (!persister) return Promise.resolve();
  // The persisting package's types name an older query-core's client; the build ships one copy
  // (islands/build.ts ONE_COPY), so the client is the same class at run time.
  type Restored = Parameters<typeof persistQueryClientRestore>[0]["queryClient"];
  const options = { queryClient: qc as unknown as Restored, persister, maxAge: DEFAULT_CACHE_MS };
  // A stored cache that cannot be read is discarded by the restore, and the page goes on without it.
  return restored ??= persistQueryClientRestore(options).catch(() => {}).then(() => {
    persistQueryClientSubscribe(options);
  });
}

/**
 * Wraps an island's tree in the shared, persisted query client. Its queries wait for the page's
 * restore of the persisted cache (as `PersistQueryClientProvider` makes them), done once per page.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  const [qc] = useState(queryClient);
  const [isRestoring, setIsRestoring] = useState(true);
  useEffect(() => {
    let on = true;
    void restoreOnce(qc).then(() => on && setIsRestoring(false));
    return () => void (on = false);
  }, [qc]);
  return (
    <QueryClientProvider client={qc}>
      <IsRestoringProvider value={isRestoring}>{children}</IsRestoringProvider>
    </QueryClientProvider>
  );
}

/**
 * Puts the data the server rendered into the cache on an island's first render, so hydration
 * shows exactly what the server rendered even when the persisted cache (restored from local
 * storage, possibly before this island hydrates) holds older data for the key. Data written
 * since this page started loading (another island's change) is newer and is kept. Call it before
 * the query hook of the same key; the query then needs no `initialData`.
 */
export function useServerData<T>(key: QueryKey, data: T | undefined): void {
  const qc = useQueryClient();
  // Once per key: a component that shows another key later (the next picture) seeds that one too.
  const seeded = useRef<string | null>(null);
  const hash = JSON.stringify(key);
  if (seeded.current === hash || data === undefined) return;
  seeded.current = hash;
  const pageStart = typeof performance === "undefined" ? 0 : performance.timeOrigin;
  if ((qc.getQueryState(key)?.dataUpdatedAt ?? 0) < pageStart || qc.getQueryData(key) === undefined) {
    qc.setQueryData(key, data, { updatedAt: Date.now() });
  }
}
