/**
 * Parsing at the edge, failing with a clear 400. A handler reads its input by naming its route:
 * `await bodyOf(c, "POST /api/message")`, `queryOf(c, "GET /api/profile-notes")`, `await formOf(c,
 * "POST /api/auth")`. Each parses with the route's entry in domain/requests.ts, the same entry
 * routes/openapi.ts documents, and hands back the parsed value typed by it; a route without a body
 * (or query, or form) in the contract does not type-check. The handler calls them where it needs
 * the input, after its own access checks, so a call without a session is still a 401 and a call on
 * another member's object a 403 before any 400 (decision 0147 says why this is not middleware).
 */

import type { Context } from "hono";
import * as z from "zod";
import { ApiError, badRequest, tooLarge, unsupported } from "./errors.ts";
import {
  type BodyRoute,
  type BytesRoute,
  type FormRoute,
  type ParsedBody,
  type ParsedForm,
  type ParsedQuery,
  type QueryRoute,
  REQUESTS,
  type RequestShape,
} from "../domain/requests.ts";

import { idSchema } from "../domain/requestParts.ts";

export { credentialIdSchema, idSchema } from "../domain/requestParts.ts";

/** Turns zod issues into one readable sentence. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ` : "") + i.message).join("; ");
}

/** Parses a value with a schema or throws a 400 naming every problem. */
export function parseWith<T extends z.core.$ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = z.safeParse(schema, value);
  if (!r.success) throw badRequest(describeIssues(r.error));
  return r.data;
}

/** The JSON body, parsed with a schema; a body that is not JSON is a 400. */
export async function jsonBody<T extends z.core.$ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
  let raw: unknown;
  try {
    raw = await c.req.json();
  } catch (e) {
    // A body cut off at its limit (routes/bodylimit.ts) stays a 413.
    if (e instanceof ApiError) throw e;
    throw badRequest("The body must be JSON.");
  }
  return parseWith(schema, raw);
}

/** The fields of a form body (urlencoded or multipart); a body that is not such a form is a 400. */
export async function formFields(c: Context): Promise<Record<string, FormDataEntryValue>> {
  try {
    return Object.fromEntries(await c.req.formData());
  } catch (e) {
    // A body cut off at its limit (routes/bodylimit.ts) stays a 413.
    if (e instanceof ApiError) throw e;
    throw badRequest("The body must be a form.");
  }
}

/** The contract's request entry of a route. */
const shapeOf = (route: string): RequestShape => (REQUESTS as Record<string, RequestShape>)[route];

/**
 * The JSON body of `route`, parsed with its contract entry. A route whose body is optional (one
 * that only confirms, as a DELETE) reads a call without a JSON body as `{}`.
 */
export async function bodyOf<R extends BodyRoute>(c: Context, route: R): Promise<ParsedBody<R>> {
  const shape = shapeOf(route);
  if (shape.optionalBody && !(c.req.header("content-type") ?? "").includes("json")) {
    return parseWith(shape.body!, {}) as ParsedBody<R>;
  }
  return await jsonBody(c, shape.body!) as ParsedBody<R>;
}

/** The query string of `route`, parsed with its contract entry. */
export function queryOf<R extends QueryRoute>(c: Context, route: R): ParsedQuery<R> {
  return parseWith(shapeOf(route).query!, c.req.query()) as ParsedQuery<R>;
}

/**
 * The raw bytes of `route`, of the one type and the sizes its contract entry names: another type
 * is a 415, too many bytes a 413, too few a 400.
 */
export async function bytesOf(c: Context, route: BytesRoute): Promise<Uint8Array> {
  const { type, minBytes, maxBytes, what } = shapeOf(route).bytes!;
  if (c.req.header("content-type")?.split(";")[0].trim().toLowerCase() !== type) {
    throw unsupported(`Send ${what} as ${type}.`);
  }
  const bytes = new Uint8Array(await c.req.arrayBuffer());
  if (bytes.byteLength > maxBytes) throw tooLarge(`At most ${maxBytes.toLocaleString("en-US")} bytes of ${what}.`);
  if (bytes.byteLength < minBytes) throw badRequest(`This is not ${what}.`, "bad_bytes");
  return bytes;
}

/** The form body (urlencoded or multipart, buffered) of `route`, parsed with its contract entry. */
export async function formOf<R extends FormRoute>(c: Context, route: R): Promise<ParsedForm<R>> {
  return parseWith(shapeOf(route).form!, await formFields(c)) as ParsedForm<R>;
}

/**
 * A page's idempotency key for one queued write (islands/queries/outbox.ts makes them): a retry
 * with the same key is stored once (a message, a dungeon quiz or appeal).
 */
export const idempotencyKeyHeader = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "A bad Idempotency-Key header.")
  .optional();

/** The path parameter `name`, which must be an id (else 400); `schema` for an id of another shape. */
export function idParam(c: Context, name: string, schema: z.ZodType<string> = idSchema): string {
  const r = schema.safeParse(c.req.param(name));
  if (!r.success) throw badRequest(`${name} must be an id.`, "bad_id");
  return r.data;
}
