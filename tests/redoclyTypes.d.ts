/**
 * The two calls of Redocly's linter (@redocly/openapi-core) that tests/openapi_lint_test.ts makes,
 * declared as the package declares them, for the suite's type check. The package's own declarations
 * bring in json-schema-to-ts, graphql and their types: about a sixth of a cold `deno check` of the
 * test files, for two calls (docs/decisions/0301-test-check-skips-linter-types.md). The code run is
 * the package's; a call that no longer matches it fails the test.
 */

/** The linter's configuration, made by `createConfig` and passed on as it is. */
export interface Config {
  readonly __redoclyConfig: unique symbol;
}

/** Where a problem is: its JSON pointer in the document (none for a line and column). */
export interface LocationObject {
  pointer?: string;
}

/** One problem the linter found. */
export interface NormalizedProblem {
  message: string;
  ruleId: string;
  severity: "error" | "warn";
  location: LocationObject[];
}

/** The configuration from a raw one (`{ extends: ["recommended"] }`). */
export declare function createConfig(config?: { extends?: string[] }): Promise<Config>;

/** The problems the configured rules find in `source`. */
export declare function lintFromString(opts: {
  source: string;
  absoluteRef?: string;
  config: Config;
}): Promise<NormalizedProblem[]>;
