/**
 * Which of React's builds a test process renders pages with (decision 0248). React picks its build
 * from `NODE_ENV` when first loaded, and one process holds one build (decision 0196), so the choice
 * is the whole process's: the runner makes it for each batch before starting its process.
 */

/**
 * The browser files whose processes keep React's development build: the accessibility walk
 * renders every page the app has (tests/e2e/everyPage.ts), so React's development checks (keys,
 * invalid nesting) still see every page the server renders.
 */
export const DEVELOPMENT_BUILD_FILES = new Set(["./tests/e2e/a11y_test.ts"]);

/**
 * The environment that chooses React's build for a process running `batch` (`./path` files):
 * `NODE_ENV=production`, what members get (decision 0196), when every file is a browser file
 * (tests/e2e/) outside DEVELOPMENT_BUILD_FILES; else nothing, so the process loads the
 * development build with its checks: the accessibility walk, and every file outside tests/e2e/
 * (the components' and pages' own tests render them with it). A NODE_ENV the run was given
 * (`given`) holds for every process.
 */
export function reactBuildEnv(batch: string[], given = Deno.env.get("NODE_ENV")): Record<string, string> {
  if (given !== undefined) return {};
  const production = batch.length > 0 &&
    batch.every((f) => f.startsWith("./tests/e2e/") && !DEVELOPMENT_BUILD_FILES.has(f));
  return production ? { NODE_ENV: "production" } : {};
}
