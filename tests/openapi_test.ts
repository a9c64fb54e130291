/**
 * The API contract: every route the app answers under /api/ is documented (a JSON answer in
 * domain/contract.ts, or what it answers instead), the document names no route the app lost, and
 * /api/openapi.json and /api/docs serve it. Each 2xx answer of every API test is checked against
 * its schema by the test kit itself (tests/api.ts `checkContract`).
 */

import assert from "node:assert/strict";
import { testApp } from "./api.ts";
import { NOT_JSON, RESPONSES } from "../domain/contract.ts";
import { apiRoutes } from "../routes/openapi.ts";
import { REQUESTS } from "../domain/requests.ts";

Deno.test("openapi - every API route is documented, and nothing else is", async () => {
  const t = await testApp();
  try {
    const routes = apiRoutes(t.app);
    const documented = new Set([...Object.keys(RESPONSES), ...Object.keys(NOT_JSON)]);
    assert.deepEqual(routes.filter((r) => !documented.has(r)), [], "routes without an answer in domain/contract.ts");
    assert.deepEqual([...documented].filter((r) => !routes.includes(r)), [], "documented routes the app no longer has");
    assert.deepEqual(Object.keys(REQUESTS).filter((r) => !routes.includes(r)), [], "request schemas of lost routes");
  } finally {
    t.close();
  }
});

Deno.test("openapi - /api/openapi.json is OpenAPI 3.1 with every route, its parameters, body and answers", async () => {
  const t = await testApp();
  try {
    const r = await t.call("GET", "/api/openapi.json");
    assert.equal(r.status, 200);
    const doc = r.data;
    assert.equal(doc.openapi, "3.1.0");
    const ops = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)
      .flatMap(([path, m]) => Object.keys(m).map((method) => `${method.toUpperCase()} ${path}`));
    const expected = apiRoutes(t.app).map((route) => route.replace(/:(\w+)/g, "{$1}"));
    assert.deepEqual(ops.sort(), expected.sort());
    const send = doc.paths["/api/message"].post;
    assert.deepEqual(
      Object.keys(send.requestBody.content["application/json"].schema.properties).sort(),
      ["bodyText", "profilePicIds", "recipientProfileId", "senderProfileId", "tsCreated", "viewOnce"],
    );
    assert.ok(send.responses["201"].content["application/json"].schema.properties.held, "the held flag is documented");
    const between = doc.paths["/api/messages/between/{a}/{b}"].get;
    assert.deepEqual(between.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`), [
      "path:a",
      "path:b",
      "query:sinceMessageId",
      "query:beforeMessageId",
    ]);
    // 3 2 1 Identify: why a member is dealt nothing, and the answer an admin decides with.
    const deal = doc.paths["/api/games/identify/next"].get.responses["200"].content["application/json"].schema;
    assert.deepEqual(Object.keys(deal.properties).sort(), ["credits", "item", "judgeFrom", "why"]);
    const decide = doc.paths["/api/admin/games/identify/{attemptId}"].put;
    assert.deepEqual(decide.requestBody.content["application/json"].schema.properties.answer.enum, [
      "SAME",
      "NOT_SAME",
      "WRONG_POSE",
    ]);
    const queue = doc.paths["/api/admin/games/identify"].get.responses["200"].content["application/json"].schema;
    assert.ok(JSON.stringify(queue).includes("SHARED_PLACE"), "the admins' queue says why a selfie waits");
    // Every reference resolves.
    const refs = JSON.stringify(doc).match(/"\$ref":"#\/components\/schemas\/(\w+)"/g) ?? [];
    for (const ref of refs) assert.ok(doc.components.schemas[ref.split("/").pop()!.replace('"', "")], ref);

    const page = await t.call("GET", "/api/docs");
    assert.equal(page.status, 200);
    assert.match(page.headers.get("content-type")!, /text\/html/);
    assert.match(page.text, /<code>\/api\/messages\/between\/\{a\}\/\{b\}<\/code>/);
    assert.doesNotMatch(page.text, /<script/);
  } finally {
    t.close();
  }
});
