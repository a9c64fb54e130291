/**
 * The islands' one way to call the API. It applies spec §8: a 401 (not from the login call)
 * logs a line, pauses location reporting and goes to /login; a 5xx shows the server-trouble
 * header message for 10 seconds.
 */

/** A failed call: the status and the server's `{error: {code, message}}`. */
export class ApiFailure extends Error {
  constructor(readonly status: number, readonly statusText: string, readonly code: string, message: string) {
    super(message);
  }
}

/** Window events the shell listens to. */
export const EVENTS = { serverTrouble: "app:server-trouble", pauseLocation: "app:pause-location" } as const;

export interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  json?: unknown;
  form?: FormData;
  /** The login call handles its own 401. */
  isLogin?: boolean;
}

/** Calls the API and returns the parsed JSON body; throws ApiFailure on a non-2xx answer. */
export async function api<T = unknown>(path: string, opts: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.form) body = opts.form;
  let res: Response;
  try {
    res = await fetch(path, { method: opts.method ?? "GET", headers, body, credentials: "same-origin" });
  } catch (e) {
    globalThis.dispatchEvent(new Event(EVENTS.serverTrouble));
    throw new ApiFailure(0, "Network error", "network", e instanceof Error ? e.message : String(e));
  }
  const data = res.headers.get("content-type")?.includes("json") ? await res.json().catch(() => null) : null;
  if (res.ok) return data as T;
  const err = (data as { error?: { code?: string; message?: string } } | null)?.error;
  if (res.status === 401 && !opts.isLogin) {
    console.log(`401 from ${path}: going to login`);
    globalThis.dispatchEvent(new Event(EVENTS.pauseLocation));
    location.assign("/login");
  }
  if (res.status >= 500) globalThis.dispatchEvent(new Event(EVENTS.serverTrouble));
  throw new ApiFailure(res.status, res.statusText, err?.code ?? "error", err?.message ?? res.statusText);
}
