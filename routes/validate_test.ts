import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError, errorBody } from "./errors.ts";
import { bodyOf, bytesOf, credentialIdSchema, formFields, formOf, idParam, queryOf } from "./validate.ts";
import { SECRET_PICTURE_MAX_BYTES } from "../domain/secretPictures.ts";

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

/** A tiny app whose handlers read their input through the contract's entries. */
function contractApp() {
  return new Hono()
    .put("/note", async (c) => c.json(await bodyOf(c, "PUT /api/profile-note")))
    .delete("/account", async (c) => c.json(await bodyOf(c, "DELETE /api/account")))
    .get("/sector", (c) => c.json(queryOf(c, "GET /api/messages/by-sector/:sector")))
    .post("/login", async (c) => c.json(await formOf(c, "POST /api/auth")))
    .post("/sealed", async (c) => c.json({ bytes: (await bytesOf(c, "POST /api/secret/pictures")).byteLength }))
    .onError((e, c) => e instanceof ApiError ? c.json(errorBody(e.code, e.message), e.status) : c.json({}, 500));
}

const json = (body: unknown, method = "PUT") => ({
  method,
  body: JSON.stringify(body),
  headers: { "content-type": "application/json" },
});

Deno.test("validate - bodyOf, queryOf and formOf parse with the route's contract entry: defaults filled, every issue named", async () => {
  const a = contractApp();
  const ids = { authorProfileId: "a1", aboutProfileId: "b2", bodyText: "hi" };
  assert.deepEqual(await (await a.request("/note", json(ids))).json(), { ...ids, privateTags: [] });
  const bad = await a.request("/note", json({ authorProfileId: "../x", bodyText: 1 }));
  assert.equal(bad.status, 400);
  const { error } = await bad.json();
  assert.equal(error.code, "bad_request");
  assert.match(error.message, /authorProfileId: must be an id/);
  assert.match(error.message, /aboutProfileId: /);
  const notJson = await a.request("/note", {
    method: "PUT",
    body: "{",
    headers: { "content-type": "application/json" },
  });
  assert.deepEqual((await notJson.json()).error.message, "The body must be JSON.");
  assert.deepEqual(await (await a.request("/sector?page=3")).json(), { page: 3 });
  assert.equal((await a.request("/sector?page=51")).status, 400);
  const form = await a.request("/login", { method: "POST", body: new URLSearchParams({ username: " Sam@x.org " }) });
  assert.deepEqual(await form.json(), { username: "Sam@x.org", password: "" });
});

Deno.test("validate - bytesOf takes the entry's one type and sizes: 415 for another type, 413 over, 400 under", async () => {
  const a = contractApp();
  const send = (body: Uint8Array<ArrayBuffer>, type = "application/octet-stream") =>
    a.request("/sealed", { method: "POST", body, headers: type ? { "content-type": type } : {} });
  assert.deepEqual(await (await send(new Uint8Array(64))).json(), { bytes: 64 });
  const asJson = await send(new Uint8Array(64), "application/json");
  assert.equal(asJson.status, 415);
  assert.match((await asJson.json()).error.message, /as application\/octet-stream\.$/);
  assert.equal((await send(new Uint8Array(64), "")).status, 415);
  assert.equal((await send(new Uint8Array(SECRET_PICTURE_MAX_BYTES + 1))).status, 413);
  const tiny = await send(new Uint8Array(16));
  assert.equal(tiny.status, 400);
  assert.equal((await tiny.json()).error.code, "bad_bytes");
});

Deno.test("validate - a route whose body only confirms reads a call without JSON as {}, and checks a JSON one", async () => {
  const a = contractApp();
  assert.deepEqual(await (await a.request("/account", { method: "DELETE" })).json(), {});
  const given = await a.request("/account", json({ currentPassword: "pw" }, "DELETE"));
  assert.deepEqual(await given.json(), { currentPassword: "pw" });
  assert.equal((await a.request("/account", json({ currentPassword: "x".repeat(1025) }, "DELETE"))).status, 400);
});

Deno.test("validate - the parsed input is typed by the entry, and a route without that part does not type-check", () => {
  const app = new Hono()
    .put("/note", async (c) => {
      const note = await bodyOf(c, "PUT /api/profile-note");
      const tags: string[] = note.privateTags;
      // @ts-expect-error: a note body has no `likeType`.
      note.likeType;
      return c.json(tags);
    })
    // @ts-expect-error: `GET /api/profile-note` reads a query, not a body.
    .get("/note", async (c) => c.json(await bodyOf(c, "GET /api/profile-note")))
    // @ts-expect-error: `PUT /api/profile-note` reads a body, not a query.
    .get("/notes", (c) => c.json(queryOf(c, "PUT /api/profile-note")));
  assert.ok(app);
});
