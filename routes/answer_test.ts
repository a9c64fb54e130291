/**
 * The typed answer: the status is the contract's (201 for a create), the body is sent as given,
 * and a body of the wrong shape does not type-check (the `@ts-expect-error` below fails
 * `deno check` the day it stops being an error).
 */

import assert from "node:assert/strict";
import { Hono } from "hono";
import { answer } from "./answer.ts";

const note = { authorProfileId: "a", aboutProfileId: "b", bodyText: "hi", privateTags: [], tsUpdated: 1 };

Deno.test("answer - a route answers its body with the status its contract entry names", async () => {
  const app = new Hono()
    .get("/note", (c) => answer(c, "GET /api/profile-note", note))
    .post("/report", (c) => answer(c, "POST /api/profile-report", { id: "r1" }))
    .post("/register", (c) => answer(c, "POST /api/auth/register", { ok: true, message: "Sent." }));
  const got = await app.request("/note");
  assert.equal(got.status, 200);
  assert.deepEqual(await got.json(), note);
  assert.equal((await app.request("/report", { method: "POST" })).status, 201);
  assert.equal((await app.request("/register", { method: "POST" })).status, 202);
});

Deno.test("answer - a body of another shape is a type error", () => {
  const app = new Hono().get("/note", (c) =>
    // @ts-expect-error: a note without aboutProfileId, privateTags and tsUpdated is not the contract's answer.
    answer(c, "GET /api/profile-note", { authorProfileId: "a", bodyText: "" }));
  assert.ok(app);
});
