/**
 * Builds the islands: one esbuild entry per islands/<Name>.tsx (ESM, code splitting, hashed
 * names, minified) plus static/app.css, into static/build/ with a manifest.json the server reads.
 * An island with an islands/<Name>.enhance.ts beside it is enhanced, not hydrated: its entry runs
 * that script (no React) on the server-rendered HTML (islands/enhance.ts).
 * Run: `deno task build`.
 */

import * as esbuild from "esbuild";
import { backendVersion } from "../config/version.ts";

const root = new URL("..", import.meta.url).pathname;
/**
 * Where bundles are written and served from: static/build, or BUILD_DIR (tests give each process
 * its own, so parallel test runs never serve each other's half-written chunks).
 */
export function buildDir(): string {
  return (Deno.env.get("BUILD_DIR") ?? `${root}static/build`).replace(/\/$/, "");
}

/** What the server needs to load one island: its script, the chunks it imports, its css. */
export interface IslandAssets {
  js: string;
  preload: string[];
  css: string[];
}

/** The build manifest. */
export interface Manifest {
  islands: Record<string, IslandAssets>;
  css: string;
}

/** Island names: every islands/*.tsx file whose name starts with a capital letter. */
export function islandNames(): string[] {
  return [...Deno.readDirSync(`${root}islands`)]
    .filter((e) => e.isFile && /^[A-Z]\w*\.tsx$/.test(e.name))
    .map((e) => e.name.replace(/\.tsx$/, ""))
    .sort();
}

/** Is the island enhanced by a script of its own (islands/<Name>.enhance.ts) rather than hydrated by React? */
export function isEnhanced(name: string): boolean {
  try {
    return Deno.statSync(`${root}islands/${name}.enhance.ts`).isFile;
  } catch {
    return false;
  }
}

/** Builds everything into static/build and returns the manifest. */
export async function build(opts: { minify?: boolean } = {}): Promise<Manifest> {
  const names = islandNames();
  const outdir = buildDir();
  await Deno.remove(outdir, { recursive: true }).catch(() => {});
  await Deno.mkdir(outdir, { recursive: true });
  const virtual: esbuild.Plugin = {
    name: "island-entries",
    setup(b) {
      b.onResolve({ filter: /^island:/ }, (a) => ({ path: a.path.slice(7), namespace: "island" }));
      b.onLoad({ filter: /.*/, namespace: "island" }, (a) => ({
        contents: isEnhanced(a.path)
          ? `import E from "./islands/${a.path}.enhance.ts";\n` +
            `import { enhanceIslands } from "./islands/enhance.ts";\nenhanceIslands(${JSON.stringify(a.path)}, E);\n`
          : `import C from "./islands/${a.path}.tsx";\n` +
            `import { hydrateIslands } from "./islands/client.ts";\nhydrateIslands(${JSON.stringify(a.path)}, C);\n`,
        resolveDir: root,
        loader: "ts",
      }));
    },
  };
  const result = await esbuild.build({
    entryPoints: [...names.map((n) => ({ in: `island:${n}`, out: n })), { in: `${root}static/app.css`, out: "app" }],
    bundle: true,
    splitting: true,
    format: "esm",
    outdir,
    entryNames: "[name]-[hash]",
    chunkNames: "chunks/[name]-[hash]",
    assetNames: "assets/[name]-[hash]",
    minify: opts.minify ?? true,
    sourcemap: false,
    metafile: true,
    jsx: "automatic",
    target: ["es2022", "chrome110", "firefox115", "safari16"],
    define: { "process.env.NODE_ENV": Deno.env.get("REACT_DEV") === "1" ? '"development"' : '"production"' },
    loader: { ".png": "file", ".svg": "file" },
    plugins: [virtual],
    logLevel: "warning",
  });
  await esbuild.stop();
  // esbuild's metafile names outputs relative to the working directory.
  const url = (p: string) =>
    "/static/build/" +
    new URL(p, `file://${Deno.cwd()}/`).pathname.slice(new URL(`file://${outdir}`).pathname.length + 1);
  const outputs = result.metafile.outputs;
  const manifest: Manifest = { islands: {}, css: "" };
  const chunkClosure = (file: string, seen = new Set<string>()): Set<string> => {
    for (const imp of outputs[file]?.imports ?? []) {
      if (imp.kind === "import-statement" && !seen.has(imp.path)) {
        seen.add(imp.path);
        chunkClosure(imp.path, seen);
      }
    }
    return seen;
  };
  for (const [file, out] of Object.entries(outputs)) {
    const entry = out.entryPoint ?? "";
    if (entry.startsWith("island:")) {
      const name = entry.slice(7);
      const chunks = [...chunkClosure(file)];
      const css = [out.cssBundle, ...chunks.map((c) => outputs[c]?.cssBundle)].filter((x): x is string => !!x);
      manifest.islands[name] = {
        js: url(file),
        preload: chunks.filter((c) => c.endsWith(".js")).map(url),
        css: css.map(url),
      };
    } else if (entry.endsWith("static/app.css")) {
      manifest.css = url(file);
    }
  }
  await Deno.writeTextFile(`${outdir}/manifest.json`, JSON.stringify(manifest, null, 2));
  await Deno.writeTextFile(`${outdir}/version_frontend.json`, JSON.stringify(backendVersion()));
  return manifest;
}

if (import.meta.main) {
  const t = performance.now();
  const m = await build();
  console.log(`built ${Object.keys(m.islands).length} islands in ${(performance.now() - t).toFixed(0)} ms`);
}
