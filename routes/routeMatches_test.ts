import assert from "node:assert/strict";
import { AsyncLocalStorage } from "node:async_hooks";
import { type Context, Hono, type MiddlewareHandler } from "hono";
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

Deno.test("route matches - the app's first layer and a route are one handler, answering as Hono's composition of the two", async () => {
  const app = new Hono();
  const language = new AsyncLocalStorage<string>();
  const onError = (err: Error, c: Context) => c.text(`${language.getStore() ?? "none"}: ${err.message}`, 418);
  const first: MiddlewareHandler = async (c, next) => {
    // The route runs in the request's language; the answer is finished after it, whatever it was.
    await language.run(c.req.query("lang") ?? "en", next);
    c.res.headers.set("x-first", `after ${c.req.routePath}`);
  };
  app.use(first);
  app.get("/a/:id", (c) => c.text(`a ${c.req.param("id")}`));
  app.get("/fails/:id", () => {
    throw new Error("refused");
  });
  app.get("/sets", (c) => {
    c.res = c.text("set on the context");
    return c.text("returned");
  });
  // A sub-app's own middleware: three handlers, composed by Hono as before.
  const sub = new Hono().use("*", async (c, next) => {
    await next();
    c.res.headers.set("x-sub", "1");
  }).get("/b", (c) => c.text("b"));
  app.route("/sub", sub);
  app.onError(onError);
  keepRouteMatches(app, { first, onError });

  assert.equal(app.router.match("GET", "/a/1")[0].length, 1, "one handler for Hono to call");
  assert.equal(app.router.match("GET", "/sub/b")[0].length, 3);
  const call = async (path: string) => {
    const r = await app.request(path);
    return [r.status, await r.text(), r.headers.get("x-first"), r.headers.get("x-sub")];
  };
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(await call("/a/1"), [200, "a 1", "after /a/:id", null]);
    assert.deepEqual(await call("/a/x%20y"), [200, "a x y", "after /a/:id", null]);
    assert.deepEqual(await call("/fails/1?lang=fr"), [418, "fr: refused", "after /fails/:id", null]);
    assert.deepEqual(await call("/sets"), [200, "set on the context", "after /sets", null]);
    assert.deepEqual(await call("/sub/b"), [200, "b", "after /sub/b", "1"]);
    assert.deepEqual(await call("/nope"), [404, "404 Not Found", "after /*", null]);
  }
});

/** `app`'s router with the matches it makes itself counted (put in before any route is added). */
function countMatches(app: Hono): string[] {
  const real = app.router;
  const asked: string[] = [];
  app.router = {
    name: real.name,
    add: (method, path, handler) => real.add(method, path, handler),
    match(method, path) {
      asked.push(`${method} ${path}`);
      return real.match(method, path);
    },
  };
  return asked;
}

Deno.test("route matches - a path ending in an id is matched once under its beginning: any other id there gets the same route, its own param", async () => {
  const app = new Hono();
  const asked = countMatches(app);
  const first: MiddlewareHandler = async (c, next) => {
    await next();
    c.res.headers.set("x-route", c.req.routePath);
  };
  app.use(first);
  app.get("/p/mine", (c) => c.text("mine"));
  app.get("/p/:id", (c) => c.text(`p ${c.req.param("id")} ${JSON.stringify(c.req.param())}`));
  app.get("/p/:id/source", (c) => c.text(`source ${c.req.param("id")}`));
  app.delete("/p/:pic", (c) => c.text(`deleted ${c.req.param("pic")}`));
  app.get("/q/*", (c) => c.text("q"));
  keepRouteMatches(app, { first, onError: (err, c) => c.text(err.message, 500) });
  const call = async (path: string, method = "GET") => {
    const r = await app.request(path, { method });
    return `${r.status} ${await r.text()} ${r.headers.get("x-route")}`;
  };
  const ids = Array.from({ length: 6 }, (_, i) => `${i}`.repeat(27) + "f");
  for (const id of ids) {
    assert.equal(await call(`/p/${id}`), `200 p ${id} {"id":"${id}"} /p/:id`);
    assert.equal(await call(`/p/${id}`, "DELETE"), `200 deleted ${id} /p/:pic`);
    assert.equal(await call(`/p/${id}/source`), `200 source ${id} /p/:id/source`);
    assert.equal(await call(`/q/${id}`), `200 q /q/*`);
  }
  assert.equal(await call("/p/mine"), "200 mine /p/mine");
  assert.equal(await call("/p/nope"), '200 p nope {"id":"nope"} /p/:id');
  assert.equal(await call("/p/nope2"), '200 p nope2 {"id":"nope2"} /p/:id');
  const byRouter = (re: RegExp) => asked.filter((a) => re.test(a)).length;
  assert.equal(byRouter(/^GET \/p\/[0-9a-f]{28}$/), 1, "one id's path matched by the router, the others by it");
  assert.equal(byRouter(/^DELETE \/p\/[0-9a-f]{28}$/), 1);
  assert.equal(byRouter(/\/source$/), ids.length, "an id inside a path: matched each time");
  assert.equal(byRouter(/^GET \/p\/nope/), 2, "a last word that is not an id: matched each time");
});

Deno.test("route matches - a route with a pattern of its own keeps every path ending in an id matched by the router", async () => {
  const app = new Hono();
  const asked = countMatches(app);
  const first: MiddlewareHandler = (_c, next) => next();
  app.use(first);
  app.get("/r/:n{[0-9]+}", (c) => c.text(`number ${c.req.param("n")}`));
  app.get("/r/:id", (c) => c.text(`id ${c.req.param("id")}`));
  keepRouteMatches(app, { first, onError: (err, c) => c.text(err.message, 500) });
  const text = async (path: string) => await (await app.request(path)).text();
  const [digits, letters, more] = ["0".repeat(28), "a".repeat(28), "1".repeat(28)];
  assert.equal(await text(`/r/${letters}`), `id ${letters}`);
  assert.equal(await text(`/r/${digits}`), `number ${digits}`);
  assert.equal(await text(`/r/${more}`), `number ${more}`);
  assert.equal(asked.length, 3);
});
