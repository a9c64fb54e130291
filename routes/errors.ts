/** The one error shape of the API: `{error: {code, message}}` with the right status. */

import type { ContentfulStatusCode } from "hono/utils/http-status";
import { UI_TEXTS } from "../domain/uiTexts.ts";

/** An error the API answers with its status, code and a message a member can read. */
export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, code = "bad_request") => new ApiError(400, code, message);
export const unauthorized = (message = UI_TEXTS.pleaseLogIn) => new ApiError(401, "unauthorized", message);
export const forbidden = (message = UI_TEXTS.notYours) => new ApiError(403, "forbidden", message);
export const notFound = (message = UI_TEXTS.notFoundShort) => new ApiError(404, "not_found", message);
export const conflict = (message: string, code = "conflict") => new ApiError(409, code, message);
export const timedOut = (message: string) => new ApiError(408, "timeout", message);
export const tooLarge = (message: string) => new ApiError(413, "too_large", message);
export const unsupported = (message: string) => new ApiError(415, "unsupported_type", message);
export const tooMany = (message = "Too many requests, please try again later.") =>
  new ApiError(429, "rate_limited", message);
/** A standard member's daily limit is reached (Pro and volunteers have none). */
export const dailyLimit = (message: string) => new ApiError(429, "daily_limit", message);

/** The JSON body of an error; `requestId` matches the answer to its log line. */
export function errorBody(code: string, message: string, requestId?: string) {
  return { error: requestId ? { code, message, requestId } : { code, message } };
}
