/**
 * What the islands' build (islands/build.ts) leaves for the server to serve: where it is, its
 * manifest's shape and its files' names. Apart from the build so that the server, which only reads
 * them, does not load esbuild and the build's plugins at every start.
 */

const root = new URL("..", import.meta.url).pathname;

/**
 * Where bundles are written and served from: static/build, or BUILD_DIR (tests give each process
 * its own, so parallel test runs never serve each other's half-written chunks).
 */
export function buildDir(): string {
  return (Deno.env.get("BUILD_DIR") ?? `${root}static/build`).replace(/\/$/, "");
}

/** The suffix of a script's or stylesheet's Brotli copy, written by the build (routes/assets.ts answers it). */
export const PRECOMPRESSED_BR = ".br";

/** What the server needs to load one island: its script, the chunks it imports, its css. */
export interface IslandAssets {
  js: string;
  preload: string[];
  css: string[];
  /** It reads a catalogue: a page in another language than English loads that translation. */
  translated?: boolean;
  /** Enhanced (islands/<Name>.enhance.ts), not hydrated: a small script without React. */
  enhanced?: boolean;
}

/** The build manifest. */
export interface Manifest {
  islands: Record<string, IslandAssets>;
  css: string;
  /** Each translation's chunk (and the chunks it imports), by language: a page in that language preloads it. */
  locales?: Record<string, { js: string; preload: string[] }>;
}

/** The name of the service worker in the build; served at /static/sw.js with scope "/" (routes/assets.ts). */
export const SERVICE_WORKER_FILE = "sw.js";
