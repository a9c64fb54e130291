/** Which files `deno task test` runs (scripts/run_tests.ts): `deno test`'s own pattern, under the checkout. */

/** Never searched for tests: deno.json's exclude list, plus what is not the project's. */
const SKIP_DIRS = new Set(["node_modules", ".git", "static/build", "data", "tests/e2e/screenshots"]);
/** `deno test`'s own pattern for a test file. */
const TEST_FILE = /(^|[_.])test\.(ts|tsx|mts|js|mjs|jsx)$/;

/** Every test file under `path` (a file or folder, relative to `root`), as `./relative/path`. */
export function testFiles(root: string, path: string): string[] {
  const rel = path.replace(/^\.\/?/, "").replace(/\/$/, "");
  const st = Deno.statSync(`${root}/${rel}`);
  if (st.isFile) return [`./${rel}`];
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(dir ? `${root}/${dir}` : root)) {
      const p = dir ? `${dir}/${e.name}` : e.name;
      if (e.isDirectory && !SKIP_DIRS.has(p)) walk(p);
      else if (e.isFile && TEST_FILE.test(e.name)) out.push(`./${p}`);
    }
  };
  walk(rel);
  return out.sort();
}
