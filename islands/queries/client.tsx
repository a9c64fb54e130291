/**
 * The islands' react-query client, shared by every island on a page and persisted to local
 * storage (spec §9: default cache 24 h).
 */

import { QueryClient } from "@tanstack/react-query";
import { PersistQueryClientProvider } from "@tanstack/react-query-persist-client";
import { createSyncStoragePersister } from "@tanstack/query-sync-storage-persister";
import type { ReactNode } from "react";

/** Default cache lifetime: 24 hours. */
export const DEFAULT_CACHE_MS = 24 * 3_600_000;

let client: QueryClient | undefined;

/** The page's query client. */
export function queryClient(): QueryClient {
  client ??= new QueryClient({
    defaultOptions: { queries: { gcTime: DEFAULT_CACHE_MS, staleTime: 60_000, retry: 1 } },
  });
  return client;
}

const persister = typeof localStorage === "undefined"
  ? undefined
  : createSyncStoragePersister({ storage: localStorage, key: "app-query-cache" });

const noopPersister = {
  persistClient: () => Promise.resolve(),
  restoreClient: () => Promise.resolve(undefined),
  removeClient: () => Promise.resolve(),
};

/** Wraps an island's tree in the shared, persisted query client. */
export function QueryProvider({ children }: { children: ReactNode }) {
  return (
    <PersistQueryClientProvider
      client={queryClient()}
      persistOptions={{ persister: persister ?? noopPersister, maxAge: DEFAULT_CACHE_MS }}
    >
      {children}
    </PersistQueryClientProvider>
  );
}
