/**
 * The OpenAPI document as consumers' tools read it: Redocly's linter (@redocly/openapi-core, the
 * engine of `redocly lint`) with its recommended rules finds no error in /api/openapi.json (unique
 * operation ids for client generators, a summary on every operation, the session cookie declared
 * and required where the app requires it, servers). And the document's security is the app's:
 * every operation that needs the session answers 401 without one, and the others do not.
 */

import assert from "node:assert/strict";
// The two calls' declarations, not the package's (tests/redoclyTypes.d.ts): the same code runs, for less type check.
// @ts-types="./redoclyTypes.d.ts"
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { testApp } from "./api.ts";
import { apiRoutes } from "../routes/openapi.ts";

Deno.test("openapi lint - Redocly's recommended rules find no error in the served document", async () => {
  const t = await testApp();
  try {
    const r = await t.call("GET", "/api/openapi.json");
    assert.equal(r.status, 200);
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: r.text, absoluteRef: "openapi.json", config });
    const errors = problems.filter((p) => p.severity === "error")
      .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`);
    assert.deepEqual(errors, []);
  } finally {
    t.close();
  }
});

Deno.test("openapi lint - the document says which calls need the session, as the app answers them", async () => {
  const t = await testApp();
  try {
    const doc = (await t.call("GET", "/api/openapi.json")).data;
    assert.deepEqual(doc.security, [{ session: [] }]);
    assert.equal(doc.components.securitySchemes.session.in, "cookie");
    for (const route of apiRoutes(t.app)) {
      const [method, path] = route.split(" ");
      const op = doc.paths[path.replace(/:(\w+)/g, "{$1}")][method.toLowerCase()];
      const needsSession = op.security === undefined;
      // Anonymous, with made-up ids and an empty body: a route that needs the session refuses first.
      const init = method === "GET" || method === "DELETE" ? {} : { json: {} };
      const res = await t.call(method, path.replace(/:(\w+)/g, "x1"), init);
      if (needsSession) assert.equal(res.status, 401, `${route} needs the session`);
      else assert.notEqual(res.status, 401, `${route} is documented as needing no session`);
    }
  } finally {
    t.close();
  }
});
