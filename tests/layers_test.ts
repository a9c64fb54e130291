/**
 * The house's layering (README, "Layout"): which folder may import which. A relative import
 * that runs against the table fails this test, naming the file and the import. Type-only imports
 * (`import type`) count like any other: the shapes the API answers with live in domain/, where
 * every layer may read them.
 */

import assert from "node:assert/strict";

/** Folder (or top-level file) → the folders its code may import. Its own folder is always allowed. */
export const LAYERS: Record<string, readonly string[]> = {
  domain: [],
  config: ["domain"],
  images: ["domain"],
  kv: ["domain", "config"],
  components: ["domain"],
  workers: ["kv", "images", "domain", "config"],
  islands: ["components", "domain"],
  routes: ["islands", "components", "workers", "kv", "images", "domain", "config"],
  scripts: ["routes", "islands", "components", "workers", "kv", "images", "domain", "config"],
  "main.ts": ["routes", "workers", "kv", "islands", "domain", "config"],
};

/** Files that run outside their folder's layer: the island bundler runs on the server, at build time. */
const FILE_LAYERS: Record<string, readonly string[]> = {
  "islands/build.ts": ["components", "domain", "config"],
};

const ROOT = new URL("../", import.meta.url);
const SKIP = new Set(["node_modules", "static", "tests", "bench", "docs", "data", ".git", ".ci"]);

async function* sourceFiles(dir: URL, rel = ""): AsyncGenerator<string> {
  for await (const e of Deno.readDir(dir)) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory) {
      if (!SKIP.has(path)) yield* sourceFiles(new URL(`${e.name}/`, dir), path);
    } else if (/\.tsx?$/.test(e.name) && !/_test\.tsx?$/.test(e.name)) {
      yield path;
    }
  }
}

/** The layer a repo path belongs to: its top folder, or the file itself at the top. */
function layerOf(path: string): string {
  return path.includes("/") ? path.slice(0, path.indexOf("/")) : path;
}

/** Every relative import or re-export of a source text, with whether it is type-only. */
export function importsOf(text: string): { spec: string; typeOnly: boolean }[] {
  const out: { spec: string; typeOnly: boolean }[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?(?:[^"';]*?\s+from\s+)?["']([^"']+)["']/gm;
  for (const m of text.matchAll(re)) {
    if (!m[3].startsWith(".")) continue;
    out.push({ spec: m[3], typeOnly: Boolean(m[2]) });
  }
  for (const m of text.matchAll(/import\(\s*["'](\.[^"']+)["']\s*\)/g)) out.push({ spec: m[1], typeOnly: false });
  return out;
}

/** The breaches of the table in the whole tree, as "file -> import" lines. */
export async function layerBreaches(): Promise<string[]> {
  const bad: string[] = [];
  for await (const file of sourceFiles(ROOT)) {
    const from = layerOf(file);
    const allowed = FILE_LAYERS[file] ?? LAYERS[from];
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const { spec, typeOnly } of importsOf(text)) {
      const target = new URL(spec, new URL(file, ROOT)).pathname.slice(ROOT.pathname.length);
      const to = layerOf(target);
      if (to === from) continue;
      if (!allowed) {
        bad.push(`${file}: its folder "${from}" has no row in LAYERS`);
        break;
      }
      if (allowed.includes(to)) continue;
      bad.push(`${file} -> ${spec} (${from} may not import ${to}${typeOnly ? "" : " at run time"})`);
    }
  }
  return bad;
}

Deno.test("layers - every import follows the house's layering", async () => {
  assert.deepEqual(await layerBreaches(), []);
});

/**
 * Inside routes/: the API sub-apps (routes/api/*.ts) and the pages (routes/pages/) stand side by
 * side. What they share lives below both, in routes/*.ts (HTTP helpers and policy), kv/ or domain/;
 * a sub-app importing another sub-app, or a page importing a sub-app, is a breach.
 */
export function routeBreaches(files: ReadonlyMap<string, string>): string[] {
  const bad: string[] = [];
  for (const [file, text] of files) {
    const inApi = file.startsWith("routes/api/"), inPages = file.startsWith("routes/pages/");
    if (!inApi && !inPages) continue;
    for (const { spec } of importsOf(text)) {
      const target = new URL(spec, new URL(file, ROOT)).pathname.slice(ROOT.pathname.length);
      if (!target.startsWith("routes/api/") || target === file) continue;
      bad.push(
        `${file} -> ${spec} (${
          inApi ? "a sub-app may not import another sub-app" : "a page may not import a sub-app"
        })`,
      );
    }
  }
  return bad;
}

Deno.test("layers - no API sub-app imports another, and no page imports an API sub-app", async () => {
  const files = new Map<string, string>();
  for await (const file of sourceFiles(ROOT)) {
    if (file.startsWith("routes/")) files.set(file, await Deno.readTextFile(new URL(file, ROOT)));
  }
  assert.ok(files.has("routes/api/likes.ts") && files.has("routes/pages/render.tsx"), "the check reads routes/");
  assert.deepEqual(routeBreaches(files), []);
});

Deno.test("layers - the routes check names a sideways import and lets shared modules through", () => {
  const found = routeBreaches(
    new Map([
      [
        "routes/api/notes.ts",
        `import { reachableProfile } from "./likes.ts";\nimport { idSchema } from "../validate.ts";`,
      ],
      [
        "routes/pages/render.tsx",
        `import type { Theme } from "../api/settings.ts";\nimport { themeOf } from "../device.ts";`,
      ],
      ["routes/openapi.ts", `import { likesGivenQuery } from "./api/likes.ts";`],
      ["main.ts", `import { likes } from "./routes/api/likes.ts";`],
    ]),
  );
  assert.deepEqual(found, [
    `routes/api/notes.ts -> ./likes.ts (a sub-app may not import another sub-app)`,
    `routes/pages/render.tsx -> ../api/settings.ts (a page may not import a sub-app)`,
  ]);
});

Deno.test("layers - the check sees runtime, type-only, re-exported and dynamic imports", () => {
  const found = importsOf([
    `import { a } from "../kv/db.ts";`,
    `import type { B } from "../kv/briefs.ts";`,
    `export { c } from "./c.ts";`,
    `import {\n  d,\n  e,\n} from "../workers/jobs.ts";`,
    `const m = await import("../islands/build.ts");`,
    `import sharp from "sharp";`,
  ].join("\n"));
  assert.deepEqual(found, [
    { spec: "../kv/db.ts", typeOnly: false },
    { spec: "../kv/briefs.ts", typeOnly: true },
    { spec: "./c.ts", typeOnly: false },
    { spec: "../workers/jobs.ts", typeOnly: false },
    { spec: "../islands/build.ts", typeOnly: false },
  ]);
});
