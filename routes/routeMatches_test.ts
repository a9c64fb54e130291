import assert from "node:assert/strict";
import { Hono } from "hono";
import { keepRouteMatches, MATCHES_KEPT } from "./routeMatches.ts";

Deno.test("route matches - a kept match answers as the router would: each path its own params, middleware and handler", async () => {
  const app = new Hono();
  const seen: string[] = [];
  app.use("*", async (c, next) => {
    seen.push(c.req.path);
    await next();
  });
  app.get("/a/:id", (c) => c.text(`a ${c.req.param("id")}`));
  app.get("/a/:id/b/:other", (c) => c.text(`b ${c.req.param("id")} ${c.req.param("other")}`));
  app.post("/a/:id", (c) => c.text(`posted ${c.req.param("id")}`));
  app.get("/static", (c) => c.text("static"));
  keepRouteMatches(app);
  const text = async (path: string, method = "GET") => {
    const r = await app.request(path, { method });
    return `${r.status} ${await r.text()}`;
  };
  for (let round = 0; round < 2; round++) {
    assert.equal(await text("/a/1"), "200 a 1");
    assert.equal(await text("/a/2"), "200 a 2");
    assert.equal(await text("/a/1", "POST"), "200 posted 1");
    assert.equal(await text("/a/1/b/x%20y"), "200 b 1 x y");
    assert.equal(await text("/static"), "200 static");
    assert.equal(await text("/nope"), "404 404 Not Found");
    assert.equal(await text(`/a/${"z".repeat(300)}`), `200 a ${"z".repeat(300)}`);
  }
  assert.equal(seen.length, 14, "the middleware on every call, kept or not");
  // Past the bound the oldest go, and every path still matches as before.
  for (let i = 0; i < MATCHES_KEPT + 10; i++) assert.equal(await text(`/a/n${i}`), `200 a n${i}`);
  assert.equal(await text("/a/1"), "200 a 1");
});
