/**
 * A package loaded at its first use rather than with the app: pictures (sharp), push (web-push),
 * mail (nodemailer), the countries' borders (country-coder), passwords (argon2), passkeys
 * (@simplewebauthn/server), exports (fflate), secret chats' key packages (ts-mls), the separate
 * socket listener (ws) and the metrics' registry (prom-client) are what most processes never need
 * at start. An instance's start, and every
 * test process's, would otherwise load and compile them before its first request
 * (tests/start_packages_test.ts holds main.ts to it; decision 0243).
 */

import { AsyncLocalStorage } from "node:async_hooks";

/**
 * The async context of no request: the one this module loads in. A module first loaded by an
 * `import()` started inside a request's context leaves that context behind (Deno 2.9): every later
 * piece of work outside a request (a worker's push or mail, a timer) read that request's language
 * (routes/middleware.ts keeps it in an AsyncLocalStorage) instead of its own.
 */
const outsideRequests = AsyncLocalStorage.snapshot();

/** A module loaded once, at its first `load()`; `now()` has it without waiting once it is loaded. */
export interface FirstUse<T> {
  /** The module: loaded at the first call (outside any request's context), the same promise for every caller meanwhile. */
  load(): Promise<T>;
  /** The module if it is loaded already, else undefined (a hot path's way to skip the await). */
  now(): T | undefined;
}

/**
 * `importer` (a function that calls `import("pkg")`) run at the first `load()`, not before. Callers
 * that come while it loads wait for the same load; a load that failed is tried again at the next
 * call rather than failing every later one.
 */
export function firstUse<T>(importer: () => Promise<T>): FirstUse<T> {
  let loading: Promise<T> | undefined;
  let loaded: T | undefined;
  return {
    load() {
      if (loaded !== undefined) return Promise.resolve(loaded);
      loading ??= outsideRequests(importer).then(
        (m) => loaded = m,
        (e) => {
          loading = undefined;
          throw e;
        },
      );
      return loading;
    },
    now: () => loaded,
  };
}
