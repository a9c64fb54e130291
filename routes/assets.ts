/**
 * Static files: built bundles under /static/build/ have hashed names and are cached forever;
 * other files under /static/ are revalidated. Also GET /version_frontend.json.
 */

import { Hono } from "hono";
import type { AppEnv } from "./env.ts";
import { buildDir, type Manifest, PRECOMPRESSED_BR, SERVICE_WORKER_FILE } from "../islands/buildOutput.ts";
import { backendVersion } from "../config/version.ts";

const root = new URL("../static/", import.meta.url).pathname;

const TYPES: Record<string, string> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json",
  png: "image/png",
  svg: "image/svg+xml",
  ico: "image/x-icon",
  webmanifest: "application/manifest+json",
  txt: "text/plain; charset=utf-8",
};

/** Types worth compressing (not pictures: PNG is compressed already). */
const COMPRESSIBLE = new Set(["js", "css", "svg", "json", "webmanifest", "txt"]);

let manifest: Manifest | null | undefined;

/** The build manifest, or an empty one when the islands are not built (pages then ship no JS). */
export function getManifest(): Manifest {
  if (manifest === undefined || manifest === null) {
    try {
      manifest = JSON.parse(Deno.readTextFileSync(`${buildDir()}/manifest.json`)) as Manifest;
    } catch {
      return { islands: {}, css: "" };
    }
  }
  return manifest;
}

/** Forgets the cached manifest (after a rebuild). */
export function reloadManifest(): void {
  manifest = undefined;
}

export const assets = new Hono<AppEnv>()
  .get("/version_frontend.json", async (c) => {
    try {
      return c.json(JSON.parse(await Deno.readTextFile(`${buildDir()}/version_frontend.json`)));
    } catch {
      return c.json(backendVersion());
    }
  })
  .get("/static/*", async (c) => {
    const rel = decodeURIComponent(c.req.path.slice("/static/".length));
    if (rel.split("/").some((s) => s === ".." || s.startsWith("."))) return c.notFound();
    const ext = rel.split(".").pop() ?? "";
    const type = TYPES[ext];
    if (!type || rel.endsWith(".ts") || rel.endsWith(".tsx")) return c.notFound();
    // The service worker is built with the bundles (its precache list is theirs) but served at a
    // stable address, for the whole site.
    const path = rel === "sw.js"
      ? `${buildDir()}/${SERVICE_WORKER_FILE}`
      : rel.startsWith("build/")
      ? buildDir() + rel.slice(5)
      : root + rel;
    const hashed = rel.startsWith("build/") && /-[A-Z0-9]{8}\.\w+$/.test(rel);
    c.header("content-type", type);
    c.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "public, max-age=300");
    if (rel === "sw.js") {
      c.header("service-worker-allowed", "/");
      c.header("cache-control", "no-cache");
    }
    if (hashed && COMPRESSIBLE.has(ext)) {
      const bundle = await hashedBundle(path);
      if (!bundle) return c.notFound();
      c.header("vary", "Accept-Encoding");
      const accepted = c.req.header("accept-encoding") ?? "";
      if (bundle.br && acceptsEncoding(accepted, "br")) {
        c.header("content-encoding", "br");
        return c.body(bundle.br as Uint8Array<ArrayBuffer>);
      }
      if (!acceptsEncoding(accepted, "gzip")) return c.body(bundle.raw as Uint8Array<ArrayBuffer>);
      c.header("content-encoding", "gzip");
      return c.body(bundle.gzip as Uint8Array<ArrayBuffer>);
    }
    let body: Uint8Array;
    try {
      body = await Deno.readFile(path);
    } catch {
      return c.notFound();
    }
    return c.body(body as Uint8Array<ArrayBuffer>);
  });

/**
 * A built bundle with a hashed name never changes: read and compressed once, then kept (the
 * bundles of a build are about 1 MB, 400 KB compressed). A page's 24 scripts are then answered
 * without reading a file or running a compression stream each. The build wrote each script and
 * stylesheet as Brotli too (islands/build.ts), kept beside it when it is there.
 */
const bundles = new Map<string, Promise<Bundle | null>>();

interface Bundle {
  raw: Uint8Array;
  gzip: Uint8Array;
  br: Uint8Array | null;
}

function hashedBundle(path: string): Promise<Bundle | null> {
  let b = bundles.get(path);
  if (!b) {
    b = (async () => {
      try {
        const raw = await Deno.readFile(path);
        const gzip = new Uint8Array(
          await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
        );
        const br = await Deno.readFile(`${path}${PRECOMPRESSED_BR}`).catch(() => null);
        return { raw, gzip, br };
      } catch {
        bundles.delete(path); // not there (yet): asked again next time
        return null;
      }
    })();
    bundles.set(path, b);
  }
  return b;
}

/** Does an Accept-Encoding header take `coding` (named, or `*`, and not with q=0)? */
export function acceptsEncoding(header: string, coding: string): boolean {
  let star = false;
  for (const part of header.toLowerCase().split(",")) {
    const [name, ...params] = part.split(";").map((x) => x.trim());
    const q = params.find((p) => p.startsWith("q="));
    const ok = !q || Number(q.slice(2)) > 0;
    if (name === coding) return ok;
    if (name === "*") star = ok;
  }
  return star;
}
