/**
 * Fewer module files a page: esbuild's code splitting makes one chunk for each set of entries that
 * share modules, however small (it has no minimum chunk size), so a screen fetched dozens of files
 * under 2 KB, each a request, a parse and a compile. A pass of the build not written says which of
 * the app's modules went to such small chunks; the build then has every hydrated island import a
 * group of them first (a bare import of each, `SHARED_GROUP`), which gives them one set of entries:
 * one chunk. Enhanced islands (no React), the modules loaded on demand and the translations keep
 * their own chunks.
 *
 * A grouped module makes all it imports reachable from every hydrated island, so only a module
 * that brings no code new to the screens that must not grow is grouped: it and all it imports are
 * loaded by every hydrated island already, or by the `fixed` islands (the map screen's, at its
 * JavaScript budget: its tab bar is on every member's screen).
 */

import type * as esbuild from "esbuild";

/** Chunks under this size (minified, bytes) are grouped. */
export const SMALL_CHUNK = 2048;

/** The bare specifier each hydrated island's entry imports first: the grouped modules. */
export const SHARED_GROUP = "island-shared-group";

/**
 * The chunks output `file` imports as it starts, and those they import; with `alsoDynamic`, also
 * the outputs it imports with `import()` whose entry point that accepts (and what they import).
 */
export function chunkClosure(
  outputs: esbuild.Metafile["outputs"],
  file: string,
  alsoDynamic?: (entry: string) => boolean,
  seen = new Set<string>(),
): Set<string> {
  for (const imp of outputs[file]?.imports ?? []) {
    const follow = imp.kind === "import-statement" ||
      (alsoDynamic !== undefined && imp.kind === "dynamic-import" && alsoDynamic(outputs[imp.path]?.entryPoint ?? ""));
    if (follow && !seen.has(imp.path)) {
      seen.add(imp.path);
      chunkClosure(outputs, imp.path, alsoDynamic, seen);
    }
  }
  return seen;
}

/**
 * The app's modules (paths as esbuild's metafile names them, from the working directory) in chunks
 * under `SMALL_CHUNK` that only the `grouped` entries import as they start, and that bring nothing
 * but what every grouped entry or the `fixed` ones load as they start. An entry is named by its
 * island's name, or by its module's path for a module loaded with `import()`. A chunk that the
 * `everywhere` islands load (the tab bar, on every member's screen) is grouped whatever its size:
 * only a screen without them (the first-use and logout pages) loads more.
 */
export function smallChunkModules(
  meta: esbuild.Metafile,
  grouped: (island: string) => boolean,
  fixed: (island: string) => boolean,
  everywhere: (island: string) => boolean = () => false,
): string[] {
  const outputs = meta.outputs;
  /** The modules a module imports (not `import()`), all the way down. */
  const reach = (path: string, seen = new Set<string>()): Set<string> => {
    for (const imp of meta.inputs[path]?.imports ?? []) {
      if (imp.kind !== "dynamic-import" && !seen.has(imp.path) && meta.inputs[imp.path]) {
        seen.add(imp.path);
        reach(imp.path, seen);
      }
    }
    return seen;
  };
  // An island's entry by its name; another entry (a module loaded with `import()`) by its path.
  const island = (out: esbuild.Metafile["outputs"][string]) =>
    out.entryPoint?.startsWith("island:") ? out.entryPoint.slice(7) : out.entryPoint;
  const byGrouped: Set<string>[] = [], byOthers = new Set<string>(), byFixed = new Set<string>();
  const byEverywhere = new Set<string>();
  for (const [file, out] of Object.entries(outputs)) {
    if (!out.entryPoint) continue;
    const name = island(out), files = chunkClosure(outputs, file);
    if (name && grouped(name)) byGrouped.push(files);
    else for (const f of files) byOthers.add(f);
    if (name && fixed(name)) { for (const f of [file, ...files]) byFixed.add(f); }
    if (name && everywhere(name)) { for (const f of files) byEverywhere.add(f); }
  }
  // The modules a grouped one may bring: those every grouped island or the fixed islands load, and
  // those of no code in any output (types, or all their code left out as unused).
  const loaded = new Set<string>(), withCode = new Set<string>();
  for (const [file, out] of Object.entries(outputs)) {
    const here = byFixed.has(file) || byGrouped.every((c) => c.has(file));
    for (const [input, { bytesInOutput }] of Object.entries(out.inputs)) {
      if (bytesInOutput > 0) withCode.add(input);
      if (here) loaded.add(input);
    }
  }
  const modules: string[] = [];
  for (const [file, out] of Object.entries(outputs)) {
    if (out.entryPoint || !file.endsWith(".js") || (out.bytes >= SMALL_CHUNK && !byEverywhere.has(file))) continue;
    if (byOthers.has(file) || !byGrouped.some((c) => c.has(file))) continue;
    for (const input of Object.keys(out.inputs)) {
      // Plugins' modules (translations' stand-ins) and packages are not named by a path to import.
      if (input.includes(":") || input.includes("node_modules/")) continue;
      if ([input, ...reach(input)].every((m) => loaded.has(m) || !withCode.has(m))) modules.push(input);
    }
  }
  return modules.sort();
}

/** The plugin that answers `SHARED_GROUP` with a bare import of each module (paths from `cwd`). */
export function sharedGroupPlugin(modules: string[], cwd: string): esbuild.Plugin {
  return {
    name: "island-shared-group",
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${SHARED_GROUP}$`) }, () => ({ path: "group", namespace: SHARED_GROUP }));
      b.onLoad({ filter: /.*/, namespace: SHARED_GROUP }, () => ({
        contents: modules.map((m) => `import ${JSON.stringify(`./${m}`)};\n`).join(""),
        resolveDir: cwd,
        loader: "ts",
      }));
    },
  };
}
