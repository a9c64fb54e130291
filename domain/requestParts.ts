/**
 * The pieces the request schemas (domain/requests.ts) are built from: the ids a path, query or
 * body names, and base64 text. Routes read the id schemas for path parameters too
 * (routes/validate.ts re-exports them).
 */

import * as z from "zod";
import { isId } from "./ids.ts";

/**
 * The one id of a path, query or body: a profile, picture, note, message, notification, push
 * subscription, session or report id. Anything else (empty, 10,000 characters, `../`, `%00`) is a
 * 400 before the store sees it.
 */
export const idSchema = z.string().regex(/^[\w-]{1,64}$/, "must be an id");

/** An id the store made (kv/ids.ts `newId`): 28 hex digits. */
export const storeId = z.string().refine(isId, "must be a valid id");

/**
 * A WebAuthn credential id as the browser sends it (base64url, at most the 1,024 characters that
 * registering accepts): the authenticator makes it, often longer than our ids may be.
 */
export const credentialIdSchema = z.string().regex(/^[\w-]{1,1024}$/, "must be a credential id");

/** An identify attempt's or a challenge's opaque id (random, base64url). */
export const tokenSchema = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "Not a valid id.");

/** Standard base64 of at most `max` characters (MLS messages and keys). */
export const b64 = (max: number) => z.string().min(4).max(max).regex(/^[A-Za-z0-9+/]+={0,2}$/, "must be base64");

/** A file part of a multipart form, as the document shows it (the upload reader checks its bytes). */
export const filePart = (description: string) => z.string().describe(description);
