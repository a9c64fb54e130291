/** Parsing at the edge: zod schemas for bodies, queries and params, failing with a clear 400. */

import type { Context } from "hono";
import * as z from "zod";
import { ApiError, badRequest } from "./errors.ts";

/** Turns zod issues into one readable sentence. */
function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ` : "") + i.message).join("; ");
}

/** Parses a value with a schema or throws a 400 naming every problem. */
export function parseWith<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const r = schema.safeParse(value);
  if (!r.success) throw badRequest(describeIssues(r.error));
  return r.data;
}

/** The JSON body, parsed with a schema; a body that is not JSON is a 400. */
export async function jsonBody<T extends z.ZodType>(c: Context, schema: T): Promise<z.infer<T>> {
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

/** The query string, parsed with a schema. */
export function queryOf<T extends z.ZodType>(c: Context, schema: T): z.infer<T> {
  return parseWith(schema, c.req.query());
}

/**
 * The one id of a path, query or body: a profile, picture, note, message, notification, push
 * subscription, session or report id. Anything else (empty, 10,000 characters, `../`, `%00`) is a
 * 400 before the store sees it.
 */
export const idSchema = z.string().regex(/^[\w-]{1,64}$/, "must be an id");

/**
 * A page's idempotency key for one queued write (islands/queries/outbox.ts makes them): a retry
 * with the same key is stored once (a message, a dungeon quiz or appeal).
 */
export const idempotencyKeyHeader = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "A bad Idempotency-Key header.")
  .optional();

/**
 * A WebAuthn credential id as the browser sends it (base64url, at most the 1,024 characters that
 * registering accepts): the authenticator makes it, often longer than our ids may be.
 */
export const credentialIdSchema = z.string().regex(/^[\w-]{1,1024}$/, "must be a credential id");

/** The path parameter `name`, which must be an id (else 400); `schema` for an id of another shape. */
export function idParam(c: Context, name: string, schema: z.ZodType<string> = idSchema): string {
  const r = schema.safeParse(c.req.param(name));
  if (!r.success) throw badRequest(`${name} must be an id.`, "bad_id");
  return r.data;
}
