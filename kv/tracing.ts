/**
 * OpenTelemetry spans for KV calls: with Deno's built-in exporter on (`OTEL_DENO=true`), the
 * handle of kv/db.ts is wrapped so that every get, getMany, set, delete, list (creation to its
 * end) and atomic commit is a span `kv.<call>` under the request or job that made it. Off, the
 * handle is used as it is: no wrapper, no cost.
 */

import { type Span, SpanStatusCode, trace } from "@opentelemetry/api";

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

/** An atomic operation whose commit is a span; chained calls keep returning the wrapper. */
function tracedAtomic(op: Deno.AtomicOperation): Deno.AtomicOperation {
  const proxy: Deno.AtomicOperation = new Proxy(op, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      if (prop === "commit") return () => inSpan("kv.commit", () => target.commit());
      return (...args: unknown[]) => {
        const r = v.apply(target, args);
        return r === target ? proxy : r;
      };
    },
  });
  return proxy;
}

const SPANNED = new Set(["get", "getMany", "set", "delete"]);

/** The handle, with a span around each call. */
export function tracedKv(db: Deno.Kv): Deno.Kv {
  return new Proxy(db, {
    get(target, prop) {
      const v = Reflect.get(target, prop, target);
      if (typeof v !== "function") return v;
      if (prop === "atomic") return () => tracedAtomic(target.atomic());
      if (prop === "list") return (...args: unknown[]) => tracedList(v.apply(target, args));
      if (typeof prop === "string" && SPANNED.has(prop)) {
        return (...args: unknown[]) => inSpan(`kv.${prop}`, () => v.apply(target, args));
      }
      return v.bind(target);
    },
  });
}
