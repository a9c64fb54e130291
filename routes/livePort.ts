/**
 * Where pages open their event socket: the live listener's port (routes/live.ts) while it listens,
 * else null (the main port). Read by the page renderer (a `<meta name="live-port">`) and the CSP.
 */

let listening: number | null = null;

export function livePort(): number | null {
  return listening;
}

export function setLivePort(port: number | null): void {
  listening = port;
}
