/**
 * The API's contract as OpenAPI 3.1, generated from the code: the request schemas the routes
 * validate with (domain/requests.ts) and the answers of domain/contract.ts, through zod's
 * own JSON Schema output (zod 4 writes draft 2020-12, the dialect of OpenAPI 3.1). Served at
 * `GET /api/openapi.json`, and read as a page at `GET /api/docs` (plain HTML from this server: no
 * script, no third-party host, so it works under the app's CSP). Who may call what, and why, is in
 * docs/api.md. tests/openapi_test.ts checks that every route the app answers is documented.
 */

import { Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "./env.ts";
import { NOT_JSON, RESPONSES } from "../domain/contract.ts";
import { SUMMARIES } from "../domain/contractSummaries.ts";
import { REQUESTS, type RequestShape } from "../domain/requests.ts";
import { backendVersion } from "../config/version.ts";

type Json = Record<string, unknown>;

const schemaOf = (s: z.core.$ZodType, io: "input" | "output"): Json =>
  z.toJSONSchema(s, { io, unrepresentable: "any", target: "draft-2020-12" }) as Json;

/** The one error shape of the API (routes/errors.ts). */
const ERROR = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: { type: "string" },
        message: { type: "string", description: "for the member to read" },
        requestId: { type: "string", description: "matches the answer to its log line" },
      },
    },
  },
};

/**
 * The routes a caller without a session may call (every other route answers 401 without one;
 * tests/openapi_lint_test.ts checks both ways). Logout takes a session when there is one.
 */
export const NO_SESSION: ReadonlySet<string> = new Set([
  "GET /api/ping",
  "GET /api/version",
  "GET /api/health",
  "GET /api/ready",
  "GET /api/openapi.json",
  "GET /api/docs",
  "POST /api/auth",
  "POST /api/auth/register",
  "POST /api/passkeys/login/options",
  "POST /api/passkeys/login",
]);
const SESSION_OPTIONAL = new Set(["POST /api/auth/logout"]);

/**
 * The operation's id, as client generators name the call: the method and the path in camel case
 * (`GET /api/profile-pic/:id` is `getProfilePicById`). Where two routes would read alike, the
 * later one has its own name here.
 */
const OPERATION_IDS: Record<string, string> = {
  "GET /api/profile/pic/:id": "getProfilePicInfoById",
};

const word = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** `operationId` of a route ("METHOD /path"). */
export function operationId(route: string): string {
  if (OPERATION_IDS[route]) return OPERATION_IDS[route];
  const [method, path] = route.split(" ");
  const parts = path.split("/").slice(2).filter(Boolean).map((seg) =>
    seg.startsWith(":") ? `By${word(seg.slice(1))}` : seg.split(/[^A-Za-z0-9]+/).filter(Boolean).map(word).join("")
  );
  return method.toLowerCase() + parts.join("");
}

/** The routes the app answers under /api/, as "METHOD /path". */
export function apiRoutes(app: Hono<AppEnv>): string[] {
  return [
    ...new Set(
      app.routes.filter((r) => r.method !== "ALL" && r.path.startsWith("/api/")).map((r) => `${r.method} ${r.path}`),
    ),
  ];
}

/** The OpenAPI 3.1 document of the app's API. */
function openApiDocument(app: Hono<AppEnv>): Json {
  const paths: Record<string, Record<string, Json>> = {};
  for (const route of apiRoutes(app)) {
    const [method, path] = route.split(" ");
    const oaPath = path.replace(/:(\w+)/g, "{$1}");
    const req: RequestShape = (REQUESTS as Record<string, RequestShape>)[route] ?? {};
    const parameters: Json[] = [...path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    if (req.query) {
      const q = schemaOf(req.query, "input") as { properties?: Record<string, Json>; required?: string[] };
      for (const [name, schema] of Object.entries(q.properties ?? {})) {
        parameters.push({ name, in: "query", required: q.required?.includes(name) ?? false, schema });
      }
    }
    const responses: Record<string, Json> = {};
    for (
      const [status, schema] of Object.entries(
        (RESPONSES as Record<string, Record<string, z.core.$ZodType>>)[route] ?? {},
      )
    ) {
      responses[status] = {
        description: "OK",
        content: { "application/json": { schema: schemaOf(schema, "output") } },
      };
    }
    const other = (NOT_JSON as Record<string, string>)[route];
    if (other) responses["200"] = { description: other };
    responses["4XX"] = {
      description: "Refused: bad input (400), no session (401), not yours (403), none for you (404), ...",
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
    const op: Json = {
      operationId: operationId(route),
      summary: (SUMMARIES as Record<string, string>)[route] ?? route,
      tags: [path.split("/")[2]],
      parameters,
      responses,
    };
    // A body is required (a call without one is a 400) but where the route only confirms (`{}` then).
    if (req.body) {
      op.requestBody = {
        required: !req.optionalBody,
        content: { "application/json": { schema: schemaOf(req.body, "input") } },
      };
    }
    if (req.form) {
      const form = schemaOf(req.form, "input");
      op.requestBody = {
        required: true,
        content: { "multipart/form-data": { schema: form }, "application/x-www-form-urlencoded": { schema: form } },
      };
    }
    if (req.bytes) {
      op.requestBody = {
        required: true,
        description: `${req.bytes.what}, ${req.bytes.minBytes} to ${req.bytes.maxBytes} bytes`,
        content: { [req.bytes.type]: { schema: { type: "string", contentMediaType: req.bytes.type } } },
      };
    }
    if (NO_SESSION.has(route)) op.security = [];
    else if (SESSION_OPTIONAL.has(route)) op.security = [{}, { session: [] }];
    (paths[oaPath] ??= {})[method.toLowerCase()] = op;
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Lambda API",
      version: backendVersion().gitCommitHash,
      description: "Who may call what, and why: docs/api.md. Sessions are a cookie set by POST /api/auth.",
    },
    servers: [{ url: "/", description: "The server that serves this document" }],
    security: [{ session: [] }],
    paths,
    components: {
      schemas: { Error: ERROR },
      securitySchemes: {
        session: {
          type: "apiKey",
          in: "cookie",
          name: "__Host-sid",
          description: "The session cookie set by POST /api/auth (named `sid` on plain-http hosts). " +
            "Writes that carry it must also carry Origin or Sec-Fetch-Site from this site.",
        },
      },
    },
  };
}

/** `GET /api/openapi.json` and the reference page `GET /api/docs`. */
export function apiDocsRoute(app: () => Hono<AppEnv>) {
  let cached: Json | undefined;
  const doc = () => cached ??= openApiDocument(app());
  // Its text and the page are made from the document alone: made once, as the document is.
  let text: string | undefined;
  let page: string | undefined;
  return new Hono<AppEnv>()
    .get("/openapi.json", (c) => c.body(text ??= JSON.stringify(doc()), 200, { "content-type": "application/json" }))
    .get("/docs", (c) => {
      c.header("cache-control", "no-store");
      return c.html(page ??= docsPage(doc()));
    });
}

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]!);

/** The reference as one HTML page: every operation with its parameters, body and answers. */
function docsPage(doc: Json): string {
  const paths = doc.paths as Record<string, Record<string, Json>>;
  const ops = Object.entries(paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, op]) => ({ path, method, op }))
  );
  const tags = [...new Set(ops.map((o) => (o.op.tags as string[])[0]))].sort();
  const block = (title: string, value: unknown) =>
    `<details><summary>${esc(title)}</summary><pre>${esc(JSON.stringify(value, null, 2))}</pre></details>`;
  const body = tags.map((tag) => {
    const items = ops.filter((o) => (o.op.tags as string[])[0] === tag).map(({ path, method, op }) => {
      const params = (op.parameters as Json[]).map((p) => `<code>${esc(String(p.name))}</code> (${esc(String(p.in))})`)
        .join(", ");
      const responses = op.responses as Record<string, Json>;
      return `<li id="${esc(String(op.operationId))}"><h3><span class="method">${method.toUpperCase()}</span> <code>${
        esc(path)
      }</code></h3><p>${esc(String(op.summary))}${op.security ? " (no session needed)" : ""}</p>${
        params ? `<p>Parameters: ${params}</p>` : ""
      }${op.requestBody ? block("Request body", op.requestBody) : ""}${
        Object.entries(responses).map(([s, r]) => block(`${s}: ${String(r.description)}`, r.content ?? {})).join("")
      }</li>`;
    }).join("");
    return `<section><h2 id="tag-${esc(tag)}">${esc(tag)}</h2><ul class="api-ops">${items}</ul></section>`;
  }).join("");
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lambda API reference</title><style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:960px;padding:16px;color:#1d1b20;background:#fff}
h1{margin:0 0 8px}h2{border-bottom:1px solid #ddd;padding-bottom:4px;margin-top:32px}
h3{font-size:1rem;margin:16px 0 4px}.method{display:inline-block;min-width:4.5em;font-weight:700;color:#8a1550}
ul.api-ops{list-style:none;padding:0}pre{background:#f6f4f8;padding:8px;overflow:auto;font-size:13px}
summary{cursor:pointer}a{color:#8a1550}
</style></head><body><main><h1>Lambda API reference</h1>
<p>OpenAPI 3.1: <a href="/api/openapi.json">/api/openapi.json</a>. Errors are <code>{"error": {"code", "message", "requestId"}}</code>.</p>
<nav aria-label="Areas"><p>${tags.map((t) => `<a href="#tag-${esc(t)}">${esc(t)}</a>`).join(" · ")}</p></nav>
${body}</main></body></html>`;
}
