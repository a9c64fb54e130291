/**
 * Answers a route from its contract entry (domain/contract.ts): the body is typed by the route's
 * schema, so a handler that answers a wrong shape fails `deno check`, and the status is the one the
 * contract names for it (201 for a create, 202 for a queued job), so the two cannot disagree. A
 * route adopts it by naming itself once, as the app registers it:
 *
 *   .get("/profile-note", async (c) => answer(c, "GET /api/profile-note", await getNote(...)))
 *
 * No parsing at run time (the answers are the server's own); the API test kit checks every 2xx
 * answer against the same schema (tests/api.ts), which also catches a field the type allows (an
 * extra property of a non-literal object).
 */

import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { type ApiAnswer, type ApiRoute, RESPONSES } from "../domain/contract.ts";
import { jsonAnswer } from "./compression.ts";

/** The one status each route answers with, read once from the contract. */
const STATUS = new Map<string, ContentfulStatusCode>(
  Object.entries(RESPONSES).map((
    [route, byStatus],
  ) => [route, Number(Object.keys(byStatus)[0]) as ContentfulStatusCode]),
);

/** The status `route` answers with (the contract's). */
export function routeStatus(route: ApiRoute): ContentfulStatusCode {
  return STATUS.get(route) ?? 200;
}

/** The route's JSON answer, with the contract's status (as `c.json` makes it, its size known to the compression). */
export function answer<R extends ApiRoute>(c: Context, route: R, body: ApiAnswer<R>): Response {
  return jsonAnswer(c, JSON.stringify(body), STATUS.get(route) ?? 200);
}

/**
 * `answer` for a body whose JSON is already written (an answer kept with the record it is made
 * from, written once per change of it): `text` must be `JSON.stringify(body)`; the body is named
 * for its type, checked as `answer` checks it.
 */
export function answerWritten<R extends ApiRoute>(c: Context, route: R, _body: ApiAnswer<R>, text: string): Response {
  return jsonAnswer(c, text, STATUS.get(route) ?? 200);
}
