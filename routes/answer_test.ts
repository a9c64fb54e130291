/**
 * The typed answer: the status is the contract's (201 for a create), the body is sent as given,
 * and a body of the wrong shape does not type-check (the `@ts-expect-error` below fails
 * `deno check` the day it stops being an error); and no route in routes/api/ answers JSON by hand
 * (`c.json`) but for a short list, each with its reason, so no answer escapes that check.
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

/**
 * Routes in routes/api/ that answer JSON without `answer()`, each with the reason it cannot: every
 * other JSON answer goes through its contract entry, so its shape and status are checked by
 * `deno check`. Keys are "METHOD /api/path" as the app registers the route.
 */
const PLAIN_JSON: Record<string, string> = {
  "GET /api/ready":
    "answers 503 with the same body when a check fails (a load balancer reads the status); answer() sends the contract's one status",
};

const ROUTE_DIR = new URL("./api/", import.meta.url);

/** Where main.ts mounts each route module's app, by its exported name ("auth" -> "/api/auth"). */
async function mountPoints(): Promise<Map<string, string>> {
  const main = await Deno.readTextFile(new URL("../main.ts", import.meta.url));
  return new Map([...main.matchAll(/\.route\(\s*"([^"]+)",\s*(\w+)\s*\)/g)].map((m) => [m[2], m[1]]));
}

/**
 * The routes of one route module's source that answer JSON by hand (`c.json(...)`,
 * `Response.json(...)`: a `.json(` call with an argument), each named by the route registered
 * last before it, under `base`.
 */
function plainJsonRoutes(source: string, base: string): string[] {
  const found: string[] = [];
  const routes = [...source.matchAll(/\.(get|post|put|patch|delete)\(\s*"([^"]*)"/g)];
  for (const m of source.matchAll(/(?<![\w.]req)\.json\(\s*[^)\s]/g)) {
    const before = routes.filter((r) => r.index! < m.index!).at(-1);
    const route = before ? `${before[1].toUpperCase()} ${base}${before[2] === "/" ? "" : before[2]}` : "(no route)";
    if (!found.includes(route)) found.push(route);
  }
  return found;
}

Deno.test("answer - the source scan names a route that answers with c.json", () => {
  const source = `export const demo = new Hono()
    .get("/fine", (c) => answer(c, "GET /api/ping", { pong: true, ts: 1 }))
    .post("/things/:id", async (c) => {
      const body = await c.req.json();
      return c.json({ id: body.id }, 201);
    })
    .get("/raw", () => Response.json({ a: 1 }));`;
  assert.deepEqual(plainJsonRoutes(source, "/api"), ["POST /api/things/:id", "GET /api/raw"]);
});

Deno.test("answer - every JSON answer in routes/api/ goes through its contract entry, but for the few listed with a reason", async () => {
  const bases = await mountPoints();
  const seen = new Set<string>();
  const unlisted: string[] = [];
  for await (const entry of Deno.readDir(ROUTE_DIR)) {
    if (!entry.isFile || !entry.name.endsWith(".ts") || entry.name.endsWith("_test.ts")) continue;
    const source = await Deno.readTextFile(new URL(entry.name, ROUTE_DIR));
    const exported = source.match(/export const (\w+) = new Hono/)?.[1];
    const base = (exported && bases.get(exported)) ?? "/api";
    for (const route of plainJsonRoutes(source, base)) {
      seen.add(route);
      if (!(route in PLAIN_JSON)) unlisted.push(`${route} (routes/api/${entry.name})`);
    }
  }
  assert.deepEqual(unlisted, [], "answer these with answer(c, route, body), typed by the contract");
  const stale = Object.keys(PLAIN_JSON).filter((r) => !seen.has(r));
  assert.deepEqual(stale, [], "these routes no longer answer by hand: remove them from the list");
});
