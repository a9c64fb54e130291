/**
 * Which build of React the server renders pages with: production, as the islands are built
 * (islands/build.ts), unless `REACT_DEV=1` (React's development build on both sides: readable
 * errors and its checks, at more CPU a page). React picks its build from `NODE_ENV` once,
 * when it is first loaded, so main.ts imports this module before any other; a `NODE_ENV` the
 * operator set is left as it is.
 */

import process from "node:process";

if (process.env.NODE_ENV === undefined) {
  process.env.NODE_ENV = Deno.env.get("REACT_DEV") === "1" ? "development" : "production";
}
