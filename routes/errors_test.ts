import assert from "node:assert/strict";
import { ApiError, forbidden, notFound } from "./errors.ts";

Deno.test("errors - an API error is an Error with its status, code and message, made without a stack trace", () => {
  const limit = (Error as ErrorConstructor & { stackTraceLimit: number }).stackTraceLimit;
  const e = forbidden("Admins only.");
  assert.ok(e instanceof ApiError && e instanceof Error);
  assert.deepEqual([e.status, e.code, e.message], [403, "forbidden", "Admins only."]);
  assert.equal(notFound().status, 404);
  // Nothing reads it (toErrorResponse answers it unlogged): no frame is taken, one per refused call.
  assert.equal(e.stack, "Error: Admins only.");
  // Every other error still takes its frames.
  assert.equal((Error as ErrorConstructor & { stackTraceLimit: number }).stackTraceLimit, limit);
  assert.match(new Error("x").stack ?? "", /\n\s+at /);
});
