/**
 * OpenTelemetry spans for KV calls: with Deno's built-in exporter on (`OTEL_DENO=true`), the
 * handle of kv/db.ts is wrapped so that every get, getMany, set, delete, list (creation to its
 * end) and atomic commit is a span `kv.<call>` under the request or job that made it. Off, the
 * handle is used as it is: no wrapper, no cost.
 */

import { type Span, SpanStatusCode, trace } from "@opentelemetry/api";
import { wrapCalls } from "./handleProxy.ts";

const tracer = trace.getTracer("app.kv");

/** Is Deno's OpenTelemetry export on for this process? */
export function tracingOn(): boolean {
  return Deno.env.get("OTEL_DENO") === "true";
}

async function inSpan<T>(name: string, fn: () => Promise<T>): Promise<T> {
  return await tracer.startActiveSpan(name, async (span) => {
    try {
      return await fn();
    } catch (e) {
      span.recordException(e as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw e;
    } finally {
      span.end();
    }
  });
}

/** A list iterator whose span lasts until the listing ends (done, or the loop left early). */
function tracedList<T>(it: Deno.KvListIterator<T>): Deno.KvListIterator<T> {
  const span: Span = tracer.startSpan("kv.list");
  let ended = false;
  const end = () => !ended && (ended = true, span.end());
  return new Proxy(it, {
    get(target, prop) {
      if (prop === "next") {
        return async () => {
          const r = await target.next();
          if (r.done) end();
          return r;
        };
      }
      if (prop === "return") {
        return async (value?: unknown) => {
          end();
          const ret = (target as AsyncIterator<Deno.KvEntry<T>>).return;
          return ret ? await ret.call(target, value) : { done: true as const, value: undefined };
        };
      }
      if (prop === Symbol.asyncIterator) {
        return function (this: unknown) {
          return this;
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === "function" ? v.bind(target) : v;
    },
  });
}

/** The handle, with a span around each call. */
export function tracedKv(db: Deno.Kv): Deno.Kv {
  return wrapCalls(db, { call: (name, run) => inSpan(`kv.${name}`, run), list: (it) => tracedList(it) });
}
