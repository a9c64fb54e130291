/**
 * The API's contract as OpenAPI 3.1, generated from the code: the request schemas the routes
 * validate with (exported beside each route) and the answers of domain/contract.ts, through zod's
 * own JSON Schema output (zod 4 writes draft 2020-12, the dialect of OpenAPI 3.1). Served at
 * `GET /api/openapi.json`, and read as a page at `GET /api/docs` (plain HTML from this server: no
 * script, no third-party host, so it works under the app's CSP). Who may call what, and why, is in
 * docs/api.md. tests/openapi_test.ts checks that every route the app answers is documented.
 */

import { type Context, Hono } from "hono";
import * as z from "zod";
import type { AppEnv } from "./env.ts";
import { NOT_JSON, RESPONSES } from "../domain/contract.ts";
import { SUMMARIES } from "../domain/contractSummaries.ts";
import { confirmBody } from "./reauth.ts";
import { actionBody, auditQuery, membersQuery, noteBody as modNoteBody } from "./api/admin.ts";
import { loginForm, registerBody } from "./api/auth.ts";
import { contactBody } from "./api/contact.ts";
import { downloadBody } from "./api/account.ts";
import {
  answerBody,
  arbBody,
  cropBody as suggestCropBody,
  decisionBody,
  gptBody,
  photoCropNextQuery,
  ratingBody,
} from "./api/games.ts";
import { healthContactsQuery, healthReportBody } from "./api/health.ts";
import { appealBody, appealDecisionBody, quizBody } from "./api/dungeon.ts";
import { challengeBody, idAnswerBody, onlyVerifiedBody } from "./api/identify.ts";
import { hotNextQuery, hotTestBody, hotVoteBody, keepBestBody } from "./api/hotOrNot.ts";
import { cursorQuery, likesGivenQuery, picLikeBody, profileLikeBody, profileLikeQuery } from "./api/likes.ts";
import { deleteMessageQuery, messageBody, sectorPageQuery, windowQuery } from "./api/messages.ts";
import { noteBody, noteQuery, notesQuery } from "./api/notes.ts";
import { subscriptionBody } from "./api/notifications.ts";
import { loginBody as passkeyLoginBody, registerBody as passkeyRegisterBody } from "./api/passkeys.ts";
import { cropBody, nsfwBody } from "./api/pictures.ts";
import { boundsQuery, briefsQuery, mapViewQuery, positionBody } from "./api/positions.ts";
import { idsQuery, lookingBody, presenceBody } from "./api/presence.ts";
import { profileBody } from "./api/profiles.ts";
import { reportBody } from "./api/reports.ts";
import { safetyBody } from "./api/safety.ts";
import { languageBody, quietHoursBody, settingsBody, themeBody } from "./api/settings.ts";
import { backendVersion } from "../config/version.ts";

/** What a route reads: its JSON body, its query, or its form (multipart or urlencoded). */
interface Request {
  body?: z.ZodType;
  query?: z.ZodType;
  form?: z.ZodType;
}

/** The request schemas, by "METHOD /path"; a route that reads nothing has no entry. */
export const REQUESTS: Record<string, Request> = {
  "POST /api/auth": { form: loginForm },
  "POST /api/auth/register": { body: registerBody },
  "POST /api/passkeys/register/options": { body: confirmBody },
  "POST /api/passkeys/register": { body: passkeyRegisterBody },
  "POST /api/passkeys/login": { body: passkeyLoginBody },
  "PUT /api/settings": { body: settingsBody },
  "PUT /api/settings/language": { body: languageBody },
  "PUT /api/settings/theme": { body: themeBody },
  "PUT /api/settings/quiet-hours": { body: quietHoursBody },
  "DELETE /api/sessions/:id": { body: confirmBody },
  "POST /api/sessions/end-others": { body: confirmBody },
  "PUT /api/safety": { body: safetyBody },
  "GET /api/presence": { query: idsQuery },
  "PUT /api/presence": { body: presenceBody },
  "POST /api/presence/looking": { body: lookingBody },
  "POST /api/contactus-messages": { body: contactBody },
  "POST /api/account/export/download": { body: downloadBody },
  "DELETE /api/account": { body: confirmBody },
  "PUT /api/profile-position/:profileId": { body: positionBody },
  "GET /api/profile-briefs/nearest": { query: briefsQuery },
  "GET /api/profile-briefs/by-bounds": { query: boundsQuery },
  "GET /api/profile-briefs/map": { query: mapViewQuery },
  "GET /api/profile-briefs/by-sector/:sector": { query: briefsQuery },
  "PUT /api/profile": { body: profileBody },
  "POST /api/profile-pic": {
    form: z.object({
      file: z.string().describe("the picture: JPEG, PNG, WebP, AVIF or HEIC, at most 8,192,000 bytes"),
    }),
  },
  "PUT /api/profile-pic/:id": { body: nsfwBody },
  "PUT /api/profile-pic/:id/crop": { body: cropBody },
  "GET /api/profile-likes/by-liker/:profileId": { query: likesGivenQuery },
  "GET /api/profile-likes/by-liked/:profileId": { query: cursorQuery },
  "GET /api/profile-like": { query: profileLikeQuery },
  "PUT /api/profile-like": { body: profileLikeBody },
  "PUT /api/profile-pic-like": { body: picLikeBody },
  "GET /api/profile-pic-likes/by-liker-profileid/:profileId": { query: cursorQuery },
  "GET /api/profile-pic-likes/by-liked-profileid/:profileId": { query: cursorQuery },
  "GET /api/profile-note": { query: noteQuery },
  "PUT /api/profile-note": { body: noteBody },
  "GET /api/profile-notes": { query: notesQuery },
  "POST /api/profile-report": { body: reportBody },
  "POST /api/push-subscriptions": { body: subscriptionBody },
  "DELETE /api/message/:id": { query: deleteMessageQuery },
  "GET /api/messages/most-recent-with/:profileId": { query: windowQuery },
  "GET /api/messages/between/:a/:b": { query: windowQuery },
  "POST /api/message": { body: messageBody },
  "GET /api/messages/by-sector/:sector": { query: sectorPageQuery },
  "PUT /api/games/gptbuster/:profileId": { body: gptBody },
  "PUT /api/games/ratinggame": { body: ratingBody },
  "PUT /api/games/arbitration/:reportId": { body: arbBody },
  "GET /api/games/photocrop/next": { query: photoCropNextQuery },
  "PUT /api/games/photocrop/:picId": { body: suggestCropBody },
  "PUT /api/games/photocrop/suggestions/:id": { body: answerBody },
  "GET /api/games/healthreport/contacts": { query: healthContactsQuery },
  "POST /api/games/healthreport": { body: healthReportBody },
  "POST /api/games/identify/challenge": { body: challengeBody },
  "POST /api/games/identify/selfie": {
    form: z.object({
      challenge: z.string().describe("the id of the caller's live challenge (the pose asked for)"),
      selfie: z.string().describe("the selfie taken in the page: JPEG, PNG, WebP, AVIF or HEIC"),
    }),
  },
  "PUT /api/games/identify/attempts/:attemptId": { body: idAnswerBody },
  "PUT /api/settings/verified-only": { body: onlyVerifiedBody },
  "PUT /api/admin/games/identify/:attemptId": { body: idAnswerBody },
  "POST /api/games/hotornot/tests": { body: hotTestBody },
  "GET /api/games/hotornot/next": { query: hotNextQuery },
  "PUT /api/games/hotornot/vote": { body: hotVoteBody },
  "PUT /api/games/hotornot/keep-best": { body: keepBestBody },
  "PUT /api/admin/reports/:reportId": { body: decisionBody },
  "POST /api/games/dungeon/quiz": { body: quizBody },
  "POST /api/games/dungeon/appeal": { body: appealBody },
  "PUT /api/admin/dungeon/appeals/:stayId": { body: appealDecisionBody },
  "GET /api/admin/audit": { query: auditQuery },
  "GET /api/admin/members": { query: membersQuery },
  "POST /api/admin/members/:profileId/actions": { body: actionBody },
  "POST /api/admin/members/:profileId/notes": { body: modNoteBody },
};

type Json = Record<string, unknown>;

const schemaOf = (s: z.ZodType, io: "input" | "output"): Json =>
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
    const req = REQUESTS[route] ?? {};
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
      const [status, schema] of Object.entries((RESPONSES as Record<string, Record<string, z.ZodType>>)[route] ?? {})
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
    if (req.body) op.requestBody = { content: { "application/json": { schema: schemaOf(req.body, "input") } } };
    if (req.form) {
      const form = schemaOf(req.form, "input");
      op.requestBody = {
        content: { "multipart/form-data": { schema: form }, "application/x-www-form-urlencoded": { schema: form } },
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
  return new Hono<AppEnv>()
    .get("/openapi.json", (c) => c.json(doc()))
    .get("/docs", (c) => docsPage(c, doc()));
}

const esc = (s: string) =>
  s.replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]!);

/** The reference as one HTML page: every operation with its parameters, body and answers. */
function docsPage(c: Context<AppEnv>, doc: Json): Response {
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
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
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
  c.header("cache-control", "no-store");
  return c.html(html);
}
