import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError, errorBody } from "./errors.ts";
import { credentialIdSchema, formFields, idParam } from "./validate.ts";

/** A tiny app that answers what the helpers make of a call, or their error. */
function app() {
  return new Hono()
    .get("/id/:id", (c) => c.json({ id: idParam(c, "id") }))
    .get("/key/:id", (c) => c.json({ id: idParam(c, "id", credentialIdSchema) }))
    .post("/form", async (c) => c.json(await formFields(c)))
    .onError((e, c) => e instanceof ApiError ? c.json(errorBody(e.code, e.message), e.status) : c.json({}, 500));
}

Deno.test("validate - idParam takes our ids and refuses anything else with 400 bad_id (10,000 characters, ../, %00, unicode)", async () => {
  const a = app();
  assert.equal((await a.request("/id/01a20d59eedb68969d5fe60fd53a")).status, 200);
  for (
    const bad of ["a".repeat(10_000), "x".repeat(65), "..%2F..%2Fx", "%00", "a%20b", "%E2%80%AE", "%F0%9F%98%80", "a.b"]
  ) {
    const r = await a.request(`/id/${bad}`);
    assert.equal(r.status, 400, bad.slice(0, 20));
    assert.equal((await r.json()).error.code, "bad_id");
  }
});

Deno.test("validate - a passkey's credential id may be as long as registering accepts (86 characters for 64 bytes), not longer", async () => {
  const a = app();
  assert.equal((await a.request(`/key/${"A".repeat(86)}`)).status, 200);
  assert.equal((await a.request(`/key/${"A".repeat(1024)}`)).status, 200);
  assert.equal((await a.request(`/key/${"A".repeat(1025)}`)).status, 400);
  assert.equal((await a.request(`/key/a%2Fb`)).status, 400);
  // Our own ids stay short.
  assert.equal((await a.request(`/id/${"A".repeat(86)}`)).status, 400);
});

Deno.test("validate - formFields reads urlencoded and multipart forms; a body that is not one is a 400, never a 500", async () => {
  const a = app();
  const url = await a.request("/form", { method: "POST", body: new URLSearchParams({ a: "1", __proto__: "x" }) });
  assert.deepEqual(await url.json(), { a: "1", __proto__: "x" });
  const fd = new FormData();
  fd.set("b", "2");
  assert.deepEqual(await (await a.request("/form", { method: "POST", body: fd })).json(), { b: "2" });
  for (const type of ["multipart/form-data; boundary=x", "multipart/form-data", "application/json"]) {
    const r = await a.request("/form", { method: "POST", body: "{}", headers: { "content-type": type } });
    assert.equal(r.status, 400, type);
  }
});
