/**
 * Builds the islands: one esbuild entry per islands/<Name>.tsx (ESM, code splitting, hashed
 * names, minified) plus static/app.css, into static/build/ with a manifest.json the server reads.
 * Small shared chunks are grouped into one the hydrated islands import (islands/chunkGroups.ts).
 * An island with an islands/<Name>.enhance.ts beside it is enhanced, not hydrated: its entry runs
 * that script (no React) on the server-rendered HTML (islands/enhance.ts).
 * Run: `deno task build`.
 */

import * as esbuild from "esbuild";
import { brotliCompress, constants } from "node:zlib";
import { promisify } from "node:util";
import { dirname, relative } from "node:path";
import { backendVersion } from "../config/version.ts";
import { type Locale, LOCALES } from "../domain/i18n.ts";
import { chunkClosure, SHARED_GROUP, sharedGroupPlugin, smallChunkModules } from "./chunkGroups.ts";
import { buildDir, type Manifest, PRECOMPRESSED_BR, SERVICE_WORKER_FILE } from "./buildOutput.ts";

const root = new URL("..", import.meta.url).pathname;
/**
 * Writes every script and stylesheet of the build again as Brotli at its highest quality, beside
 * it: about 14% smaller than gzip, paid once per build (about 1.25 s here) rather than per
 * request or per server start.
 */
async function precompress(files: string[]): Promise<void> {
  const br = promisify(brotliCompress);
  await Promise.all(
    files.filter((f) => /\.(js|css)$/.test(f)).map(async (f) => {
      const raw = await Deno.readFile(f);
      const out = await br(raw, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
      });
      await Deno.writeFile(`${f}${PRECOMPRESSED_BR}`, out);
    }),
  );
}

/**
 * The app's own folders whose modules an island imports with `import()` only when the member asks
 * (a secret chat's screen and its cryptography: decision 0165): never preloaded with the island.
 */
export const ON_DEMAND = ["islands/secret/"];

/**
 * The islands whose screen must not grow when small chunks are grouped (islands/chunkGroups.ts):
 * the map's, at its JavaScript budget (tests/e2e/budgets_test.ts), with the Leaflet part it loads
 * at once. The tab bar is on every member's screen, so what it loads costs those screens nothing
 * either.
 */
const FIXED_SCREEN = ["TabBar", "NearbyMap", "islands/map/LeafletMap.tsx"];

/**
 * The app's modules a hydrated island loads with `import()` (the map's Leaflet part, a secret chat,
 * the chats' export): each imports first what every hydrated island's entry does (the grouped
 * modules and the loader, islands/client.ts), which the page has already run when it loads them.
 * That costs them no byte, and gives what every hydrated screen loads one set of entries, so one
 * chunk: esbuild would otherwise split React, React DOM and the query client into a chunk each,
 * by which of these also reach them.
 */
function loadedLaterPlugin(modules: string[]): esbuild.Plugin {
  return {
    name: "loaded-later",
    setup(b) {
      if (!modules.length) return;
      const paths = new Set(modules.map((m) => root + m));
      b.onLoad({ filter: /\/islands\/.*\.tsx?$/ }, async (a) => {
        if (!paths.has(a.path)) return undefined;
        return {
          // A path from the module's folder: the same in every checkout.
          contents: `import ${JSON.stringify(SHARED_GROUP)};\n` +
            `import ${JSON.stringify(relative(dirname(a.path), `${root}islands/client.ts`))};\n` +
            await Deno.readTextFile(a.path),
          loader: a.path.endsWith(".tsx") ? "tsx" : "ts",
        };
      });
    },
  };
}

/** The app's modules under islands/ that the build's outputs load with `import()` (entries of their own). */
function loadedLater(meta: esbuild.Metafile): string[] {
  return Object.values(meta.outputs).map((o) => o.entryPoint ?? "").filter((e) => e.startsWith("islands/")).sort();
}

/** Is the entry (an island's name, or a module's path: islands/chunkGroups.ts) given the grouped modules? */
function importsGroup(entry: string, later: string[]): boolean {
  return entry.includes("/") ? later.includes(entry) : !isEnhanced(entry);
}

/** At most this many passes of the build not written, each grouping small chunks' modules. */
const GROUP_PASSES = 3;

/** Island names: every islands/*.tsx file whose name starts with a capital letter. */
function islandNames(): string[] {
  return [...Deno.readDirSync(`${root}islands`)]
    .filter((e) => e.isFile && /^[A-Z]\w*\.tsx$/.test(e.name))
    .map((e) => e.name.replace(/\.tsx$/, ""))
    .sort();
}

/** Is the island enhanced by a script of its own (islands/<Name>.enhance.ts) rather than hydrated by React? */
function isEnhanced(name: string): boolean {
  try {
    return Deno.statSync(`${root}islands/${name}.enhance.ts`).isFile;
  } catch {
    return false;
  }
}

/**
 * The language of a translation module, or undefined: a file in a language's folder,
 * domain/locales/<lang>/<part>.ts (mod.ts its catalogues, es/feel.ts a part; the folder ptBR/ is pt-BR).
 * English (en/) is not a translation.
 */
function localeOfFile(path: string): Locale | undefined {
  const m = path.match(/domain\/locales\/(\w+)\/\w+\.ts$/);
  if (!m) return undefined;
  return LOCALES.find((l) => l !== "en" && l.replace("-", "") === m[1]);
}

/**
 * Translations on demand (islands/locales.ts): an import of a translation module (see
 * `localeOfFile`) from outside the translations gets a stand-in exporting the same constants,
 * empty, and filled from the real module (a chunk of its own, imported only on a page in that
 * language). So a catalogue added with `catalogue(name, en, { es, ... })` whose translations are
 * such modules follows by itself; a module exporting anything but constants is left as it is,
 * and the build fails when an island would carry it (`assertNoTranslationInIslands`).
 *
 * A stand-in is named by its module's path from the project's root, and imports by paths from
 * there: esbuild's content hashes take a plugin's paths as they are, and an absolute one would
 * give the same code other chunk names (and other bytes) in another checkout.
 */
const localesOnDemand: esbuild.Plugin = {
  name: "locales-on-demand",
  setup(b) {
    b.onResolve({ filter: /\/locales\/\w+\/\w+\.ts$/ }, (a) => {
      const path = new URL(a.path, `file://${a.resolveDir}/`).pathname;
      // A translation importing its own parts (es/mod.ts imports es/feel.ts) is already in its chunk.
      if (a.kind === "dynamic-import" || !localeOfFile(path) || localeOfFile(a.importer)) return undefined;
      const exports = [...Deno.readTextFileSync(path).matchAll(/^export\s+(\w+)\s+(\w+)/gm)];
      if (!exports.length || exports.some(([, kind]) => kind !== "const")) return undefined;
      return { path: path.slice(root.length), namespace: "locale-stand-in" };
    });
    b.onLoad({ filter: /.*/, namespace: "locale-stand-in" }, (a) => {
      const names = [...Deno.readTextFileSync(root + a.path).matchAll(/^export\s+const\s+(\w+)/gm)].map((m) => m[1]);
      return {
        contents: `import { loadingLocale } from "./islands/locales.ts";\n` +
          names.map((n) => `export const ${n} = {};\n`).join("") +
          `if (document.documentElement.lang === ${JSON.stringify(localeOfFile(a.path))}) {\n` +
          `  loadingLocale(import(${JSON.stringify(`./${a.path}`)}).then((m) => {\n` +
          names.map((n) => `    Object.assign(${n}, m.${n});\n`).join("") +
          `  }));\n}\n`,
        resolveDir: root,
        loader: "ts",
      };
    });
  },
};

/**
 * The English phrases (domain/locales/en/phrases.ts) are keyed by their own words, which the
 * browser's code already holds where each is used (`phrase("...")`): in the browser the table
 * answers each key with itself instead of carrying the list again. The server keeps the list (the
 * `Phrase` type and the test that every language has every phrase read it).
 */
const englishPhrasesEcho: esbuild.Plugin = {
  name: "english-phrases-echo",
  setup(b) {
    b.onLoad({ filter: /\/domain\/locales\/en\/phrases\.ts$/ }, () => ({
      contents: `export const EN_PHRASES = new Proxy({}, { get: (_, k) => typeof k === "string" ? k : undefined });\n`,
      loader: "js",
    }));
  },
};

/**
 * One copy of each package the islands share: the persisted query client's packages pin older
 * @tanstack/query-core versions than @tanstack/react-query's, which would ship parts of it twice.
 * Every import of such a package resolves as the app's own dependency does.
 */
const ONE_COPY = ["@tanstack/query-core"];
const oneCopy: esbuild.Plugin = {
  name: "one-copy",
  setup(b) {
    const filter = new RegExp(`^(${ONE_COPY.map((p) => p.replace(/[/.]/g, "\\$&")).join("|")})$`);
    b.onResolve({ filter }, async (a) => {
      if (a.pluginData?.oneCopy) return undefined;
      let from: string;
      try {
        from = Deno.realPathSync(`${root}node_modules/@tanstack/react-query`);
      } catch {
        return undefined; // not installed where expected: each import resolves as esbuild would
      }
      const r = await b.resolve(a.path, { kind: a.kind, resolveDir: from, pluginData: { oneCopy: true } });
      return r.errors.length ? undefined : { path: r.path };
    });
  },
};

/**
 * Leaflet's statements that attach what the map never uses to the classes it does, which would
 * keep those parts in the bundle however unused: the layers and scale controls, WMS tiles, the
 * `toGeoJSON` methods of markers, lines and groups, and the Canvas renderer (the map never sets
 * `preferCanvas`: its cells are drawn in SVG). With them left out, `L.control.layers`,
 * `L.control.scale`, `L.tileLayer.wms`, `toGeoJSON` and `preferCanvas` are not there: use one, and
 * take it out of here.
 */
export const LEAFLET_UNUSED = new RegExp(
  [
    String.raw`^(?:Control\.(?:Layers|Scale)|control\.(?:layers|scale)|TileLayer\.WMS|tileLayer\.wms) = \w+;$`,
    String.raw`^(?:Marker|Circle|CircleMarker)\.include\(PointToGeoJSON\);$`,
    String.raw`^(?:Polyline|Polygon|LayerGroup)\.include\(\{\r?\n\t(?:toGeoJSON|toMultiPoint)[\s\S]*?^\}\);$`,
    String.raw`\(this\.options\.preferCanvas && canvas\(options\)\) \|\| `,
  ].join("|"),
  "gm",
);

/**
 * Leaflet as its ES module (dist/leaflet-src.esm.js), not the UMD file its package names as main:
 * what the map does not use can be left out, its classes marked as free of side effects (a
 * `var X = Base.extend({...})` only defines X), so the unused ones (GeoJSON, the overlays, ...)
 * go (about 2.4 KB of gzip less on the map), and `LEAFLET_UNUSED` left out (2.2 KB of Brotli less).
 */
const leafletEsm: esbuild.Plugin = {
  name: "leaflet-esm",
  setup(b) {
    b.onResolve({ filter: /^leaflet$/ }, async (a) => {
      if (a.pluginData?.leafletEsm) return undefined;
      const r = await b.resolve(a.path, { kind: a.kind, resolveDir: a.resolveDir, pluginData: { leafletEsm: true } });
      const esm = r.path.replace(/leaflet-src\.js$/, "leaflet-src.esm.js");
      try {
        Deno.statSync(esm);
        return { path: esm };
      } catch {
        return undefined;
      }
    });
    b.onLoad({ filter: /leaflet-src\.esm\.js$/ }, async (a) => ({
      contents: (await Deno.readTextFile(a.path))
        .replace(/^var (\w+) = (\w+(?:\.\w+)?)\.extend\(/gm, "var $1 = /* @__PURE__ */ $2.extend(")
        .replace(LEAFLET_UNUSED, "/* left out: islands/build.ts LEAFLET_UNUSED */"),
      loader: "js",
    }));
  },
};

/** Files of static/ the worker precaches beside the build: icons and manifests (revisioned by content). */
const PRECACHED_STATIC = [
  "icon.svg",
  "neutral-icon.svg",
  "icons/icon-192.png",
  "icons/neutral-192.png",
  "manifest.webmanifest",
  "manifest-neutral.webmanifest",
];

/**
 * Builds the service worker (islands/sw/worker.ts, Workbox's modules bundled) with the list of
 * what it precaches: every output of this build (hashed names: no revision needed) and the icons
 * and manifests (revisioned by a hash of their content). A build with other bundles makes a
 * worker with other bytes, which browsers install as the new version.
 */
async function buildWorker(outdir: string, builtUrls: string[], minify: boolean): Promise<void> {
  const precache: { url: string; revision: string | null }[] = builtUrls.map((url) => ({ url, revision: null }));
  for (const f of PRECACHED_STATIC) {
    const digest = await crypto.subtle.digest("SHA-256", await Deno.readFile(`${root}static/${f}`));
    const revision = [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
    precache.push({ url: `/static/${f}`, revision });
  }
  await esbuild.build({
    entryPoints: [`${root}islands/sw/worker.ts`],
    bundle: true,
    format: "iife",
    outfile: `${outdir}/${SERVICE_WORKER_FILE}`,
    minify,
    sourcemap: false,
    target: ["es2022", "chrome110", "firefox115", "safari16"],
    define: {
      "__PRECACHE__": JSON.stringify(precache),
      "process.env.NODE_ENV": '"production"',
    },
    logLevel: "warning",
  });
}

/**
 * Fails the build when an island's scripts (what it imports as it starts) carry a translation:
 * every page would load that language's texts. A translation module that exports anything but
 * constants gets no stand-in (`localesOnDemand`): make its exports constants.
 */
function assertNoTranslationInIslands(outputs: esbuild.Metafile["outputs"]): void {
  const carried = new Set<string>();
  for (const [file, out] of Object.entries(outputs)) {
    if (!out.entryPoint?.startsWith("island:")) continue;
    for (const f of [file, ...chunkClosure(outputs, file)]) {
      for (const input of Object.keys(outputs[f]?.inputs ?? {})) {
        if (!input.includes(":") && localeOfFile(input)) carried.add(input);
      }
    }
  }
  if (carried.size) {
    throw new Error(
      `islands would carry translations on every page: ${[...carried].join(", ")} ` +
        "(a translation module exports constants only, so that it loads on demand: islands/build.ts localesOnDemand)",
    );
  }
}

/**
 * Fails the build when a module is named by its absolute path (a plugin's namespace keeps paths
 * as it is given them): esbuild hashes those names, so the same code built in another checkout
 * would get other chunk names, other bytes, and instances of one release behind one address would
 * name scripts the others do not have.
 */
function assertSameInEveryCheckout(outputs: esbuild.Metafile["outputs"]): void {
  const absolute = new Set<string>();
  for (const out of Object.values(outputs)) {
    for (const input of Object.keys(out.inputs)) if (input.includes(root)) absolute.add(input);
  }
  if (absolute.size) {
    throw new Error(
      `modules named by their absolute path make the build differ by checkout: ${[...absolute].join(", ")} ` +
        "(a plugin's onResolve gives a path from the project's root: islands/build.ts localesOnDemand)",
    );
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
          : `import ${JSON.stringify(SHARED_GROUP)};\nimport C from "./islands/${a.path}.tsx";\n` +
            `import { hydrateIslands } from "./islands/client.ts";\nhydrateIslands(${JSON.stringify(a.path)}, C);\n`,
        resolveDir: root,
        loader: "ts",
      }));
    },
  };
  const options = (group: string[], later: string[]): esbuild.BuildOptions & { metafile: true } => ({
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
    // Module scripts are read as UTF-8 whatever the headers say; written as such, an Arabic text is
    // two bytes a letter instead of a six-character escape.
    charset: "utf8",
    jsx: "automatic",
    target: ["es2022", "chrome110", "firefox115", "safari16"],
    define: { "process.env.NODE_ENV": Deno.env.get("REACT_DEV") === "1" ? '"development"' : '"production"' },
    loader: { ".png": "file", ".svg": "file" },
    plugins: [
      virtual,
      sharedGroupPlugin(group, Deno.cwd()),
      loadedLaterPlugin(later),
      localesOnDemand,
      englishPhrasesEcho,
      oneCopy,
      leafletEsm,
    ],
    logLevel: "warning",
  });
  // Passes not written say which modules went to small chunks, and group them (islands/chunkGroups.ts):
  // grouping some can leave others alone in a small chunk, so again, until none is left (or GROUP_PASSES).
  // A first pass says which modules are loaded with `import()` (`loadedLaterPlugin`).
  const later = loadedLater((await esbuild.build({ ...options([], []), write: false })).metafile);
  let group: string[] = [];
  for (let pass = 0; pass < GROUP_PASSES; pass++) {
    const trial = await esbuild.build({ ...options(group, later), write: false });
    const more = smallChunkModules(
      trial.metafile,
      (n) => importsGroup(n, later),
      (n) => FIXED_SCREEN.includes(n),
      (n) => n === "TabBar",
    ).filter((m) => !group.includes(m));
    if (!more.length) break;
    group = [...group, ...more].sort();
  }
  const result = await esbuild.build(options(group, later));
  // esbuild's metafile names outputs relative to the working directory.
  const url = (p: string) =>
    "/static/build/" +
    new URL(p, `file://${Deno.cwd()}/`).pathname.slice(new URL(`file://${outdir}`).pathname.length + 1);
  const outputs = result.metafile.outputs;
  // For a look at what a bundle holds (esbuild's analyzer reads it): BUILD_METAFILE=<file>.
  const metafileOut = Deno.env.get("BUILD_METAFILE");
  if (metafileOut) await Deno.writeTextFile(metafileOut, JSON.stringify(result.metafile));
  await buildWorker(outdir, Object.keys(outputs).map(url), opts.minify ?? true);
  await esbuild.stop();
  await precompress(Object.keys(outputs).map((p) => new URL(p, `file://${Deno.cwd()}/`).pathname));
  const manifest: Manifest = { islands: {}, css: "" };
  /**
   * An island's chunks also take the app's own modules it imports with `import()`: those are split
   * off because the server must not load them (Leaflet touches `window`), not because the page can
   * wait, so they are preloaded too. A package loaded on demand (WebAuthn's) or a translation is not.
   */
  const appDynamic = (entry: string) =>
    !entry.includes("node_modules/") && !localeOfFile(entry) && !ON_DEMAND.some((dir) => entry.includes(dir));
  for (const [file, out] of Object.entries(outputs)) {
    const entry = out.entryPoint ?? "";
    const lang = localeOfFile(entry);
    if (lang && !entry.startsWith("island:")) {
      // A language's parts loaded on their own (es/feel.ts imported outside es/) are preloaded beside its main chunk.
      const own = manifest.locales?.[lang];
      const chunks = [...chunkClosure(outputs, file)].map(url);
      if (!own) (manifest.locales ??= {})[lang] = { js: url(file), preload: chunks };
      else own.preload = [...new Set([...own.preload, url(file), ...chunks])];
      continue;
    }
    if (entry.startsWith("island:")) {
      const name = entry.slice(7);
      const chunks = [...chunkClosure(outputs, file, appDynamic)];
      const css = [out.cssBundle, ...chunks.map((c) => outputs[c]?.cssBundle)].filter((x): x is string => !!x);
      manifest.islands[name] = {
        js: url(file),
        preload: chunks.filter((c) => c.endsWith(".js")).map(url),
        css: css.map(url),
        translated: [file, ...chunks].some((f) =>
          Object.keys(outputs[f]?.inputs ?? {}).some((i) => i.startsWith("locale-stand-in:"))
        ),
        ...(isEnhanced(name) ? { enhanced: true } : {}),
      };
    } else if (entry.endsWith("static/app.css")) {
      manifest.css = url(file);
    }
  }
  assertNoTranslationInIslands(outputs);
  assertSameInEveryCheckout(outputs);
  await Deno.writeTextFile(`${outdir}/manifest.json`, JSON.stringify(manifest, null, 2));
  await Deno.writeTextFile(`${outdir}/version_frontend.json`, JSON.stringify(backendVersion()));
  return manifest;
}

if (import.meta.main) {
  const t = performance.now();
  const m = await build();
  console.log(`built ${Object.keys(m.islands).length} islands in ${(performance.now() - t).toFixed(0)} ms`);
}
