/**
 * One build of the islands shared by every test file and every test process that wants one: the
 * e2e harness, the page tests. It is kept under the temp directory, keyed by a hash of what goes
 * into it (the sources the bundles are made of, the lock file, the commit the build names, the
 * build's options), so a run builds it once and later runs reuse it until a source changes.
 * A build is written in a directory of its own and renamed into place when complete: a process
 * never sees half a build, and two processes building the same key at once both end with one.
 */

import { backendVersion } from "../config/version.ts";

const root = new URL("..", import.meta.url).pathname;

/** What the bundles can import (see the layer table in README.md), and the files that shape the build. */
const SOURCE_DIRS = ["islands", "components", "domain", "config", "kv", "images", "static"];
const SOURCE_FILES = ["deno.json", "deno.lock"];
/** Never hashed: the checkout's own build output and test files, which no bundle imports. */
const SKIPPED = /(^static\/build\/|_test\.ts$)/;

/** Where shared builds are kept: `<tmp>/lambda-test-builds/<key>`. */
export function buildCacheRoot(): string {
  return `${Deno.env.get("TMPDIR") ?? "/tmp"}/lambda-test-builds`;
}

/** The key of the build the checkout would make now with these options. */
export async function buildKey(opts: { minify: boolean }): Promise<string> {
  const files: string[] = [...SOURCE_FILES];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(`${root}${dir}`)) {
      const rel = `${dir}/${e.name}`;
      if (SKIPPED.test(rel) || SKIPPED.test(`${rel}/`)) continue;
      if (e.isDirectory) walk(rel);
      else if (e.isFile) files.push(rel);
    }
  };
  for (const d of SOURCE_DIRS) walk(d);
  files.sort();
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [
    enc.encode(
      JSON.stringify({
        minify: opts.minify,
        reactDev: Deno.env.get("REACT_DEV") === "1",
        commit: backendVersion(),
      }),
    ),
  ];
  for (const f of files) {
    parts.push(enc.encode(`\0${f}\0`), await Deno.readFile(`${root}${f}`).catch(() => new Uint8Array()));
  }
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) all.set(p, at), at += p.length;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(digest.slice(0, 10), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The key of the shared build, by its options, computed once per process: the sources do not
 * change while a test process runs, and hashing them (about 450 files) took about 20 ms of CPU at
 * each browser test's start.
 */
const keys = new Map<string, Promise<string>>();

/**
 * The shared build for the current sources: made if missing, then BUILD_DIR names it (for this
 * process: the server reads it from there). Returns its directory. Minified unless E2E_MINIFY=0.
 */
export async function sharedBuild(): Promise<string> {
  const minify = Deno.env.get("E2E_MINIFY") !== "0";
  const options = JSON.stringify({ minify, reactDev: Deno.env.get("REACT_DEV") === "1" });
  if (!keys.has(options)) keys.set(options, buildKey({ minify }));
  const dir = `${buildCacheRoot()}/${minify ? "" : "dev-"}${await keys.get(options)}`;
  if (!await exists(`${dir}/manifest.json`)) {
    await Deno.mkdir(buildCacheRoot(), { recursive: true });
    const temp = await Deno.makeTempDir({ dir: buildCacheRoot(), prefix: "building-" });
    Deno.env.set("BUILD_DIR", temp);
    try {
      // The build (esbuild and its plugins) is loaded only by the process that makes one.
      const { build } = await import("../islands/build.ts");
      await build({ minify });
      await Deno.rename(temp, dir).catch(async (e) => {
        // Another process finished the same build first: its copy is as good as this one.
        if (!await exists(`${dir}/manifest.json`)) throw e;
      });
    } finally {
      await Deno.remove(temp, { recursive: true }).catch(() => {});
    }
    await pruneOldBuilds(dir);
  }
  // Used now: kept from pruning for another two days.
  await Deno.utime(dir, new Date(), new Date()).catch(() => {});
  Deno.env.set("BUILD_DIR", dir);
  return dir;
}

/**
 * A private copy of the shared build, for a test that changes the build's files (a new service
 * worker, as a deploy would): BUILD_DIR names the copy until `restore` is called.
 */
export async function privateBuild(): Promise<{ dir: string; restore(): Promise<void> }> {
  const shared = await sharedBuild();
  const dir = await Deno.makeTempDir({ prefix: "e2e-own-build-" });
  const cp = await new Deno.Command("cp", { args: ["-a", `${shared}/.`, dir] }).output();
  if (!cp.success) throw new Error(`copying the build failed: ${new TextDecoder().decode(cp.stderr)}`);
  Deno.env.set("BUILD_DIR", dir);
  return {
    dir,
    async restore() {
      Deno.env.set("BUILD_DIR", shared);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    },
  };
}

/** Builds not used for two days (other checkouts', older sources') are removed. */
async function pruneOldBuilds(keep: string): Promise<void> {
  const old = Date.now() - 2 * 24 * 3600_000;
  for await (const e of Deno.readDir(buildCacheRoot())) {
    const path = `${buildCacheRoot()}/${e.name}`;
    if (path === keep) continue;
    const st = await Deno.stat(path).catch(() => null);
    if (st?.mtime && st.mtime.getTime() < old) await Deno.remove(path, { recursive: true }).catch(() => {});
  }
}

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}
