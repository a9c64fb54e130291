/**
 * The islands' one way to call the API. It applies spec §8: a 401 (not from the login call), or a
 * call redirected to /login, logs a line, pauses location reporting, forces a logout on this
 * device (local data cleared, as Logout does) and goes to /login; a 5xx shows the server-trouble
 * header message for 10 seconds. A navigation-level load that fails with a 5xx goes to /sorry
 * (queries marked `meta: NAVIGATION`, see client.tsx).
 */

import type { ApiAnswer, ApiRoute } from "../../domain/contract.ts";
import { apiPath, type RouteParams } from "../../domain/apiPath.ts";
import { wipeOfflineCaches } from "../sw/register.ts";

/** A failed call: the status and the server's `{error: {code, message}}`. */
export class ApiFailure extends Error {
  constructor(readonly status: number, readonly statusText: string, readonly code: string, message: string) {
    super(message);
  }
}

/** The `meta` of a query that is a page's navigation-level load: a 5xx before any data goes to /sorry. */
export const NAVIGATION = { navigation: true } as const;

/**
 * This page wiped what the device keeps of the member (a logout, a session ended, the account
 * deleted): nothing of theirs is written to local storage again (`keepLocally`). A query that
 * settles after the wipe (the very call that answered 401, a refetch in flight), a queued message
 * or a location would otherwise be written back while the page goes to /login, or for as long as
 * the logout page stays open.
 */
let wiped = false;

/**
 * Keeps a value of the member's on this device (local storage; the tab's session storage when
 * `tab`), unless this page has wiped it.
 */
export function keepLocally(key: string, value: string, { tab = false }: { tab?: boolean } = {}): void {
  if (!wiped) (tab ? sessionStorage : localStorage).setItem(key, value);
}

/**
 * Forgets everything this device keeps of the member (spec §4: logout clears local storage), the
 * service worker's copies too.
 */
export function clearLocalData(): void {
  wiped = true;
  localStorage.clear();
  sessionStorage.clear();
  // Secret chats' keys and decrypted history (islands/secret/store.ts): this device leaves its chats.
  if ("indexedDB" in globalThis) indexedDB.deleteDatabase("lambda-secret");
  void wipeOfflineCaches().catch(() => {});
}

/** True once this page ends its own session (logout, account deletion), which goes where it says itself. */
let endingHere = false;

/**
 * This page is about to end its own session (logout, account deletion): the signs of its end that
 * follow (the live feed's, a 401) are its own doing, and `sessionEnded` leaves the page to it.
 * `false` when it did not end after all (a refused deletion).
 */
export function endingSessionHere(on = true): void {
  endingHere = on;
}

/**
 * The session ended (a 401, a redirect to /login, or the live feed's end for good because the
 * session was ended elsewhere): spec §8's forced logout on this device. Location reporting pauses,
 * everything kept of the member here is wiped (local storage with the persisted query cache, and
 * the service worker's private caches), and the page goes to /login.
 */
export function sessionEnded(why: string): void {
  if (endingHere) return;
  console.log(`${why}: logging out and going to login`);
  globalThis.dispatchEvent(new Event(EVENTS.pauseLocation));
  clearLocalData();
  location.assign("/login");
}

/** Window events the shell listens to. */
export const EVENTS = { serverTrouble: "app:server-trouble", pauseLocation: "app:pause-location" } as const;

export interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  json?: unknown;
  form?: FormData;
  /** Raw bytes, sent as application/octet-stream (a secret chat's encrypted picture). */
  bytes?: Uint8Array;
  /** The login call handles its own 401. */
  isLogin?: boolean;
  /** More request headers (an idempotency key). */
  headers?: Record<string, string>;
}

/**
 * The bytes of JSON writes in flight that are sent so that they outlive their page (`keepalive`):
 * browsers refuse such a request once those of a page would pass 64 KiB.
 */
export const OUTLIVES_PAGE_MAX_BYTES = 48 * 1024;
let outlivingBytes = 0;

/** Calls the API and returns the parsed JSON body; throws ApiFailure on a non-2xx answer. */
export async function api<T = unknown>(path: string, opts: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json", ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = opts.form;
  else if (opts.bytes) {
    headers["content-type"] = "application/octet-stream";
    body = opts.bytes as Uint8Array<ArrayBuffer>;
  }
  const method = opts.method ?? "GET";
  const init: RequestInit = { method, headers, body, credentials: "same-origin" };
  let res: Response;
  try {
    // A small write outlives its page: a like tapped just before the member leaves or reloads is
    // sent, not cancelled with the page. The browser refuses such a request past its cap on their
    // bytes in flight, so one that would pass it goes as an ordinary request.
    const size = method !== "GET" && typeof body === "string" ? new Blob([body]).size : Infinity;
    if (outlivingBytes + size <= OUTLIVES_PAGE_MAX_BYTES) {
      outlivingBytes += size;
      try {
        res = await fetch(path, { ...init, keepalive: true });
      } finally {
        outlivingBytes -= size;
      }
    } else res = await fetch(path, init);
  } catch (e) {
    globalThis.dispatchEvent(new Event(EVENTS.serverTrouble));
    throw new ApiFailure(0, "Network error", "network", e instanceof Error ? e.message : String(e));
  }
  const data = res.headers.get("content-type")?.includes("json") ? await res.json().catch(() => null) : null;
  if (res.ok) return data as T;
  const err = (data as { error?: { code?: string; message?: string } } | null)?.error;
  const toLogin = res.redirected && new URL(res.url).pathname === "/login";
  if ((res.status === 401 || toLogin) && !opts.isLogin) {
    sessionEnded(`${toLogin ? "redirect to /login" : "401"} from ${path}`);
  }
  if (res.status >= 500) globalThis.dispatchEvent(new Event(EVENTS.serverTrouble));
  throw new ApiFailure(res.status, res.statusText, err?.code ?? "error", err?.message ?? res.statusText);
}

type Method = NonNullable<CallOptions["method"]>;

/**
 * Calls a route of the API contract (domain/contract.ts) by its name: the URL is built from the
 * route and its parameters, and the answer is typed as the contract documents it. A renamed
 * route, a lost parameter or a changed answer fails the type check of the island that calls it.
 */
export function call<R extends ApiRoute>(
  route: R,
  params: RouteParams<R>,
  opts: Omit<CallOptions, "method"> & { query?: Record<string, string | number | undefined> } = {},
): Promise<ApiAnswer<R>> {
  const method = route.slice(0, route.indexOf(" ")) as Method;
  return api<ApiAnswer<R>>(apiPath(route, params, opts.query), { ...opts, method });
}
